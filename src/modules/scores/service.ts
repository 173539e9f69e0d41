import { z } from 'zod';
import { NotFoundError } from '../../errors.ts';
import { Prisma } from '../../generated/prisma/client.ts';
import type { CoverageStatus } from '../../generated/prisma/enums.ts';
import type { Services } from '../../services.ts';
import { parseInput } from '../../validation.ts';
import { getThreatActor } from '../threat-actors/service.ts';
import { averageScore, currentWeights, scoredTechniques, TERM_DESCRIPTIONS, termsOf, type ScoredRow, type Weights } from './formula.ts';

/** The organisation score is cached this long (the spec's "cached 5 minutes"); coverage and test changes drop it. */
export const ORGANIZATION_CACHE_MS = 5 * 60_000;

export const FORMULA = 'score = 100 × Σ(weight × value) / Σ weight, each term value from 0 to 1; points = 100 × weight × value / Σ weight';

/** Technique counts by coverage status, and coverage % = (validated + 0.5 × partial) / total × 100 (one decimal). */
export interface CoverageCounts {
  validated: number;
  partial: number;
  inProgress: number;
  notCovered: number;
  notEvaluated: number;
  coveragePercentage: number | null;
}

const COUNTS = Prisma.sql`
  (count(*) FILTER (WHERE status_global = 'validated'))::int AS validated,
  (count(*) FILTER (WHERE status_global = 'partial'))::int AS partial,
  (count(*) FILTER (WHERE status_global = 'in_progress'))::int AS "inProgress",
  (count(*) FILTER (WHERE status_global = 'not_covered'))::int AS "notCovered",
  (count(*) FILTER (WHERE status_global = 'not_evaluated'))::int AS "notEvaluated",
  round((100.0 * (count(*) FILTER (WHERE status_global = 'validated') + 0.5 * count(*) FILTER (WHERE status_global = 'partial'))
    / nullif(count(*), 0))::numeric, 1)::float8 AS "coveragePercentage"`;

/** One technique's score with its breakdown and the facts each term comes from. */
export async function techniqueScore(services: Services, ttpId: string) {
  const key = ttpId.trim();
  const weights = await currentWeights(services.prisma);
  const [row] = await services.prisma.$queryRaw<
    ScoredRow[]
  >`${scoredTechniques(weights, Prisma.sql`AND t.ttp_id = ${key}`)} SELECT * FROM scored`;
  if (!row) {
    const inactive = await services.prisma.technique.findUnique({ where: { ttpId: key }, select: { id: true } });
    throw inactive
      ? new NotFoundError('Scored technique', `${key} (revoked or deprecated techniques are not scored)`)
      : new NotFoundError('Technique', key);
  }
  return breakdownOf(row, weights);
}

export function breakdownOf(row: ScoredRow, weights: Weights) {
  return {
    techniqueId: row.id,
    ttpId: row.ttp_id,
    name: row.name,
    status: row.status_global,
    score: row.score,
    formula: FORMULA,
    terms: termsOf(row, weights).map((term) => ({ ...term, description: TERM_DESCRIPTIONS[term.name] })),
    inputs: {
      validatedTests: row.validated_tests,
      detectedTests: row.detected_tests,
      partiallyDetectedTests: row.partially_detected_tests,
      lastValidatedAt: row.last_validated_at,
      activeDetectionRules: row.active_rules,
    },
  };
}

interface TacticRef {
  id: string | null;
  shortName: string;
  name: string;
  order: number | null;
}

/** A catalog tactic by TA id, short name or display name (any case), else a tactic only custom techniques name. */
async function findTactic(services: Services, text: string): Promise<TacticRef> {
  const key = text.trim();
  const [catalog] = await services.prisma.$queryRaw<TacticRef[]>`
    SELECT external_id AS id, short_name AS "shortName", name, matrix_order AS "order" FROM tactics
     WHERE lower(external_id) = lower(${key}) OR lower(short_name) = lower(${key}) OR lower(name) = lower(${key})
     ORDER BY matrix_order LIMIT 1`;
  if (catalog) return catalog;
  const [custom] = await services.prisma.$queryRaw<TacticRef[]>`
    SELECT NULL AS id, tag AS "shortName", coalesce(max(t.tactic) FILTER (WHERE t.tactics[1] = tag), tag) AS name, NULL::int AS "order"
      FROM techniques t CROSS JOIN LATERAL unnest(t.tactics) AS tag
     WHERE NOT t.revoked AND NOT t.deprecated
       AND (lower(tag) = lower(${key}) OR (t.tactics[1] = tag AND lower(t.tactic) = lower(${key})))
     GROUP BY tag LIMIT 1`;
  if (!custom) throw new NotFoundError('Tactic', key);
  return custom;
}

/** The average score of the active techniques of a tactic (each technique counts under every tactic it has). */
export async function tacticScore(services: Services, tactic: string) {
  const found = await findTactic(services, tactic);
  const weights = await currentWeights(services.prisma);
  const [row] = await services.prisma.$queryRaw<(CoverageCounts & { score: number | null; techniqueCount: number })[]>`
    ${scoredTechniques(weights, Prisma.sql`AND t.tactics @> ARRAY[${found.shortName}]::text[]`)}
    SELECT ${averageScore(Prisma.sql`score`)} AS score, count(*)::int AS "techniqueCount", ${COUNTS} FROM scored`;
  const { score, techniqueCount, ...coverage } = row;
  return { tactic: found, score, techniqueCount, coverage, weights };
}

