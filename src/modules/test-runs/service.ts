import { z } from 'zod';
import type { Principal } from '../../auth/access.ts';
import type { Prisma } from '../../db/client.ts';
import { inTransaction, type UnitOfWork } from '../../db/unit-of-work.ts';
import { NotFoundError, ValidationError } from '../../errors.ts';
import { DetectionResult, RemediationStatus, TestState } from '../../generated/prisma/enums.ts';
import type { Test } from '../../generated/prisma/client.ts';
import type { Services } from '../../services.ts';
import { page, parseInput, trimmed } from '../../validation.ts';
import { cursorOf, keysetOf, pageTotal, totalOfPage } from '../../db/page-totals.ts';
import { countTests, readTestPage, testFilterSql } from './page-reads.ts';
import { camelToSnake } from '../../naming.ts';
import { recomputeCoverageOf } from './coverage.ts';
import { EDIT_RULES, testLifecycle, type EditKind } from './state-machine.ts';
import { assertTestId, insertTest, lockTest, type TestQuery } from './store.ts';
import { fieldsFromTemplate } from './templates.ts';
import { techniqueIdFor, techniqueIdOrNull } from '../techniques/reference.ts';

export const TEST_PAGE = { defaultLimit: 50, maxLimit: 200 } as const;
const pageSchema = page(TEST_PAGE.defaultLimit, TEST_PAGE.maxLimit).extend({
  after: z.string().nullish(),
});

const uuid = z.guid('must be a UUID');
const longText = z.string().max(50_000, 'must be at most 50000 characters');
const name = trimmed(300);
const description = z.string().max(20_000, 'must be at most 20000 characters');
const platform = trimmed(100);
/** A technique named by its uuid or its ATT&CK id (T1003.001). */
const techniqueRef = z.string().trim().min(1, 'must name a technique').max(100);

const filterSchema = z.object({
  state: z.enum(TestState).nullish(),
  techniqueId: techniqueRef.nullish(),
  campaignId: uuid.nullish(),
  withoutCampaign: z.boolean().nullish(),
  assignedTo: uuid.nullish(),
  createdBy: uuid.nullish(),
  platform: z.string().max(100).nullish(),
  pendingValidationSide: z.enum(['red', 'blue']).nullish(),
});

/**
 * Tests matching the filter, newest first, one page at a time: by offset, or by keyset after the cursor of an
 * earlier page (`after`), which costs the same on the last page as on the first. The total is exact up to 10,000
 * matches and an estimate beyond (src/db/page-totals.ts); a caller that does not want it (`withTotal: false`) does
 * not pay for it.
 */
export async function listTests(services: Services, filter: unknown, paging: unknown, query: TestQuery = {}, withTotal = true) {
  const { state, techniqueId, campaignId, withoutCampaign, assignedTo, createdBy, platform, pendingValidationSide } = parseInput(
    filterSchema,
    filter ?? {},
  );
  const { offset, limit, after } = parseInput(pageSchema, paging);
  if (after && offset > 0) throw new ValidationError('offset', 'must be 0 (or left out) with after');
  // A technique the catalog does not have matches no test (an empty page, as for any other filter).
  const technique = techniqueId ? ((await techniqueIdOrNull(services.prisma, techniqueId)) ?? NO_TECHNIQUE) : null;
  const filters = { state, techniqueId: technique, campaignId, withoutCampaign, assignedTo, createdBy, platform, pendingValidationSide };
  const where = testFilterSql(filters);
  const filtered = Object.values(filters).some(Boolean);
  const keyset = after ? keysetOf(after) : null;
  const [rows, counted] = await Promise.all([
    // One row past the page says whether another follows.
    readTestPage(services.db, query, { where, after: keyset, skip: offset, take: limit + 1 }),
    withTotal
      ? pageTotal(services.prisma, (take) => countTests(services.db, where, take), { table: 'tests', filtered })
      : { total: 0, totalExact: true },
  ]);
  const items = rows.slice(0, limit);
  const nextCursor = rows.length > limit ? cursorOf(items[items.length - 1]!) : null;
  // An offset page agrees with its total (read as the limit + 1 rows it asked for, so a next row counts too); a
  // keyset page's total counts the rows before its cursor as well.
  const total = withTotal && !keyset ? totalOfPage(counted, { offset, limit: limit + 1, found: rows.length }) : counted;
  return { items, ...total, offset, limit, nextCursor };
}

export async function getTest(services: Services, id: string, query: TestQuery = {}) {
  assertTestId(id);
  const test = await services.prisma.test.findUnique({ ...query, where: { id } });
  if (!test) throw new NotFoundError('Test', id);
  return test;
}

/** The test's timeline, oldest first. */
/** Most entries a test timeline lists (its first ones): far above what a test's life produces. */
export const TIMELINE_MAX = 1000;

