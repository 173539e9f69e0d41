import { z } from 'zod';
import type { Prisma } from '../../db/client.ts';
import { inTransaction, type Actor } from '../../db/unit-of-work.ts';
import { NotFoundError, ValidationError } from '../../errors.ts';
import { OsintFeedKind, OsintReviewStatus } from '../../generated/prisma/enums.ts';
import type { OsintFeed } from '../../generated/prisma/client.ts';
import type { Repeat } from '../../jobs/types.ts';
import type { Services } from '../../services.ts';
import { isUuid, page, parseInput, trimmed } from '../../validation.ts';
import { scheduleProblem, sourceLocation, sourceSchedule } from '../data-sources/validation.ts';
import { osintReviewLifecycle, type OsintReviewAction } from './lifecycle.ts';
import { pageOf } from '../../db/page-totals.ts';

type ItemQuery = { select?: Prisma.OsintItemSelect; include?: Prisma.OsintItemInclude };
type FeedQuery = { select?: Prisma.OsintFeedSelect; include?: Prisma.OsintFeedInclude };
type RunQuery = { select?: Prisma.OsintFeedRunSelect; include?: Prisma.OsintFeedRunInclude };

export const OSINT_ITEM_PAGE = { defaultLimit: 50, maxLimit: 100 } as const;
export const OSINT_RUN_PAGE = { defaultLimit: 20, maxLimit: 100 } as const;
export const SYNC_FEED_JOB = 'sync-osint-feed';
export const feedScheduleId = (feedId: string) => `osint-feed:${feedId}`;

const feedFields = {
  name: trimmed(200),
  kind: z.enum(OsintFeedKind),
  location: sourceLocation,
  collection: z.string().trim().max(200).nullish(),
  schedule: sourceSchedule.optional(),
  enabled: z.boolean(),
};
const createFeedSchema = z.object({ ...feedFields, enabled: feedFields.enabled.default(true) });
const updateFeedSchema = z.object(feedFields).partial();

/** A feed's recurring sync, or null when it runs only on request. */
export function feedRepeat(services: Services, feed: Pick<OsintFeed, 'enabled' | 'schedule'>): Repeat | null {
  if (!services.config.SOURCE_SYNC_SCHEDULES || !feed.enabled || !feed.schedule || scheduleProblem(feed.schedule)) return null;
  return { pattern: feed.schedule, tz: 'UTC' };
}

async function applySchedule(services: Services, feed: OsintFeed | { id: string; deleted: true }) {
  const repeat = 'deleted' in feed ? null : feedRepeat(services, feed);
  if (repeat) await services.jobs.upsertSchedule(feedScheduleId(feed.id), SYNC_FEED_JOB, repeat, { feedId: feed.id, trigger: 'schedule' });
  else await services.jobs.removeSchedule(feedScheduleId(feed.id));
}

function checkCollection(kind: OsintFeedKind, collection: string | null | undefined) {
  if (collection && kind !== 'taxii') throw new ValidationError('collection', 'only TAXII feeds name a collection');
}

async function uniqueName<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if ((error as { code?: string }).code === 'P2002') throw new ValidationError('name', 'a feed with this name exists');
    throw error;
  }
}

export function listFeeds(services: Services, query: FeedQuery = {}) {
  return services.prisma.osintFeed.findMany({ ...query, orderBy: { name: 'asc' } });
}

export async function getFeed(services: Services, id: string, query: FeedQuery = {}) {
  const feed = isUuid(id) ? await services.prisma.osintFeed.findUnique({ ...query, where: { id } }) : null;
  if (!feed) throw new NotFoundError('Feed', id);
  return feed;
}

export async function createFeed(services: Services, actor: Actor, input: unknown, query: FeedQuery = {}) {
  const data = parseInput(createFeedSchema, input);
  checkCollection(data.kind, data.collection);
  return uniqueName(() =>
    inTransaction(services, actor, async (uow) => {
      const feed = await uow.tx.osintFeed.create({ data: { ...data, createdById: actor.userId } });
      await uow.audit({ action: 'create_osint_feed', entityType: 'osint_feed', entityId: feed.id, details: { ...data } });
      services.jobs.assertAvailable();
      uow.afterCommit(() => applySchedule(services, feed));
      return uow.tx.osintFeed.findUniqueOrThrow({ ...query, where: { id: feed.id } });
    }),
  );
}

