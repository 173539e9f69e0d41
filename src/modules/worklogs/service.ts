import { z } from 'zod';
import type { Principal } from '../../auth/access.ts';
import type { Db, Prisma } from '../../db/client.ts';
import { inTransaction } from '../../db/unit-of-work.ts';
import { countOfPage } from '../../db/page-totals.ts';
import { ForbiddenError, NotFoundError, ValidationError } from '../../errors.ts';
import type { Worklog } from '../../generated/prisma/client.ts';
import type { Services } from '../../services.ts';
import { page, parseInput, trimmed, uuid } from '../../validation.ts';
import { assertOwnWorklog, readsAllWorklogs } from './permissions.ts';

type Query = { select?: Prisma.WorklogSelect; include?: Prisma.WorklogInclude };

export const WORKLOG_PAGE = { defaultLimit: 50, maxLimit: 200 } as const;
/** Most rows each breakdown of a summary lists (the users or campaigns with the most minutes). */
export const SUMMARY_ROWS_MAX = 1000;
export const MINUTES_PER_DAY = 1440;

const DAY_MS = 86_400_000;
/** A calendar date, `YYYY-MM-DD`, stored as the UTC midnight Prisma reads a DATE column as. */
const calendarDate = z.iso.date('must be a date (YYYY-MM-DD)').transform((text) => new Date(`${text}T00:00:00Z`));
/** Time is logged once spent: a day in the future is refused (tomorrow is allowed, for time zones ahead of UTC). */
const workDate = calendarDate.refine((date) => date.getTime() <= Date.now() + DAY_MS, 'must not be in the future');

/** How a worklog's date reads: `YYYY-MM-DD`. */
export const dateText = (date: Date) => date.toISOString().slice(0, 10);

const editable = {
  minutes: z
    .number()
    .int('must be a whole number of minutes')
    .min(1, 'must be at least 1')
    .max(MINUTES_PER_DAY, `must be at most ${MINUTES_PER_DAY}`),
  date: workDate,
  description: trimmed(2000),
  testId: uuid.nullable(),
  campaignId: uuid.nullable(),
};

const createSchema = z.object({ ...editable, testId: editable.testId.optional(), campaignId: editable.campaignId.optional() });
const updateSchema = z.object(editable).partial();

const filterSchema = z
  .object({
    userId: uuid.nullish(),
    from: calendarDate.nullish(),
    to: calendarDate.nullish(),
    testId: uuid.nullish(),
    campaignId: uuid.nullish(),
  })
  .refine((filter) => !filter.from || !filter.to || filter.from <= filter.to, { path: ['to'], message: 'must not be before from' });

export interface WorklogFilter {
  userId?: string | null;
  from?: string | null;
  to?: string | null;
  testId?: string | null;
  campaignId?: string | null;
}

/**
 * The entries a filter selects among those the caller may read: their own, or everyone's for an admin. A
 * non-admin naming another user is refused (403) rather than silently shown their own.
 */
function visibleWhere(principal: Principal, filter: WorklogFilter | null | undefined): Prisma.WorklogWhereInput {
  const { userId, from, to, testId, campaignId } = parseInput(filterSchema, filter ?? {});
  const readsAll = readsAllWorklogs(principal);
  if (userId && userId !== principal.userId && !readsAll) throw new ForbiddenError("Only admins can read other users' worklogs");
  return {
    userId: userId ?? (readsAll ? undefined : principal.userId),
    date: from || to ? { gte: from ?? undefined, lte: to ?? undefined } : undefined,
    testId: testId ?? undefined,
    campaignId: campaignId ?? undefined,
  };
}

/** One page of the entries the caller may read, latest day first, with the minutes of every matching entry. */
export async function listWorklogs(services: Services, principal: Principal, filter: WorklogFilter | null | undefined, paging: unknown) {
  const { offset, limit } = parseInput(page(WORKLOG_PAGE.defaultLimit, WORKLOG_PAGE.maxLimit), paging);
  const where = visibleWhere(principal, filter);
  const db = services.prisma;
  const [items, totals] = await Promise.all([
    db.worklog.findMany({ where, orderBy: [{ date: 'desc' }, { createdAt: 'desc' }, { id: 'desc' }], skip: offset, take: limit }),
    db.worklog.aggregate({ where, _count: { _all: true }, _sum: { minutes: true } }),
  ]);
  const total = countOfPage(totals._count._all, { offset, limit, found: items.length });
  return { items, total, offset, limit, totalMinutes: totals._sum.minutes ?? 0 };
}

export interface WorklogSummary {
  totalMinutes: number;
  entries: number;
  byUser: { userId: string; username: string; displayName: string | null; minutes: number; entries: number }[];
  byCampaign: { campaignId: string | null; campaignName: string | null; minutes: number; entries: number }[];
}