export async function testTimeline(
  services: Services,
  id: string,
  query: { select?: Prisma.TestEventSelect; include?: Prisma.TestEventInclude } = {},
) {
  await getTest(services, id, { select: { id: true } });
  return services.prisma.testEvent.findMany({
    ...query,
    where: { testId: id },
    orderBy: [{ at: 'asc' }, { id: 'asc' }],
    take: TIMELINE_MAX,
  });
}

/** The nil UUID: no technique has it. */
const NO_TECHNIQUE = '00000000-0000-0000-0000-000000000000';

async function assertCampaign(uow: UnitOfWork, campaignId: string): Promise<void> {
  if (!(await uow.tx.campaign.findUnique({ where: { id: campaignId }, select: { id: true } }))) {
    throw new ValidationError('campaignId', 'no campaign with this id');
  }
}

async function assertActiveUser(uow: UnitOfWork, userId: string, field: string): Promise<void> {
  if (!(await uow.tx.user.findFirst({ where: { id: userId, isActive: true }, select: { id: true } }))) {
    throw new ValidationError(field, 'no active user with this id');
  }
}

/** `title` and `objective` are the general fields' other names. */
const withAliases = <T extends { name?: string; title?: string; description?: string; objective?: string }>({
  title,
  objective,
  ...rest
}: T) => ({
  ...rest,
  name: rest.name ?? title,
  description: rest.description ?? objective,
});

const createSchema = z
  .object({
    techniqueId: techniqueRef,
    name: name.optional(),
    title: name.optional(),
    description: description.optional(),
    objective: description.optional(),
    platform: platform.nullish(),
    procedureText: longText.nullish(),
    toolUsed: trimmed(300).nullish(),
    assignedTo: uuid.nullish(),
    campaignId: uuid.nullish(),
  })
  .transform(withAliases)
  .refine((input) => input.name, { path: ['name'], message: 'is required' });

export function createTest(services: Services, principal: Principal, input: unknown, query: TestQuery = {}) {
  const { techniqueId: reference, assignedTo, ...fields } = parseInput(createSchema, input);
  return inTransaction(services, principal, async (uow) => {
    const techniqueId = await techniqueIdFor(uow.tx, reference);
    if (assignedTo) await assertActiveUser(uow, assignedTo, 'assignedTo');
    if (fields.campaignId) await assertCampaign(uow, fields.campaignId);
    return insertTest(uow, principal.userId, { ...fields, name: fields.name!, techniqueId, assignedToId: assignedTo ?? null }, {}, query);
  });
}

const fromTemplateSchema = z.object({
  templateId: uuid,
  techniqueId: techniqueRef.nullish(),
  name: name.nullish(),
  assignedTo: uuid.nullish(),
  campaignId: uuid.nullish(),
});

/** Creates a draft pre-filled from a template (manual or imported, e.g. an Atomic Red Team atomic). */
export function createTestFromTemplate(services: Services, principal: Principal, input: unknown, query: TestQuery = {}) {
  const data = parseInput(fromTemplateSchema, input);
  return inTransaction(services, principal, (uow) => insertTestFromTemplate(uow, principal, data, query));
}

export type TestFromTemplate = z.infer<typeof fromTemplateSchema>;

/**
 * The draft of POST /tests/from-template, written in the caller's transaction (attack-path executions create
 * one per step). `details` joins the test's `created` timeline and audit entries.
 */
export async function insertTestFromTemplate(
  uow: UnitOfWork,
  principal: Principal,
  data: TestFromTemplate,
  query: TestQuery = {},
  details: Prisma.InputJsonObject = {},
) {
  const template = await uow.tx.testTemplate.findUnique({ where: { id: data.templateId } });
  if (!template) throw new ValidationError('templateId', 'no test template with this id');
  if (!template.isActive) throw new ValidationError('templateId', 'the template is inactive');
  let techniqueId = data.techniqueId ? await techniqueIdFor(uow.tx, data.techniqueId) : undefined;
  if (!techniqueId && template.ttpTechniqueId) {
    techniqueId = (await uow.tx.technique.findUnique({ where: { ttpId: template.ttpTechniqueId }, select: { id: true } }))?.id;
  }
  if (!techniqueId) throw new ValidationError('techniqueId', 'is required: the template names no known technique');
  if (data.assignedTo) await assertActiveUser(uow, data.assignedTo, 'assignedTo');
  if (data.campaignId) await assertCampaign(uow, data.campaignId);
  const fields = {
    techniqueId,
    ...fieldsFromTemplate(template),
    name: data.name ?? template.name,
    assignedToId: data.assignedTo ?? null,
    campaignId: data.campaignId ?? null,
  };
  return insertTest(uow, principal.userId, fields, { template_id: template.id, template_source: template.source, ...details }, query);
}

const generalSchema = z
  .object({
    name,
    title: name,
    description,
    objective: description,
    platform: platform.nullable(),
    assignedTo: uuid.nullable(),
    techniqueId: techniqueRef,
  })
  .partial()
  .transform(withAliases);
const redSchema = z
  .object({
    procedureText: longText.nullable(),
    toolUsed: trimmed(300).nullable(),
    attackSuccess: z.boolean().nullable(),
    redSummary: description.nullable(),
  })
  .partial();