export interface ActorTechnique {
  techniqueId: string;
  ttpId: string;
  name: string;
  status: CoverageStatus;
  score: number;
}

/** How well the organisation covers the active techniques a threat actor uses: their average score and statuses. */
export async function threatActorScore(services: Services, id: string) {
  const actor = await getThreatActor(services, id, { select: { id: true, externalId: true, name: true } });
  const weights = await currentWeights(services.prisma);
  const [row] = await services.prisma.$queryRaw<
    (CoverageCounts & { score: number | null; techniqueCount: number; techniques: ActorTechnique[] })[]
  >`
    ${scoredTechniques(weights, Prisma.sql`AND t.id IN (SELECT technique_id FROM threat_actor_techniques WHERE actor_id = ${actor.id}::uuid)`)}
    SELECT ${averageScore(Prisma.sql`score`)} AS score, count(*)::int AS "techniqueCount", ${COUNTS},
           coalesce(json_agg(json_build_object('techniqueId', id, 'ttpId', ttp_id, 'name', name, 'status', status_global, 'score', score)
                    ORDER BY score, ttp_id COLLATE "C"), '[]'::json) AS techniques
      FROM scored`;
  const { score, techniqueCount, techniques, ...coverage } = row;
  return { threatActor: actor, score, techniqueCount, coverage, techniques, weights };
}

export interface TacticAverage extends TacticRef {
  score: number | null;
  techniqueCount: number;
}

export interface OrganizationScore {
  score: number | null;
  techniqueCount: number;
  byTactic: TacticAverage[];
  weights: Weights;
  computedAt: string;
}

/**
 * The mean score of every active technique (sub-techniques included), and per tactic: every catalog tactic in
 * matrix order (null score when it has no technique), then tactics only custom techniques name, by name.
 */
export async function organizationScore(services: Services): Promise<OrganizationScore> {
  return services.cache.remember('analytics', 'scores:organization', ORGANIZATION_CACHE_MS, async () => {
    const weights = await currentWeights(services.prisma);
    const [row] = await services.prisma.$queryRaw<{ score: number | null; techniqueCount: number; byTactic: TacticAverage[] | null }[]>`
      ${scoredTechniques(weights)}
      , pairs AS (
        SELECT DISTINCT s.id, s.score, s.tactic, s.tactics[1] AS first, tag FROM scored s CROSS JOIN LATERAL unnest(s.tactics) AS tag
      ), grouped AS (
        SELECT tag, max(tactic) FILTER (WHERE first = tag) AS display, count(*)::int AS technique_count, ${averageScore(Prisma.sql`score`)} AS score
          FROM pairs GROUP BY tag
      ), by_tactic AS (
        SELECT tc.external_id AS id, coalesce(tc.short_name, g.tag) AS short_name, coalesce(tc.name, g.display, g.tag) AS name,
               tc.matrix_order AS matrix_order, coalesce(g.technique_count, 0) AS technique_count, g.score
          FROM tactics tc FULL JOIN grouped g ON g.tag = tc.short_name
      )
      SELECT (SELECT ${averageScore(Prisma.sql`score`)} FROM scored) AS score,
             (SELECT count(*)::int FROM scored) AS "techniqueCount",
             (SELECT json_agg(json_build_object('id', id, 'shortName', short_name, 'name', name, 'order', matrix_order,
                       'techniqueCount', technique_count, 'score', score)
                     ORDER BY matrix_order NULLS LAST, lower(name), short_name) FROM by_tactic) AS "byTactic"`;
    return {
      score: row.score,
      techniqueCount: row.techniqueCount,
      byTactic: row.byTactic ?? [],
      weights,
      computedAt: new Date().toISOString(),
    };
  });
}

/** History periods and the days each reaches back. */
export const HISTORY_PERIODS = { '30d': 30, '90d': 90, '1y': 365 } as const;
export type HistoryPeriod = keyof typeof HISTORY_PERIODS;
const historySchema = z.object({
  period: z.enum(Object.keys(HISTORY_PERIODS) as [HistoryPeriod], 'must be one of 30d, 90d, 1y').prefault('90d'),
});

interface HistoryWeek {
  weekStart: Date;
  snapshotId: string | null;
  snapshotAt: Date | null;
  score: number | null;
  coveragePercentage: number | null;
}

/**
 * One point per week (Monday 00:00 UTC) from the week holding `now − period` to the current one: the last
 * snapshot taken that week, or nulls for a week without one.
 */
export async function scoreHistory(services: Services, input: unknown) {
  const { period } = parseInput(historySchema, input ?? {});
  const days = HISTORY_PERIODS[period];
  const weeks = await services.prisma.$queryRaw<HistoryWeek[]>`
    WITH weeks AS (
      SELECT generate_series(date_trunc('week', now() - make_interval(days => ${days}::int), 'UTC'),
                             date_trunc('week', now(), 'UTC'), interval '1 week') AS week_start
    )
    SELECT w.week_start AS "weekStart", s.id AS "snapshotId", s.created_at AS "snapshotAt", s.score, s.coverage_percentage AS "coveragePercentage"
      FROM weeks w
      LEFT JOIN LATERAL (
        SELECT id, created_at, score, coverage_percentage FROM snapshots
         WHERE created_at >= w.week_start AND created_at < w.week_start + interval '1 week'
         ORDER BY created_at DESC, id DESC LIMIT 1
      ) s ON true
     ORDER BY w.week_start`;
  return { period, weeks };
}
