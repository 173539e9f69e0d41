import { z } from 'zod';
import type { Prisma } from '../../db/client.ts';
import { NotFoundError } from '../../errors.ts';
import type { CoverageStatus } from '../../generated/prisma/enums.ts';
import type { Services } from '../../services.ts';
import { parseInput } from '../../validation.ts';
import { countsOf, round2, STATUS_ORDER } from './summary.ts';

const rangeSchema = z
  .object({ from: z.date().nullish(), to: z.date().nullish() })
  .refine((range) => !range.from || !range.to || range.from <= range.to, { path: ['to'], message: 'must not be before from' });

const snapshotId = z.guid({ error: (issue) => (issue.input == null ? 'is required' : 'must be a snapshot id (UUID)') });
const pairSchema = z.object({ a: snapshotId, b: snapshotId });

/** Posture-history periods and the number of UTC days (today included) each covers. */
export const POSTURE_PERIODS = { '30d': 30, '90d': 90, '1y': 365 } as const;
const periodSchema = z.object({
  period: z.enum(Object.keys(POSTURE_PERIODS) as [keyof typeof POSTURE_PERIODS], 'must be one of 30d, 90d, 1y').prefault('90d'),
});

const POINT_SELECT = { id: true, name: true, kind: true, createdAt: true, coveragePercentage: true, score: true, summary: true } as const;

/** Most points of a snapshot evolution: the latest snapshots of the range (years of daily snapshots). */
export const SNAPSHOT_EVOLUTION_MAX = 2000;

/** The snapshots (optionally from/to, inclusive; the latest SNAPSHOT_EVOLUTION_MAX), oldest first: coverage, score and counts over time. */
export async function snapshotEvolution(services: Services, range: unknown) {
  const { from, to } = parseInput(rangeSchema, range ?? {});
  const rows = await services.prisma.snapshot.findMany({
    where: from || to ? { createdAt: { gte: from ?? undefined, lte: to ?? undefined } } : {},
    orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
    take: SNAPSHOT_EVOLUTION_MAX,
    select: POINT_SELECT,
  });
  return rows.reverse().map(pointOf);
}

/** A snapshot as a point of the timeline: date, coverage, score and flat counts. */
function pointOf({ summary, createdAt, ...snapshot }: Prisma.SnapshotGetPayload<{ select: typeof POINT_SELECT }>) {
  return { ...snapshot, date: createdAt, ...countsOf(summary) };
}

interface DiffRow {
  technique_id: string;
  ttp_id: string;
  name: string;
  before: CoverageStatus | null;
  after: CoverageStatus | null;
  score_before: number | null;
  score_after: number | null;
  movement: number | null;
}

/**
 * What changed from snapshot `a` (before) to snapshot `b` (after): the techniques present in both whose
 * status differs, each improved or regressed along STATUS_ORDER, and the techniques present in only one.
 */
export async function compareSnapshots(services: Services, pair: unknown) {
  const { a, b } = parseInput(pairSchema, pair);
  const found = await services.prisma.snapshot.findMany({ where: { id: { in: [a, b] } }, select: POINT_SELECT });
  const before = found.find((snapshot) => snapshot.id === a);
  const after = found.find((snapshot) => snapshot.id === b);
  if (!before) throw new NotFoundError('Snapshot', a);
  if (!after) throw new NotFoundError('Snapshot', b);
  const order = STATUS_ORDER as string[];
  const [rows, [{ unchanged }]] = await Promise.all([
    services.prisma.$queryRaw<DiffRow[]>`
      SELECT coalesce(x.technique_id, y.technique_id)::text AS technique_id, coalesce(x.ttp_id, y.ttp_id) AS ttp_id,
        coalesce(t.name, x.ttp_id, y.ttp_id) AS name, x.status::text AS before, y.status::text AS after,
        x.score AS score_before, y.score AS score_after,
        sign(array_position(${order}::text[], y.status::text) - array_position(${order}::text[], x.status::text))::int AS movement
      FROM (SELECT * FROM snapshot_techniques WHERE snapshot_id = ${a}::uuid) x
      FULL JOIN (SELECT * FROM snapshot_techniques WHERE snapshot_id = ${b}::uuid) y ON y.technique_id = x.technique_id
      LEFT JOIN techniques t ON t.id = coalesce(x.technique_id, y.technique_id)
      WHERE x.status IS DISTINCT FROM y.status
      ORDER BY 2`,
    services.prisma.$queryRaw<{ unchanged: number }[]>`
      SELECT count(*)::int AS unchanged
      FROM snapshot_techniques x JOIN snapshot_techniques y ON y.snapshot_id = ${b}::uuid AND y.technique_id = x.technique_id
      WHERE x.snapshot_id = ${a}::uuid AND x.status = y.status`,
  ]);
  const changed = rows
    .filter((row) => row.before && row.after)
    .map((row) => ({
      techniqueId: row.technique_id,
      ttpId: row.ttp_id,
      name: row.name,
      before: row.before!,
      after: row.after!,
      scoreBefore: row.score_before,
      scoreAfter: row.score_after,
      change: row.movement! > 0 ? ('improved' as const) : ('regressed' as const),
    }));
  const state = (row: DiffRow, status: CoverageStatus) => ({ techniqueId: row.technique_id, ttpId: row.ttp_id, name: row.name, status });
  const delta = (x: number | null, y: number | null) => (x == null || y == null ? null : round2(y - x));
  return {
    a: pointOf(before),
    b: pointOf(after),
    changed,
    improved: changed.filter((row) => row.change === 'improved').length,
    regressed: changed.filter((row) => row.change === 'regressed').length,
    unchanged,
    onlyInA: rows.filter((row) => !row.after).map((row) => state(row, row.before!)),
    onlyInB: rows.filter((row) => !row.before).map((row) => state(row, row.after!)),
    coverageChange: round2(after.coveragePercentage - before.coveragePercentage),
    scoreChange: delta(before.score, after.score),
  };
}

interface PostureRow {
  date: string;
  snapshot_id: string;
  coverage_percentage: number;
  score: number | null;
  summary: unknown;
}

/** One point per UTC day of the period (today included) that has a snapshot: the last snapshot of that day. */
export async function postureHistory(services: Services, period: string | null | undefined) {
  const days = POSTURE_PERIODS[parseInput(periodSchema, { period: period ?? undefined }).period];
  const rows = await services.prisma.$queryRaw<PostureRow[]>`
    SELECT DISTINCT ON (date) to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS date, id::text AS snapshot_id,
      coverage_percentage, score, summary
    FROM snapshots
    WHERE created_at >= date_trunc('day', now(), 'UTC') - make_interval(days => ${days - 1}::int)
    ORDER BY date, created_at DESC, id DESC`;
  return rows.map((row) => ({
    date: row.date,
    snapshotId: row.snapshot_id,
    coveragePercentage: row.coverage_percentage,
    score: row.score,
    ...countsOf(row.summary),
  }));
}
