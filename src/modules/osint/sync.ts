import { randomUUID } from 'node:crypto';
import type { Prisma } from '../../db/client.ts';
import { inTransaction, type Actor } from '../../db/unit-of-work.ts';
import { NotFoundError } from '../../errors.ts';
import type { OsintFeed, OsintReviewStatus } from '../../generated/prisma/client.ts';
import type { Services } from '../../services.ts';
import { readSourceBytes, SourceUnavailableError } from '../../sources/location.ts';
import { inBatches } from '../../sources/batches.ts';
import { claimable, leaseUntil } from '../data-sources/lease.ts';
import { SyncInProgressError } from '../data-sources/sync.ts';
import { DOCUMENT_PARSERS, FeedRefusedError, MAX_FEED_BYTES, type ParsedFeed, type ParsedItem } from './feed-formats.ts';
import { findMentions, loadCatalog, type Catalog, type Mentions } from './matcher.ts';
import { readTaxii } from './taxii.ts';

export type FeedTrigger = 'manual' | 'schedule';

/** Items written per transaction. */
const BATCH = 200;

/** The items of a feed's document(s), parsed; failures in our own words. */
async function readFeed(services: Services, feed: OsintFeed): Promise<ParsedFeed> {
  if (feed.kind === 'taxii') return readTaxii(feed.location, feed.collection, services.config, feed.addedAfter);
  const bytes = await readSourceBytes(feed.location, services.config, { maxBytes: MAX_FEED_BYTES });
  return DOCUMENT_PARSERS[feed.kind](bytes);
}

/** Why a sync failed, as recorded on the run and the feed: never the feed's content or another error's text. */
const failureOf = (error: unknown) =>
  error instanceof FeedRefusedError
    ? error.reason
    : error instanceof SourceUnavailableError
      ? error.reason
      : 'the sync failed; the server log has the details';

interface Candidate {
  item: ParsedItem;
  mentions: Mentions;
  review: OsintReviewStatus;
}

/** An item is flagged when it mentions a technique without validated coverage. */
const reviewOf = (mentions: Mentions): OsintReviewStatus =>
  mentions.techniques.some(({ technique }) => technique.statusGlobal !== 'validated') ? 'flagged' : 'not_flagged';

function candidatesOf(catalog: Catalog, items: ParsedItem[]): Candidate[] {
  const unique = new Map(items.map((item) => [item.key, item]));
  return [...unique.values()].map((item) => {
    const mentions = findMentions(catalog, `${item.title}\n${item.summary}`, item.references);
    return { item, mentions, review: reviewOf(mentions) };
  });
}

async function writeItems(services: Services, actor: Actor, feed: OsintFeed, runId: string, fresh: Candidate[]): Promise<string[]> {
  const ids: string[] = [];
  await inBatches(services, actor, fresh, { size: BATCH }, async (uow, batch) => {
    const rows = batch.map((candidate) => ({ id: randomUUID(), candidate }));
    const created = await uow.tx.osintItem.createManyAndReturn({
      data: rows.map(({ id, candidate: { item, mentions, review } }) => ({
        id,
        feedId: feed.id,
        key: item.key,
        title: item.title,
        summary: item.summary,
        link: item.link,
        publishedAt: item.publishedAt,
        techniqueIds: mentions.techniqueIds,
        groupIds: mentions.groupIds,
        softwareIds: mentions.softwareIds,
        cveIds: mentions.cveIds,
        review,
      })),
      skipDuplicates: true,
      select: { id: true },
    });
    const kept = new Set(created.map((row) => row.id));
    const written = rows.filter((row) => kept.has(row.id));
    await uow.tx.osintItemTechnique.createMany({
      data: written.flatMap(({ id, candidate }) =>
        candidate.mentions.techniques.map(({ technique, mentioned }) => ({ itemId: id, techniqueId: technique.id, mentioned })),
      ),
    });
    await uow.tx.osintItemActor.createMany({
      data: written.flatMap(({ id, candidate }) =>
        candidate.mentions.actors.map(({ actorId, mentioned }) => ({ itemId: id, actorId, mentioned })),
      ),
    });
    await uow.audit({
      action: 'import_osint_items',
      entityType: 'osint_item',
      details: { feed_id: feed.id, run_id: runId, created: written.length },
    });
    ids.push(...written.map((row) => row.id));
  });
  return ids;
}

export interface FeedRunOutcome {
  runId: string;
  status: 'succeeded' | 'failed';
}

/**
 * Syncs one feed now: takes it (409 SYNC_IN_PROGRESS while another sync holds its lease), reads and parses it
 * with the byte, depth and entity limits, stores each item not yet stored (by feed and key) with what the matcher
 * found, flags for review the techniques without validated coverage that new items mention, and records the run.
 * A refused or unreadable feed is a failed run with the reason in plain words, not an error of the request.
 */
