import { z } from 'zod';
import type { Principal } from '../../auth/access.ts';
import type { Prisma } from '../../db/client.ts';
import { containsText } from '../../db/search.ts';
import { inTransaction, type UnitOfWork } from '../../db/unit-of-work.ts';
import { NotFoundError, ValidationError } from '../../errors.ts';
import { CampaignStatus } from '../../generated/prisma/enums.ts';
import type { Services } from '../../services.ts';
import { page, parseInput, trimmed } from '../../validation.ts';
import { camelToSnake } from '../../naming.ts';
import { TestInOtherCampaignError } from './errors.ts';
import { assertMayDelete } from './permissions.ts';
import { followSchedule, periodProblem, recurrence, scheduleIdOf } from './schedule.ts';
import { campaignLifecycle, EDITABLE_STATUSES } from './state-machine.ts';
import { assertCampaignId, lockCampaign, newHistory, type CampaignQuery, type LockedCampaign } from './store.ts';
import { pageOf } from '../../db/page-totals.ts';

export const CAMPAIGN_PAGE = { defaultLimit: 50, maxLimit: 200 } as const;
const pageSchema = page(CAMPAIGN_PAGE.defaultLimit, CAMPAIGN_PAGE.maxLimit);

const uuid = z.guid('must be a UUID');
const name = trimmed(300);
const description = z.string().max(20_000, 'must be at most 20000 characters');
/** purple (the default), red, blue, threat_actor, regression or any other lowercase word. */
export const campaignType = z
  .string()
  .trim()
  .toLowerCase()
  .regex(/^[a-z][a-z0-9_-]{0,39}$/, 'must be a lowercase word such as purple, red, blue, threat_actor or regression');

const filterSchema = z
  .object({
    status: z.enum(CampaignStatus).nullish(),
    type: z.string().trim().toLowerCase().max(40, 'must be at most 40 characters').nullish(),
    search: z.string().trim().max(200, 'must be at most 200 characters').nullish(),
    dateFrom: z.date().nullish(),
    dateTo: z.date().nullish(),
  })
  .refine((filter) => !filter.dateFrom || !filter.dateTo || filter.dateFrom <= filter.dateTo, {
    path: ['dateTo'],
    message: 'must not be before date_from',
  });

/**
 * Campaigns whose period overlaps [from, to]. The period runs from start_date (created_at when there is
 * none) to end_date (completed_at when there is none; still running when neither is set).
 */
function overlapping(from: Date | null | undefined, to: Date | null | undefined): Prisma.CampaignWhereInput[] {
  const conditions: Prisma.CampaignWhereInput[] = [];
  if (to) conditions.push({ OR: [{ startDate: { lte: to } }, { startDate: null, createdAt: { lte: to } }] });
  if (from) {
    conditions.push({
      OR: [{ endDate: { gte: from } }, { endDate: null, completedAt: { gte: from } }, { endDate: null, completedAt: null }],
    });
  }
  return conditions;
}

/** Campaigns matching the filter, newest first, one page at a time. */
export async function listCampaigns(services: Services, filter: unknown, paging: unknown, query: CampaignQuery = {}) {
  const { status, type, search, dateFrom, dateTo } = parseInput(filterSchema, filter ?? {});
  const { offset, limit } = parseInput(pageSchema, paging);
  const and: Prisma.CampaignWhereInput[] = overlapping(dateFrom, dateTo);
  if (status) and.push({ status });
  if (type) and.push({ type });
  if (search) and.push({ OR: [{ name: containsText(search) }, { description: containsText(search) }] });
  const where = { AND: and };
  return pageOf({ offset, limit }, [
    services.prisma.campaign.findMany({ ...query, where, orderBy: [{ createdAt: 'desc' }, { id: 'desc' }], skip: offset, take: limit }),
    services.prisma.campaign.count({ where }),
  ]);
}

export async function getCampaign(services: Services, id: string, query: CampaignQuery = {}) {
  assertCampaignId(id);
  const campaign = await services.prisma.campaign.findUnique({ ...query, where: { id } });
  if (!campaign) throw new NotFoundError('Campaign', id);
  return campaign;
}

async function assertThreatActor(uow: UnitOfWork, threatActorId: string): Promise<void> {
  if (!(await uow.tx.threatActor.findUnique({ where: { id: threatActorId }, select: { id: true } }))) {
    throw new ValidationError('threatActorId', 'no threat actor with this id');
  }
}