/** Minutes and entries in all, per user and per campaign (entries outside any campaign as one row), summed by the database. */
export async function worklogSummary(
  services: Services,
  principal: Principal,
  filter: WorklogFilter | null | undefined,
): Promise<WorklogSummary> {
  const where = visibleWhere(principal, filter);
  const db = services.prisma;
  const [totals, users, campaigns] = await Promise.all([
    db.worklog.aggregate({ where, _count: { _all: true }, _sum: { minutes: true } }),
    db.worklog.groupBy({
      by: ['userId'],
      where,
      _count: { _all: true },
      _sum: { minutes: true },
      orderBy: [{ _sum: { minutes: 'desc' } }, { userId: 'asc' }],
      take: SUMMARY_ROWS_MAX,
    }),
    db.worklog.groupBy({
      by: ['campaignId'],
      where,
      _count: { _all: true },
      _sum: { minutes: true },
      orderBy: [{ _sum: { minutes: 'desc' } }, { campaignId: 'asc' }],
      take: SUMMARY_ROWS_MAX,
    }),
  ]);
  const [names, campaignNames] = await Promise.all([
    db.user.findMany({ where: { id: { in: users.map((row) => row.userId) } }, select: { id: true, username: true, displayName: true } }),
    db.campaign.findMany({ where: { id: { in: campaigns.flatMap((row) => row.campaignId ?? []) } }, select: { id: true, name: true } }),
  ]);
  const userById = new Map(names.map((user) => [user.id, user]));
  const campaignById = new Map(campaignNames.map((campaign) => [campaign.id, campaign.name]));
  return {
    totalMinutes: totals._sum.minutes ?? 0,
    entries: totals._count._all,
    byUser: users.map((row) => ({
      userId: row.userId,
      username: userById.get(row.userId)?.username ?? '',
      displayName: userById.get(row.userId)?.displayName ?? null,
      minutes: row._sum.minutes ?? 0,
      entries: row._count._all,
    })),
    byCampaign: campaigns.map((row) => ({
      campaignId: row.campaignId,
      campaignName: row.campaignId ? (campaignById.get(row.campaignId) ?? null) : null,
      minutes: row._sum.minutes ?? 0,
      entries: row._count._all,
    })),
  };
}

async function findVisible(db: Db, principal: Principal, id: string): Promise<Worklog> {
  const entry = await db.worklog.findUnique({ where: { id } });
  if (!entry) throw new NotFoundError('Worklog', id);
  assertOwnWorklog(principal, entry);
  return entry;
}

export async function getWorklog(services: Services, principal: Principal, id: string, query: Query = {}) {
  await findVisible(services.prisma, principal, id);
  return services.prisma.worklog.findUniqueOrThrow({ ...query, where: { id } });
}

async function testOf(db: Db, testId: string) {
  const test = await db.test.findUnique({ where: { id: testId }, select: { campaignId: true } });
  if (!test) throw new ValidationError('testId', 'no test with this id');
  return test;
}

async function assertCampaign(db: Db, campaignId: string): Promise<void> {
  if (!(await db.campaign.findUnique({ where: { id: campaignId }, select: { id: true } }))) {
    throw new ValidationError('campaignId', 'no campaign with this id');
  }
}

const auditDetails = (entry: Worklog) => ({
  owner_id: entry.userId,
  minutes: entry.minutes,
  date: dateText(entry.date),
  test_id: entry.testId,
  campaign_id: entry.campaignId,
});

/** Logs time of the caller's own. Time on a test counts for the test's campaign unless another is given. */
export async function createWorklog(services: Services, principal: Principal, input: unknown, query: Query = {}) {
  const { testId, campaignId, ...fields } = parseInput(createSchema, input);
  return inTransaction(services, principal, async (uow) => {
    const test = testId ? await testOf(uow.tx, testId) : null;
    const campaign = campaignId === undefined ? (test?.campaignId ?? null) : campaignId;
    if (campaign) await assertCampaign(uow.tx, campaign);
    const entry = await uow.tx.worklog.create({
      data: { ...fields, userId: principal.userId, testId: testId ?? null, campaignId: campaign },
    });
    await uow.audit({ action: 'create_worklog', entityType: 'worklog', entityId: entry.id, details: auditDetails(entry) });
    return uow.tx.worklog.findUniqueOrThrow({ ...query, where: { id: entry.id } });
  });
}

/** Changes an own entry (admins: anyone's); another user's entry is a 404 for everyone else. */
export async function updateWorklog(services: Services, principal: Principal, id: string, input: unknown, query: Query = {}) {
  const changes = parseInput(updateSchema, input);
  return inTransaction(services, principal, async (uow) => {
    await findVisible(uow.tx, principal, id);
    if (changes.testId) await testOf(uow.tx, changes.testId);
    if (changes.campaignId) await assertCampaign(uow.tx, changes.campaignId);
    const entry = await uow.tx.worklog.update({ where: { id }, data: changes });
    await uow.audit({
      action: 'update_worklog',
      entityType: 'worklog',
      entityId: id,
      details: { ...auditDetails(entry), fields: Object.keys(changes) },
    });
    return uow.tx.worklog.findUniqueOrThrow({ ...query, where: { id } });
  });
}

export async function deleteWorklog(services: Services, principal: Principal, id: string, query: Query = {}) {
  return inTransaction(services, principal, async (uow) => {
    const before = await findVisible(uow.tx, principal, id);
    const entry = await uow.tx.worklog.delete({ ...query, where: { id } });
    await uow.audit({ action: 'delete_worklog', entityType: 'worklog', entityId: id, details: auditDetails(before) });
    return entry;
  });
}
