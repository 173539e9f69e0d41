import { z } from 'zod';
import { Prisma } from '../../generated/prisma/client.ts';
import { inTransaction, SYSTEM_ACTOR, type Actor, type UnitOfWork } from '../../db/unit-of-work.ts';
import { NotFoundError } from '../../errors.ts';
import type { Services } from '../../services.ts';
import { page, parseInput, trimmed, isUuid } from '../../validation.ts';
import { coveredWeight, percentage } from '../metrics/sql.ts';
import { averageScore } from '../scores/formula.ts';
import { techniqueScores } from '../scores/technique-scores.ts';
import { SNAPSHOT_KINDS, type SnapshotKind, type SnapshotSummary } from './summary.ts';
import { pageOf } from '../../db/page-totals.ts';

type Query = { select?: Prisma.SnapshotSelect; include?: Prisma.SnapshotInclude };

export const SNAPSHOT_PAGE = { defaultLimit: 50, maxLimit: 200 } as const;
const pageSchema = page(SNAPSHOT_PAGE.defaultLimit, SNAPSHOT_PAGE.maxLimit);
const createSchema = z.object({ name: trimmed(200).nullish() });
const filterSchema = z.object({ kind: z.enum(SNAPSHOT_KINDS).nullish() });

/** Copying 1,000+ technique rows stays far below this; it only guards against a stuck lock. */
const SNAPSHOT_TIMEOUT_MS = 30_000;
const DAILY_LOCK = 'daily-snapshot';

/** The coverage percentage of /metrics/summary: (validated + 0.5 × partial) / total × 100, one decimal, 0 when empty. */
const COVERAGE = percentage(coveredWeight(Prisma.sql`validated`, Prisma.sql`partial`), Prisma.sql`total`, Prisma.sql`0`);

interface Totals extends SnapshotSummary {
  score: number | null;
  coverage: number;
}

/** Every active technique's score as one JSON parameter (id → score) for the copying statement. */
async function scoresParameter(services: Services): Promise<string> {
  const scores = await techniqueScores(services);
  return JSON.stringify([...scores.values()].map(({ techniqueId, score }) => ({ id: techniqueId, score })));
}

/**
 * Records a snapshot inside `uow`: one statement copies every active technique's status and score and
 * returns the counts, then the snapshot row gets its summary, coverage and mean score.
 */
async function recordSnapshot(uow: UnitOfWork, kind: SnapshotKind, name: string | null, scores: string, query: Query = {}) {
  const { id } = await uow.tx.snapshot.create({ data: { kind, name, createdById: uow.actor.userId }, select: { id: true } });
  const [{ score, coverage, ...summary }] = await uow.tx.$queryRaw<Totals[]>`
    WITH copied AS (
      INSERT INTO snapshot_techniques (snapshot_id, technique_id, ttp_id, status, score)
      SELECT ${id}::uuid, t.id, t.ttp_id, t.status_global, s.score
      FROM techniques t
      LEFT JOIN jsonb_to_recordset(${scores}::jsonb) AS s(id uuid, score float8) ON s.id = t.id
      WHERE NOT t.revoked AND NOT t.deprecated
      RETURNING status, score
    ), counts AS (
      SELECT count(*)::int AS total,
        count(*) FILTER (WHERE status = 'validated')::int AS validated,
        count(*) FILTER (WHERE status = 'partial')::int AS partial,
        count(*) FILTER (WHERE status = 'in_progress')::int AS in_progress,
        count(*) FILTER (WHERE status = 'not_covered')::int AS not_covered,
        count(*) FILTER (WHERE status = 'not_evaluated')::int AS not_evaluated,
        ${averageScore(Prisma.sql`score`)} AS score
      FROM copied
    )
    SELECT *, ${COVERAGE} AS coverage FROM counts`;
  const snapshot = await uow.tx.snapshot.update({
    ...query,
    where: { id },
    data: { summary: { ...summary }, coveragePercentage: coverage, score },
  });
  await uow.audit({ action: 'create_snapshot', entityType: 'snapshot', entityId: id, details: { kind, name, ...summary } });
  uow.emit('snapshot.created', { snapshotId: id, kind });
  return snapshot;
}

