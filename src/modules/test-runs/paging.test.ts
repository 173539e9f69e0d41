import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from '../../../test/helpers/app.ts';
import { countQueries } from '../../../test/helpers/queries.ts';
import { createTest, team, technique, type Team } from '../../../test/helpers/test-runs.ts';
import { EXACT_TOTAL_MAX } from '../../db/page-totals.ts';

let t: Team;
const app = useTestApp();

beforeAll(async () => {
  t = await team(app);
});

const list = async (query: string) => {
  const response = await app.api('GET', `/tests?${query}`, { token: t.viewer.token });
  return response;
};

describe('keyset paging of GET /tests and Query.tests', () => {
  it('walks every test of a filter once, in the order of offset paging, and ends with next_cursor null', async () => {
    const { id: techniqueId } = await technique(app);
    // Created in one statement, so that many share a creation time and the id decides their order.
    const created = await Promise.all(Array.from({ length: 7 }, (_, i) => createTest(app, t.red_lead, techniqueId, { name: `Test ${i}` })));
    const byOffset = (await list(`technique_id=${techniqueId}&limit=200`)).body.items.map((item: any) => item.id);
    expect(byOffset.sort()).toEqual(created.map((test) => test.id).sort());

    const walked: string[] = [];
    let after: string | null = null;
    let pages = 0;
    do {
      const response: any = await list(`technique_id=${techniqueId}&limit=3${after ? `&after=${after}` : ''}`);
      expect(response.status, JSON.stringify(response.body)).toBe(200);
      expect(response.body).toMatchObject({ total: 7, total_exact: true, offset: 0, limit: 3 });
      walked.push(...response.body.items.map((item: any) => item.id));
      after = response.body.next_cursor;
      pages++;
    } while (after);
    expect(pages).toBe(3);
    expect(walked).toEqual((await list(`technique_id=${techniqueId}&limit=200`)).body.items.map((item: any) => item.id));

    const graphql = await app.graphql(
      `query ($filter: TestFilter, $after: String) { tests(filter: $filter, limit: 4, after: $after) { items { id } nextCursor totalExact } }`,
      { filter: { techniqueId } },
      t.viewer.token,
    );
    const first = (graphql as any).data.tests;
    expect(first.items.map((item: any) => item.id)).toEqual(walked.slice(0, 4));
    const second = (await app.graphql(
      `query ($filter: TestFilter, $after: String) { tests(filter: $filter, limit: 4, after: $after) { items { id } nextCursor } }`,
      { filter: { techniqueId }, after: first.nextCursor },
      t.viewer.token,
    )) as any;
    expect(second.data.tests).toEqual({ items: walked.slice(4).map((id) => ({ id })), nextCursor: null });
  });

  it('a test created after the first page was read does not shift the next page, as it would by offset', async () => {
    const { id: techniqueId } = await technique(app);
    for (let i = 0; i < 4; i++) await createTest(app, t.red_lead, techniqueId, { name: `Old ${i}` });
    const before = (await list(`technique_id=${techniqueId}`)).body.items.map((item: any) => item.id);
    const first = (await list(`technique_id=${techniqueId}&limit=2`)).body;
    await new Promise((resolve) => setTimeout(resolve, 5));
    await createTest(app, t.red_lead, techniqueId, { name: 'New' });
    const byCursor = (await list(`technique_id=${techniqueId}&limit=2&after=${first.next_cursor}`)).body;
    const byOffset = (await list(`technique_id=${techniqueId}&limit=2&offset=2`)).body;
    expect(byCursor.items.map((item: any) => item.id)).toEqual(before.slice(2, 4));
    expect(byOffset.items.map((item: any) => item.id)).toEqual(before.slice(1, 3));
  });

  it('answers a cursor it did not give, or a cursor with an offset, with 400 VALIDATION_ERROR', async () => {
    const forged = Buffer.from("2026-01-01T00:00:00.000Z|x' OR 1=1 --").toString('base64url');
    for (const query of ['after=nonsense', `after=${forged}`, `after=${'A'.repeat(5000)}`, 'after=%00']) {
      const response = await list(query);
      expect(response.status, query).toBe(400);
      expect(response.body).toMatchObject({ code: 'VALIDATION_ERROR', detail: expect.stringContaining('after') });
    }
    const { next_cursor } = (await list('limit=1')).body;
    const both = await list(`limit=1&offset=1&after=${next_cursor}`);
    expect(both.status).toBe(400);
    expect(both.body).toMatchObject({ code: 'VALIDATION_ERROR', detail: expect.stringContaining('offset') });
  });

  it('does not count when the selection has no total', async () => {
    const document = (fields: string) => `{ tests(limit: 5) { items { id } ${fields} } }`;
    const withTotal = await countQueries(() => app.graphql(document('total'), {}, t.viewer.token), /count\(/i);
    const without = await countQueries(() => app.graphql(document('nextCursor'), {}, t.viewer.token), /count\(/i);
    expect(withTotal).toBe(1);
    expect(without).toBe(0);
  });
});

describe('the total of GET /tests beyond 10,000 matches', () => {
  it('is exact up to the limit, then an estimate flagged total_exact false: the statistics without a filter, a lower bound with one', async () => {
    const { id: techniqueId } = await technique(app);
    const { id: small } = await technique(app);
    await createTest(app, t.red_lead, small);
    const rows = Array.from({ length: EXACT_TOTAL_MAX + 50 }, (_, i) => ({
      techniqueId,
      name: `Bulk ${i}`,
      createdById: t.admin.id,
      lineageId: randomUUID(),
    }));
    await app.services.prisma.test.createMany({ data: rows });
    await app.services.prisma.$executeRawUnsafe('ANALYZE tests');
    const all = await app.services.prisma.test.count();

    expect((await list(`technique_id=${small}`)).body).toMatchObject({ total: 1, total_exact: true });
    expect((await list(`technique_id=${techniqueId}&limit=1`)).body).toMatchObject({ total: EXACT_TOTAL_MAX + 1, total_exact: false });
    const unfiltered = (await list('limit=1')).body;
    expect(unfiltered.total_exact).toBe(false);
    // ANALYZE reads every row of a table this small, so the estimate is the count.
    expect(unfiltered.total).toBe(all);
  });
});