export async function syncFeed(services: Services, feedId: string, actor: Actor, trigger: FeedTrigger): Promise<FeedRunOutcome> {
  const startedAt = new Date();
  const claimed = await inTransaction(services, actor, async (uow) => {
    const feed = await uow.tx.osintFeed.findUnique({ where: { id: feedId } });
    if (!feed) throw new NotFoundError('Feed', feedId);
    const taken = await uow.tx.osintFeed.updateMany({
      where: claimable(feed.id, ['running']) as Prisma.OsintFeedWhereInput,
      data: { status: 'running', lastRunAt: startedAt, leaseExpiresAt: leaseUntil(services) },
    });
    if (!taken.count) throw new SyncInProgressError(feed.name);
    const run = await uow.tx.osintFeedRun.create({
      data: { feedId: feed.id, trigger, status: 'running', startedAt, triggeredById: actor.userId },
    });
    return { feed, run };
  });
  const { feed, run } = claimed;
  const log = services.log.child({ osintFeed: feed.id, run: run.id });
  const heartbeat = setInterval(() => {
    services.prisma.osintFeed
      .updateMany({ where: { id: feed.id, status: 'running' }, data: { leaseExpiresAt: leaseUntil(services) } })
      .catch((error) => log.warn({ err: error }, 'feed sync lease not renewed'));
  }, services.config.SYNC_HEARTBEAT);
  heartbeat.unref();
  try {
    const parsed = await readFeed(services, feed);
    const catalog = await loadCatalog(services.prisma);
    const candidates = candidatesOf(catalog, parsed.items);
    const stored = await services.prisma.osintItem.findMany({
      where: { feedId: feed.id, key: { in: candidates.map((candidate) => candidate.item.key) } },
      select: { key: true },
    });
    const known = new Set(stored.map((row) => row.key));
    const fresh = candidates.filter((candidate) => !known.has(candidate.item.key));
    const itemIds = await writeItems(services, actor, feed, run.id, fresh);
    const notes = [...parsed.notes].map(([reason, count]) => `${count} item${count === 1 ? '' : 's'}: ${reason}`);
    await finish(services, actor, feed, run.id, trigger, {
      status: 'succeeded',
      seen: candidates.length,
      itemIds,
      notes,
      addedAfter: parsed.addedLast ?? feed.addedAfter,
    });
    log.info({ seen: candidates.length, added: itemIds.length }, 'feed synced');
  } catch (error) {
    const reason = failureOf(error);
    if (reason.startsWith('the sync failed')) log.error({ err: error }, 'feed sync failed');
    else log.warn({ err: error, reason }, 'feed refused or unreadable');
    await finish(services, actor, feed, run.id, trigger, { status: 'failed', error: reason });
  } finally {
    clearInterval(heartbeat);
  }
  const done = await services.prisma.osintFeedRun.findUniqueOrThrow({ where: { id: run.id }, select: { status: true } });
  return { runId: run.id, status: done.status === 'succeeded' ? 'succeeded' : 'failed' };
}

type Outcome =
  | { status: 'succeeded'; seen: number; itemIds: string[]; notes: string[]; addedAfter: string | null }
  | { status: 'failed'; error: string };

/** Records the outcome; on success flags the uncovered techniques the new items mention (each once) and says so. */
async function finish(services: Services, actor: Actor, feed: OsintFeed, runId: string, trigger: FeedTrigger, outcome: Outcome) {
  await inTransaction(services, actor, async (uow) => {
    const finishedAt = new Date();
    if (outcome.status === 'failed') {
      await uow.tx.osintFeedRun.update({ where: { id: runId }, data: { status: 'failed', finishedAt, error: outcome.error } });
      await uow.tx.osintFeed.update({ where: { id: feed.id }, data: { status: 'failed', error: outcome.error, leaseExpiresAt: null } });
      await uow.audit({
        action: 'sync_osint_feed',
        entityType: 'osint_feed',
        entityId: feed.id,
        details: { trigger, status: 'failed', run_id: runId, error: outcome.error },
      });
      return;
    }
    const flagged = outcome.itemIds.length
      ? await uow.tx.$queryRaw<{ id: string; ttpId: string }[]>`
          UPDATE techniques SET review_required = true, updated_at = ${finishedAt}
          WHERE id IN (
            SELECT m.technique_id FROM osint_item_techniques m
            WHERE m.item_id = ANY(${outcome.itemIds}::uuid[])
          ) AND status_global <> 'validated' AND NOT revoked AND NOT deprecated AND NOT review_required
          RETURNING id, ttp_id AS "ttpId"`
      : [];
    const added = outcome.itemIds.length;
    await uow.tx.osintFeedRun.update({
      where: { id: runId },
      data: { status: 'succeeded', finishedAt, itemsSeen: outcome.seen, itemsAdded: added, flagged: flagged.length, notes: outcome.notes },
    });
    await uow.tx.osintFeed.update({
      where: { id: feed.id },
      data: { status: 'succeeded', error: null, lastSuccessAt: finishedAt, leaseExpiresAt: null, addedAfter: outcome.addedAfter },
    });
    await uow.audit({
      action: 'sync_osint_feed',
      entityType: 'osint_feed',
      entityId: feed.id,
      details: {
        trigger,
        status: 'succeeded',
        run_id: runId,
        seen: outcome.seen,
        created: added,
        flagged: flagged.map((row) => row.ttpId),
      },
    });
    if (added) {
      uow.emit('osint.items_added', {
        feedId: feed.id,
        runId,
        newItems: added,
        flagged: flagged.length,
        flaggedTtpIds: flagged.map((row) => row.ttpId).sort(),
      });
    }
  });
}