const createSchema = z
  .object({
    name,
    description: description.nullish(),
    type: campaignType.nullish(),
    threatActorId: uuid.nullish(),
    startDate: z.date().nullish(),
    endDate: z.date().nullish(),
    recurrence: recurrence.nullish(),
  })
  .superRefine((input, ctx) => {
    const problem = periodProblem(input.startDate, input.endDate);
    if (problem) ctx.addIssue({ code: 'custom', path: ['endDate'], message: problem });
  });

/** Writes a new draft campaign with its `created` history entry, audit entry and event. */
export async function insertCampaign(
  uow: UnitOfWork,
  createdById: string,
  data: Omit<Prisma.CampaignUncheckedCreateInput, 'createdById' | 'status'>,
  details: Prisma.InputJsonObject = {},
) {
  const campaign = await uow.tx.campaign.create({ data: { ...data, createdById, status: 'draft' } });
  await newHistory(uow, campaign).record({
    kind: 'created',
    toStatus: 'draft',
    details: { name: campaign.name, type: campaign.type, ...details },
  });
  await uow.audit({
    action: 'create_campaign',
    entityType: 'campaign',
    entityId: campaign.id,
    details: { name: campaign.name, type: campaign.type, ...details },
  });
  uow.emit('campaign.changed', { campaignId: campaign.id, change: 'created' });
  return campaign;
}

/** Creates a campaign in draft. */
export function createCampaign(services: Services, principal: Principal, input: unknown, query: CampaignQuery = {}) {
  const data = parseInput(createSchema, input);
  return inTransaction(services, principal, async (uow) => {
    if (data.threatActorId) await assertThreatActor(uow, data.threatActorId);
    const campaign = await insertCampaign(uow, principal.userId, {
      name: data.name,
      description: data.description ?? '',
      type: data.type ?? 'purple',
      threatActorId: data.threatActorId ?? null,
      startDate: data.startDate ?? null,
      endDate: data.endDate ?? null,
      recurrence: data.recurrence ?? null,
    });
    return uow.tx.campaign.findUniqueOrThrow({ ...query, where: { id: campaign.id } });
  });
}

const updateSchema = z.object({ name, description, type: campaignType, threatActorId: uuid.nullable() }).partial();

/** Changes the descriptive fields (any status); only what really changes is written and recorded. */
export function updateCampaign(services: Services, principal: Principal, id: string, input: unknown, query: CampaignQuery = {}) {
  const changes = parseInput(updateSchema, input ?? {});
  return inTransaction(services, principal, async (uow) => {
    const locked = await lockCampaign(uow, id);
    const { campaign: before } = locked;
    if (changes.threatActorId) await assertThreatActor(uow, changes.threatActorId);
    const changed = Object.fromEntries(
      Object.entries(changes).filter(([key, value]) => value !== undefined && value !== before[key as keyof typeof before]),
    );
    if (Object.keys(changed).length) {
      const campaign = await uow.tx.campaign.update({ where: { id }, data: { ...changed, version: { increment: 1 } } });
      const details = {
        fields: Object.keys(changed).map(camelToSnake),
        changes: Object.fromEntries(Object.entries(changed).map(([key, value]) => [camelToSnake(key), value ?? null])),
      };
      await locked.record({ kind: 'updated', details });
      await uow.audit({ action: 'update_campaign', entityType: 'campaign', entityId: id, details });
      uow.emit('campaign.changed', { campaignId: id, change: 'updated' });
      // The scheduler entry carries the name it is shown with.
      if (changed.name && campaign.recurrence) followSchedule(services, uow, campaign);
    }
    return uow.tx.campaign.findUniqueOrThrow({ ...query, where: { id } });
  });
}

/**
 * Deletes the campaign (its creator or an admin). Its tests stay, outside any campaign; its history,
 * executions and scheduler entry go with it.
 */
export function deleteCampaign(services: Services, principal: Principal, id: string): Promise<string> {
  return inTransaction(services, principal, async (uow) => {
    const { campaign } = await lockCampaign(uow, id);
    assertMayDelete(principal, campaign);
    const tests = await uow.tx.test.findMany({ where: { campaignId: id }, select: { id: true }, orderBy: { createdAt: 'asc' } });
    if (tests.length) await uow.tx.test.updateMany({ where: { campaignId: id }, data: { campaignId: null, version: { increment: 1 } } });
    await uow.tx.campaign.delete({ where: { id } });
    await uow.audit({
      action: 'delete_campaign',
      entityType: 'campaign',
      entityId: id,
      details: { name: campaign.name, status: campaign.status, released_test_ids: tests.map((test) => test.id) },
    });
    for (const test of tests) uow.emit('test.changed', { testId: test.id, campaignId: null, change: 'campaign_removed' });
    uow.emit('campaign.changed', { campaignId: id, change: 'deleted' });
    services.jobs.assertAvailable();
    uow.afterCommit(() => services.jobs.removeSchedule(scheduleIdOf(id)));
    return id;
  });
}