/** Takes a snapshot now: `manual` (POST /snapshots, optional name) or `posture` (the dashboard's button). */
export async function createSnapshot(services: Services, actor: Actor, kind: 'manual' | 'posture', input: unknown, query: Query = {}) {
  const { name } = parseInput(createSchema, input ?? {});
  const scores = await scoresParameter(services);
  return inTransaction(services, actor, (uow) => recordSnapshot(uow, kind, name ?? null, scores, query), {
    timeout: SNAPSHOT_TIMEOUT_MS,
    bulk: true,
  });
}

/**
 * The daily snapshot, taken as the system: at most one per UTC day (the database clock decides the day).
 * Concurrent runs queue on an advisory lock, so a second run the same day finds the first and skips.
 */
export async function takeDailySnapshot(services: Services): Promise<{ created: boolean; snapshotId: string; day: string }> {
  const scores = await scoresParameter(services);
  return inTransaction(
    services,
    SYSTEM_ACTOR,
    async (uow) => {
      await uow.tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtext(${DAILY_LOCK}))`;
      const [{ day, existing }] = await uow.tx.$queryRaw<{ day: string; existing: string | null }[]>`
        SELECT to_char(now() AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS day,
          (SELECT id::text FROM snapshots
            WHERE kind = 'daily' AND created_at >= date_trunc('day', now(), 'UTC') AND created_at < date_trunc('day', now(), 'UTC') + interval '1 day'
            ORDER BY created_at LIMIT 1) AS existing`;
      if (existing) return { created: false, snapshotId: existing, day };
      const snapshot = await recordSnapshot(uow, 'daily', `Daily snapshot ${day}`, scores, { select: { id: true } });
      return { created: true, snapshotId: snapshot.id, day };
    },
    { timeout: SNAPSHOT_TIMEOUT_MS, bulk: true },
  );
}

/** Snapshots newest first, one page at a time (without their technique rows unless the query selects them). */
export async function listSnapshots(services: Services, filter: unknown, paging: unknown) {
  const { kind } = parseInput(filterSchema, filter ?? {});
  const { offset, limit } = parseInput(pageSchema, paging);
  const where: Prisma.SnapshotWhereInput = kind ? { kind } : {};
  return pageOf({ offset, limit }, [
    services.prisma.snapshot.findMany({ where, orderBy: [{ createdAt: 'desc' }, { id: 'desc' }], skip: offset, take: limit }),
    services.prisma.snapshot.count({ where }),
  ]);
}

/** One snapshot; an id that is not a UUID names no snapshot (404). */
export async function getSnapshot(services: Services, id: string, query: Query = {}) {
  const snapshot = isUuid(id) ? await services.prisma.snapshot.findUnique({ ...query, where: { id } }) : null;
  if (!snapshot) throw new NotFoundError('Snapshot', id);
  return snapshot;
}

/** Deletes a snapshot with its technique rows and answers it as it was. */
export async function deleteSnapshot(services: Services, actor: Actor, id: string, query: Query = {}) {
  if (!isUuid(id)) throw new NotFoundError('Snapshot', id);
  return inTransaction(services, actor, async (uow) => {
    const before = await uow.tx.snapshot.findUnique({ where: { id }, select: { name: true, kind: true, createdAt: true } });
    if (!before) throw new NotFoundError('Snapshot', id);
    const snapshot = await uow.tx.snapshot.delete({ ...query, where: { id } });
    await uow.audit({
      action: 'delete_snapshot',
      entityType: 'snapshot',
      entityId: id,
      details: { name: before.name, kind: before.kind, created_at: before.createdAt.toISOString() },
    });
    return snapshot;
  });
}