const blueSchema = z.object({ detectionResult: z.enum(DetectionResult).nullable(), blueSummary: description.nullable() }).partial();
const remediationSchema = z
  .object({ remediationSteps: longText.nullable(), remediationStatus: z.enum(RemediationStatus), remediationAssignee: uuid.nullable() })
  .partial();
const classificationSchema = z.object({ dataClassification: trimmed(64).nullable() });

type Changes = Partial<Prisma.TestUncheckedUpdateInput>;

/** Fields whose values are too long for the timeline and audit details: only their names are recorded. */
const LONG_FIELDS = new Set(['description', 'procedureText', 'redSummary', 'blueSummary', 'remediationSteps']);

/**
 * One edit in one transaction: lock the test, check the edit rule against its current state, write only
 * what really changes, with a timeline entry, an audit entry and an event.
 */
async function editTest(
  services: Services,
  principal: Principal,
  id: string,
  kind: EditKind,
  changesFor: (uow: UnitOfWork, test: Test, now: Date) => Promise<Changes>,
  query: TestQuery,
) {
  const rule = EDIT_RULES[kind];
  return inTransaction(services, principal, async (uow) => {
    const locked = await lockTest(uow, id);
    const { test, now } = locked;
    testLifecycle.assertIn('EDIT_NOT_ALLOWED', rule.what, test.state, rule.states);
    const proposed = await changesFor(uow, test, now);
    const changed = Object.entries(proposed).filter(([key, value]) => value !== undefined && !same(value, test[key as keyof Test]));
    if (changed.length) {
      await uow.tx.test.update({ where: { id }, data: { ...Object.fromEntries(changed), version: { increment: 1 } } });
      const details = {
        fields: changed.map(([key]) => camelToSnake(key)),
        changes: Object.fromEntries(
          changed.filter(([key]) => !LONG_FIELDS.has(key)).map(([key, value]) => [camelToSnake(key), json(value)]),
        ),
      };
      await locked.record({ kind: rule.kind, details });
      await uow.audit({ action: rule.audit, entityType: 'test', entityId: id, details });
      uow.emit('test.changed', { testId: id, campaignId: test.campaignId, change: rule.kind });
      const techniqueId = proposed.techniqueId as string | undefined;
      if (techniqueId && techniqueId !== test.techniqueId) await recomputeCoverageOf(uow, [test.techniqueId, techniqueId], 'test_moved');
    }
    return uow.tx.test.findUniqueOrThrow({ ...query, where: { id } });
  });
}

const same = (a: unknown, b: unknown) => (a instanceof Date && b instanceof Date ? a.getTime() === b.getTime() : a === b);
const json = (value: unknown) => (value instanceof Date ? value.toISOString() : (value as Prisma.InputJsonValue | null));

export function updateTest(services: Services, principal: Principal, id: string, input: unknown, query: TestQuery = {}) {
  const { assignedTo, ...fields } = parseInput(generalSchema, input ?? {});
  return editTest(
    services,
    principal,
    id,
    'general',
    async (uow) => {
      const techniqueId = fields.techniqueId ? await techniqueIdFor(uow.tx, fields.techniqueId) : undefined;
      if (assignedTo) await assertActiveUser(uow, assignedTo, 'assignedTo');
      return { ...fields, techniqueId, assignedToId: assignedTo };
    },
    query,
  );
}

export function updateTestRed(services: Services, principal: Principal, id: string, input: unknown, query: TestQuery = {}) {
  const fields = parseInput(redSchema, input ?? {});
  return editTest(services, principal, id, 'red', async () => fields, query);
}

export function updateTestBlue(services: Services, principal: Principal, id: string, input: unknown, query: TestQuery = {}) {
  const fields = parseInput(blueSchema, input ?? {});
  return editTest(services, principal, id, 'blue', async () => fields, query);
}

/** Remediation after review; remediationCompletedAt follows the status into and out of completed. */
export function updateTestRemediation(services: Services, principal: Principal, id: string, input: unknown, query: TestQuery = {}) {
  const { remediationAssignee, ...fields } = parseInput(remediationSchema, input ?? {});
  return editTest(
    services,
    principal,
    id,
    'remediation',
    async (uow, test, now) => {
      if (remediationAssignee) await assertActiveUser(uow, remediationAssignee, 'remediationAssignee');
      const changes: Changes = { ...fields, remediationAssigneeId: remediationAssignee };
      if (fields.remediationStatus && fields.remediationStatus !== test.remediationStatus) {
        changes.remediationCompletedAt = fields.remediationStatus === 'completed' ? now : null;
      }
      return changes;
    },
    query,
  );
}

export function setTestClassification(services: Services, principal: Principal, id: string, input: unknown, query: TestQuery = {}) {
  const fields = parseInput(classificationSchema, input ?? {});
  return editTest(services, principal, id, 'classification', async () => fields, query);
}