/** Locks a campaign whose tests may still change. */
async function lockEditable(uow: UnitOfWork, id: string, what: string): Promise<LockedCampaign> {
  const locked = await lockCampaign(uow, id);
  campaignLifecycle.assertIn('EDIT_NOT_ALLOWED', what, locked.campaign.status, EDITABLE_STATUSES);
  return locked;
}

const addTestSchema = z.object({ testId: uuid });

/**
 * Puts an existing test into the campaign. A test already in it changes nothing; a test of another
 * campaign is refused (409): it has to be removed there first.
 */
export function addCampaignTest(services: Services, principal: Principal, id: string, input: unknown, query: CampaignQuery = {}) {
  const { testId } = parseInput(addTestSchema, input ?? {});
  return inTransaction(services, principal, async (uow) => {
    const locked = await lockEditable(uow, id, 'Adding tests');
    const [test] = await uow.tx.$queryRaw<{ id: string; name: string; campaign_id: string | null }[]>`
      SELECT id, name, campaign_id FROM tests WHERE id = ${testId}::uuid FOR NO KEY UPDATE`;
    if (!test) throw new ValidationError('testId', 'no test with this id');
    if (test.campaign_id && test.campaign_id !== id) throw new TestInOtherCampaignError(testId, test.campaign_id);
    if (!test.campaign_id) {
      await uow.tx.test.update({ where: { id: testId }, data: { campaignId: id, version: { increment: 1 } } });
      await uow.tx.campaign.update({ where: { id }, data: { version: { increment: 1 } } });
      const details = { test_id: testId, test_name: test.name };
      await locked.record({ kind: 'test_added', details });
      await uow.audit({ action: 'add_campaign_test', entityType: 'campaign', entityId: id, details });
      uow.emit('test.changed', { testId, campaignId: id, change: 'campaign_added' });
      uow.emit('campaign.changed', { campaignId: id, change: 'test_added' });
    }
    return uow.tx.campaign.findUniqueOrThrow({ ...query, where: { id } });
  });
}

/** Takes a test out of the campaign: the test stays, with no campaign. */
export function removeCampaignTest(services: Services, principal: Principal, id: string, testId: string, query: CampaignQuery = {}) {
  return inTransaction(services, principal, async (uow) => {
    const locked = await lockEditable(uow, id, 'Removing tests');
    const test = uuid.safeParse(testId).success
      ? await uow.tx.test.findFirst({ where: { id: testId, campaignId: id }, select: { id: true, name: true } })
      : null;
    if (!test) throw new NotFoundError(`Test ${testId} in campaign`, id);
    await uow.tx.test.update({ where: { id: testId }, data: { campaignId: null, version: { increment: 1 } } });
    await uow.tx.campaign.update({ where: { id }, data: { version: { increment: 1 } } });
    const details = { test_id: testId, test_name: test.name };
    await locked.record({ kind: 'test_removed', details });
    await uow.audit({ action: 'remove_campaign_test', entityType: 'campaign', entityId: id, details });
    uow.emit('test.changed', { testId, campaignId: null, change: 'campaign_removed' });
    uow.emit('campaign.changed', { campaignId: id, change: 'test_removed' });
    return uow.tx.campaign.findUniqueOrThrow({ ...query, where: { id } });
  });
}

/** Most history entries and executions a history lists: the latest ones (years of hourly occurrences). */
export const CAMPAIGN_HISTORY_MAX = 2000;

/** The campaign's history (its latest changes, oldest first) and the executions of its latest occurrences (in occurrence order). */
export async function campaignHistory(services: Services, id: string) {
  await getCampaign(services, id, { select: { id: true } });
  const [events, executions] = await Promise.all([
    services.prisma.campaignEvent.findMany({
      where: { campaignId: id },
      orderBy: [{ at: 'desc' }, { id: 'desc' }],
      take: CAMPAIGN_HISTORY_MAX,
    }),
    services.prisma.campaignExecution.findMany({
      where: { campaignId: id },
      orderBy: [{ occurrence: 'desc' }],
      take: CAMPAIGN_HISTORY_MAX,
    }),
  ]);
  return { events: events.reverse(), executions: executions.reverse() };
}
