import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from '../../../test/helpers/app.ts';
import { countQueries } from '../../../test/helpers/queries.ts';
import { createTest, team, technique, type Team } from '../../../test/helpers/test-runs.ts';
import { Prisma } from '../../generated/prisma/client.ts';
import { countTests, readTestPage, testFilterSql, type TestFilter } from './page-reads.ts';
import type { TestQuery } from './store.ts';

let t: Team;
let techniqueId: string;
let otherTechniqueId: string;
let campaignId: string;
const app = useTestApp();

/** A selection of every scalar field of a model, from Prisma's own list of them. */
const everyField = <Field extends string>(fields: Record<Field, Field>) =>
  Object.fromEntries(Object.keys(fields).map((field) => [field, true])) as Record<Field, true>;

const everyTechniqueField = everyField(Prisma.TechniqueScalarFieldEnum) satisfies Prisma.TechniqueSelect;
const everyUserField = everyField(Prisma.UserScalarFieldEnum) satisfies Prisma.UserSelect;

beforeAll(async () => {
  t = await team(app);
  ({ id: techniqueId } = await technique(app));
  ({ id: otherTechniqueId } = await technique(app));
  await app.services.prisma.technique.update({
    where: { id: techniqueId },
    data: {
      platforms: ['Windows', 'Linux'],
      tactics: ['execution'],
      attackModified: new Date('2025-04-01T10:00:00.123Z'),
      url: 'https://attack.example/T',
    },
  });
  const campaign = await app.api('POST', '/campaigns', { token: t.red_lead.token, body: { name: 'Page reads' } });
  expect(campaign.status, JSON.stringify(campaign.body)).toBe(201);
  campaignId = campaign.body.id;
  await createTest(app, t.red_lead, techniqueId, { name: 'Plain', platform: 'Windows' });
  await createTest(app, t.red_lead, techniqueId, {
    name: 'Percent',
    platform: 'win%',
    campaign_id: campaignId,
    assigned_to: t.red_tech.id,
  });
  await createTest(app, t.red_lead, otherTechniqueId, { name: 'Other', procedure_text: 'cmd.exe /c whoami', tool_used: 'cmd' });
  const rows = await app.services.prisma.test.findMany({
    where: { techniqueId: { in: [techniqueId, otherTechniqueId] } },
    select: { id: true },
  });
  // Every kind of column filled on one test: timestamps, enums, a bigint, validation and remediation fields.
  await app.services.prisma.test.update({
    where: { id: rows[0]!.id },
    data: {
      state: 'in_review',
      attackSuccess: true,
      detectionResult: 'partially_detected',
      redSummary: 'done',
      executionDate: new Date('2026-01-02T03:04:05.678Z'),
      redValidationStatus: 'approved',
      redValidatedById: t.red_lead.id,
      redValidatedAt: new Date(),
      remediationStatus: 'in_progress',
      remediationSteps: 'patch',
      elapsedMs: 5_000_000_123n,
      timerStartedAt: new Date(),
    },
  });
});

/** The page's rows as Prisma reads them with the same selection, filter and order. */
const prismaPage = (where: Prisma.TestWhereInput, select: Prisma.TestSelect) =>
  app.services.prisma.test.findMany({
    where,
    select: { ...select, createdAt: true, id: true },
    orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
  });

const page = (filter: TestFilter, select: Prisma.TestSelect | undefined, take = 100) =>
  readTestPage(app.services.db, select ? { select } : {}, { where: testFilterSql(filter), after: null, skip: 0, take });
const pageWith = (filter: TestFilter, query: TestQuery) =>
  readTestPage(app.services.db, query, { where: testFilterSql(filter), after: null, skip: 0, take: 100 });