export async function updateFeed(services: Services, actor: Actor, id: string, input: unknown, query: FeedQuery = {}) {
  const changes = parseInput(updateFeedSchema, input ?? {});
  const before = await getFeed(services, id);
  checkCollection(changes.kind ?? before.kind, changes.collection === undefined ? before.collection : changes.collection);
  return uniqueName(() =>
    inTransaction(services, actor, async (uow) => {
      // Another place or collection is another sequence of date_added: read it from its start.
      const moved = (['kind', 'location', 'collection'] as const).some((key) => changes[key] !== undefined && changes[key] !== before[key]);
      const feed = await uow.tx.osintFeed.update({
        where: { id: before.id },
        data: { ...changes, ...(moved ? { addedAfter: null } : {}) },
      });
      await uow.audit({ action: 'update_osint_feed', entityType: 'osint_feed', entityId: feed.id, details: { changes } });
      services.jobs.assertAvailable();
      uow.afterCommit(() => applySchedule(services, feed));
      return uow.tx.osintFeed.findUniqueOrThrow({ ...query, where: { id: feed.id } });
    }),
  );
}

/** Deletes a feed with its runs and items (the techniques it flagged stay flagged). */
export async function deleteFeed(services: Services, actor: Actor, id: string): Promise<boolean> {
  const feed = await getFeed(services, id);
  return inTransaction(services, actor, async (uow) => {
    await uow.tx.osintFeed.delete({ where: { id: feed.id } });
    await uow.audit({ action: 'delete_osint_feed', entityType: 'osint_feed', entityId: feed.id, details: { name: feed.name } });
    uow.afterCommit(() => applySchedule(services, { id: feed.id, deleted: true }));
    return true;
  });
}

export async function listRuns(services: Services, feedId: string, paging: unknown, query: RunQuery = {}) {
  const { offset, limit } = parseInput(page(OSINT_RUN_PAGE.defaultLimit, OSINT_RUN_PAGE.maxLimit), paging ?? {});
  const feed = await getFeed(services, feedId, { select: { id: true } });
  const where = { feedId: feed.id };
  return pageOf({ offset, limit }, [
    services.prisma.osintFeedRun.findMany({ ...query, where, orderBy: [{ startedAt: 'desc' }, { id: 'desc' }], skip: offset, take: limit }),
    services.prisma.osintFeedRun.count({ where }),
  ]);
}

const ttpId = z
  .string()
  .trim()
  .regex(/^T\d{4}(\.\d{3})?$/, 'must be a technique id such as T1059 or T1059.001');
const itemFilterSchema = z
  .object({
    feedId: z.guid('must be a UUID').nullish(),
    ttpId: ttpId.nullish(),
    actor: z.string().trim().min(1).max(200).nullish(),
    software: z
      .string()
      .trim()
      .regex(/^S\d{4}$/, 'must be an ATT&CK software id such as S0002')
      .nullish(),
    from: z.date().nullish(),
    to: z.date().nullish(),
    search: z.string().trim().max(200).nullish(),
    review: z.enum(OsintReviewStatus).nullish(),
  })
  .refine((filter) => !filter.from || !filter.to || filter.from <= filter.to, { path: ['to'], message: 'must not be before from' });

/** Items matching an actor given by group id (G0007), id, name or alias. */
function actorWhere(actor: string): Prisma.OsintItemWhereInput {
  if (/^G\d{4}$/.test(actor)) return { groupIds: { has: actor } };
  if (isUuid(actor)) return { actors: { some: { actorId: actor } } };
  return {
    actors: {
      some: { actor: { OR: [{ name: { equals: actor, mode: 'insensitive' } }, { aliases: { has: actor } }] } },
    },
  };
}