describe('the test list read in SQL', () => {
  it('reads what Prisma reads, value for value: every column of the test and of its technique', async () => {
    const where = { techniqueId: { in: [techniqueId, otherTechniqueId] } };
    const expected = await app.services.prisma.test.findMany({
      where,
      include: { technique: { select: everyTechniqueField } },
      orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
    });
    expect(expected).toHaveLength(3);
    const columns = Object.fromEntries(
      Object.keys(expected[0]!)
        .filter((key) => key !== 'technique')
        .map((key) => [key, true]),
    );
    for (const id of [techniqueId, otherTechniqueId]) {
      const wanted = expected.filter((row) => row.techniqueId === id);
      // The whole test (no selection), and every column with the technique's.
      expect(await page({ techniqueId: id }, undefined)).toEqual(wanted.map(({ technique: _, ...row }) => row));
      // What the GraphQL types ask: every column and the technique's (include), or some of each (select).
      const included = await pageWith({ techniqueId: id }, { include: { technique: { select: everyTechniqueField } } });
      expect(included).toEqual(wanted.map((row) => expect.objectContaining(row)));
      const selected = await page({ techniqueId: id }, { ...columns, technique: { select: everyTechniqueField } });
      expect(selected).toEqual(wanted.map((row) => expect.objectContaining(row)));
    }
  });

  it("reads the test's people as Prisma does: null where the test names nobody", async () => {
    await app.services.prisma.user.update({
      where: { id: t.red_tech.id },
      data: { preferences: { theme: 'dark' }, displayName: 'Red Tech' },
    });
    const people = {
      createdBy: { select: everyUserField },
      assignedTo: { select: everyUserField },
      remediationAssignee: { select: { id: true, username: true } },
    } satisfies Prisma.TestSelect;
    const expected = await prismaPage({ techniqueId }, people);
    expect(expected.map((row) => row.assignedTo?.username ?? null)).toContain(null);
    expect(expected.map((row) => row.assignedTo?.id ?? null)).toContain(t.red_tech.id);
    expect(await page({ techniqueId }, people)).toEqual(expected.map((row) => expect.objectContaining(row)));
    // A relation asked whole (`true`), as the GraphQL types ask a user.
    const whole = await app.services.prisma.test.findMany({
      where: { techniqueId },
      include: { assignedTo: true, createdBy: true },
      orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
    });
    expect(await pageWith({ techniqueId }, { include: { assignedTo: true, createdBy: true } })).toEqual(
      whole.map((row) => expect.objectContaining(row)),
    );
  });

  it('matches what the Prisma filter it replaces matched, for each filter and together, in the same order', async () => {
    const cases: [TestFilter, Prisma.TestWhereInput][] = [
      [{ techniqueId }, { techniqueId }],
      [{ state: 'in_review' }, { state: 'in_review' }],
      [{ campaignId }, { campaignId }],
      [
        { withoutCampaign: true, techniqueId },
        { campaignId: null, techniqueId },
      ],
      [{ assignedTo: t.red_tech.id }, { assignedToId: t.red_tech.id }],
      [{ createdBy: t.red_lead.id }, { createdById: t.red_lead.id }],
      // Literal and case-insensitive: `win%` matches only itself, `WINDOWS` matches Windows.
      [{ platform: 'WIN%' }, { platform: { equals: 'win\\%', mode: 'insensitive' } }],
      [{ platform: 'windows' }, { platform: { equals: 'windows', mode: 'insensitive' } }],
      [{ platform: 'win_ows' }, { platform: { equals: 'win\\_ows', mode: 'insensitive' } }],
      [{ pendingValidationSide: 'red' }, { state: 'in_review', redValidationStatus: null }],
      [{ pendingValidationSide: 'blue' }, { state: 'in_review', blueValidationStatus: null }],
      [
        { state: 'draft', techniqueId, createdBy: t.red_lead.id },
        { state: 'draft', techniqueId, createdById: t.red_lead.id },
      ],
    ];
    for (const [filter, where] of cases) {
      const expected = (await prismaPage(where, { id: true })).map((row) => row.id);
      const read = (await page(filter, { id: true }, 1_000)).map((row) => row.id);
      expect(read, JSON.stringify(filter)).toEqual(expected);
      expect(await countTests(app.services.db, testFilterSql(filter), 1_000), JSON.stringify(filter)).toBe(expected.length);
    }
    expect((await page({ platform: 'WIN%' }, { name: true })).map((row) => row.name)).toEqual(['Percent']);
  });

  it('pages after a keyset and by offset as Prisma does, and reads any other selection through Prisma, in the page order', async () => {
    const all = (await prismaPage({ techniqueId }, { id: true })).map((row) => row.id);
    expect(all).toHaveLength(2);
    const [newest] = await page({ techniqueId }, { id: true, createdAt: true }, 1);
    const after = await readTestPage(
      app.services.db,
      { select: { id: true } },
      { where: testFilterSql({ techniqueId }), after: { createdAt: newest!.createdAt, id: newest!.id }, skip: 0, take: 10 },
    );
    expect(after.map((row) => row.id)).toEqual(all.slice(1));
    const skipped = await readTestPage(
      app.services.db,
      { select: { id: true } },
      { where: testFilterSql({ techniqueId }), after: null, skip: 1, take: 10 },
    );
    expect(skipped.map((row) => row.id)).toEqual(all.slice(1));
    // A to-many relation: the ids in SQL, the rows through Prisma, in the SQL's order.
    const nested = await readTestPage(
      app.services.db,
      { select: { name: true, events: { select: { kind: true } }, technique: { select: { ttpId: true } } } },
      { where: testFilterSql({ techniqueId }), after: null, skip: 0, take: 10 },
    );
    expect(nested.map((row) => row.id)).toEqual(all);
    expect((nested[0] as unknown as { events: { kind: string }[] }).events.map((event) => event.kind)).toContain('created');
  });

  it('answers the REST page through it, in one statement with the technique of each test', async () => {
    let response: any;
    const statements = await countQueries(async () => {
      response = await app.api('GET', `/tests?technique_id=${techniqueId}`, { token: t.viewer.token });
    });
    // The technique resolved from its uuid, the page with the techniques joined, the bounded count.
    expect(statements).toBe(3);
    const page = await countQueries(
      () => app.api('GET', `/tests?technique_id=${techniqueId}`, { token: t.viewer.token }),
      /FROM tests t JOIN techniques k ON k.id = t.technique_id WHERE/,
    );
    expect(page).toBe(1);
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    expect(response.body.items.map((item: any) => item.technique.id)).toEqual([techniqueId, techniqueId]);
    expect(response.body.items.find((item: any) => item.name === 'Percent')).toMatchObject({
      platform: 'win%',
      campaign_id: campaignId,
      state: 'draft',
    });
  });

  it("answers the board's GraphQL list with the technique and assignee in the page's one statement", async () => {
    const document = `query ($filter: TestFilter) {
      tests(filter: $filter) { total items { id name platform technique { ttpId name } assignedTo { username displayName } myActions } }
    }`;
    let answer: any;
    const throughPrisma = await countQueries(async () => {
      answer = await app.graphql(document, { filter: { techniqueId } }, t.viewer.token);
    }, /"tests"/);
    expect(throughPrisma).toBe(0);
    const items = answer.data.tests.items;
    expect(items.map((item: any) => item.assignedTo?.displayName ?? null).sort()).toEqual([null, 'Red Tech'].sort());
    expect(items.every((item: any) => item.technique.name.startsWith('Technique '))).toBe(true);
  });
});