/** The feed items, newest first (published date, else when stored), filtered. */
export async function listItems(services: Services, filter: unknown, paging: unknown, query: ItemQuery = {}) {
  const found = parseInput(itemFilterSchema, filter ?? {});
  const { offset, limit } = parseInput(page(OSINT_ITEM_PAGE.defaultLimit, OSINT_ITEM_PAGE.maxLimit), paging ?? {});
  const range = { gte: found.from ?? undefined, lte: found.to ?? undefined };
  const where: Prisma.OsintItemWhereInput = {
    feedId: found.feedId ?? undefined,
    review: found.review ?? undefined,
    AND: [
      found.ttpId ? { OR: [{ techniques: { some: { technique: { ttpId: found.ttpId } } } }, { techniqueIds: { has: found.ttpId } }] } : {},
      found.actor ? actorWhere(found.actor) : {},
      found.software ? { softwareIds: { has: found.software } } : {},
      found.search
        ? { OR: [{ title: { contains: found.search, mode: 'insensitive' } }, { summary: { contains: found.search, mode: 'insensitive' } }] }
        : {},
      found.from || found.to ? { OR: [{ publishedAt: range }, { publishedAt: null, createdAt: range }] } : {},
    ],
  };
  return pageOf({ offset, limit }, [
    services.prisma.osintItem.findMany({
      ...query,
      where,
      orderBy: [{ publishedAt: { sort: 'desc', nulls: 'last' } }, { createdAt: 'desc' }, { id: 'asc' }],
      skip: offset,
      take: limit,
    }),
    services.prisma.osintItem.count({ where }),
  ]);
}

export async function getItem(services: Services, id: string, query: ItemQuery = {}) {
  const item = isUuid(id) ? await services.prisma.osintItem.findUnique({ ...query, where: { id } }) : null;
  if (!item) throw new NotFoundError('Intel item', id);
  return item;
}

/** One review transition of an item (lock, check the table, write, audit). */
export async function transitionItem(services: Services, actor: Actor, id: string, action: OsintReviewAction, query: ItemQuery = {}) {
  const row = osintReviewLifecycle.transition(action);
  return inTransaction(services, actor, async (uow) => {
    const item = isUuid(id) ? await uow.tx.osintItem.findUnique({ where: { id }, select: { review: true } }) : null;
    if (!item) throw new NotFoundError('Intel item', id);
    osintReviewLifecycle.assertFrom(row, item.review);
    const now = new Date();
    const stamps = Object.fromEntries(row.stamps.map((column) => [column, now]));
    const reviewer = row.stamps.length ? { reviewedById: actor.userId } : { reviewedAt: null, reviewedById: null };
    const updated = await uow.tx.osintItem.updateMany({
      where: { id, review: item.review },
      data: { review: row.to, ...stamps, ...reviewer },
    });
    if (!updated.count) throw osintReviewLifecycle.invalidTransition(row, item.review);
    await uow.audit({ action: row.audit, entityType: 'osint_item', entityId: id, details: { from_state: item.review, to_state: row.to } });
    return uow.tx.osintItem.findUniqueOrThrow({ ...query, where: { id } });
  });
}

export interface FeedHealth {
  feedId: string;
  name: string;
  kind: OsintFeedKind;
  enabled: boolean;
  status: string;
  lastRunAt: Date | null;
  lastSuccessAt: Date | null;
  error: string | null;
  itemCount: number;
  itemsAddedLastRun: number | null;
  itemsAddedLast7Days: number;
  failedRunsInARow: number;
}

/** Per feed, in one statement: last fetch, items held and added, the last error and how many runs in a row failed. */
export function feedHealth(services: Services): Promise<FeedHealth[]> {
  return services.prisma.$queryRaw<FeedHealth[]>`
    SELECT f.id AS "feedId", f.name, f.kind::text AS kind, f.enabled, f.status::text AS status,
           f.last_run_at AS "lastRunAt", f.last_success_at AS "lastSuccessAt", f.error,
           (SELECT count(*) FROM osint_items i WHERE i.feed_id = f.id)::int AS "itemCount",
           (SELECT r.items_added FROM osint_feed_runs r WHERE r.feed_id = f.id AND r.status IN ('succeeded', 'failed')
             ORDER BY r.started_at DESC LIMIT 1) AS "itemsAddedLastRun",
           (SELECT coalesce(sum(r.items_added), 0) FROM osint_feed_runs r
             WHERE r.feed_id = f.id AND r.started_at > now() - interval '7 days')::int AS "itemsAddedLast7Days",
           (SELECT count(*) FROM osint_feed_runs r WHERE r.feed_id = f.id AND r.status = 'failed'
             AND r.started_at > coalesce((SELECT max(s.started_at) FROM osint_feed_runs s
                                          WHERE s.feed_id = f.id AND s.status = 'succeeded'), '-infinity'))::int AS "failedRunsInARow"
      FROM osint_feeds f
     ORDER BY f.name`;
}
