import { z } from 'zod';
import type { Db } from '../../db/client.ts';
import { Prisma } from '../../generated/prisma/client.ts';
import type { CoverageStatus } from '../../generated/prisma/enums.ts';

/** The terms of a technique score, in the order breakdowns list them. Each is a value from 0 to 1. */
export const SCORE_TERMS = ['coverage', 'detection', 'validation_freshness', 'detection_rate'] as const;
export type ScoreTermName = (typeof SCORE_TERMS)[number];
export type Weights = Record<ScoreTermName, number>;

export const DEFAULT_WEIGHTS: Weights = { coverage: 0.5, detection: 0.15, validation_freshness: 0.15, detection_rate: 0.2 };

/** What each term measures, for breakdowns and the config. */
export const TERM_DESCRIPTIONS: Record<ScoreTermName, string> = {
  coverage: 'Coverage status: validated 1, partial 0.5, in_progress 0.25, not_covered 0, not_evaluated 0',
  detection: 'At least one active detection rule names the technique: 1, else 0',
  validation_freshness: 'Age of the latest validated test: 1 up to 90 days, falling linearly to 0 at 365 days; 0 without one',
  detection_rate: 'Share of validated tests that detected (1) or partially detected (0.5) the technique; 0 without one',
};

export const COVERAGE_VALUES: Record<CoverageStatus, number> = {
  validated: 1,
  partial: 0.5,
  in_progress: 0.25,
  not_covered: 0,
  not_evaluated: 0,
};

/** Validation freshness is 1 up to FRESH_DAYS and 0 from STALE_DAYS on. */
export const FRESH_DAYS = 90;
export const STALE_DAYS = 365;

/** Term values carry 4 decimals, points and scores 2: a score is exactly the sum of its shown points. */
export const VALUE_DECIMALS = 4;
export const POINT_DECIMALS = 2;

/** Weights must add up to 1 within this tolerance. */
export const WEIGHT_SUM_TOLERANCE = 0.001;

export const SCORE_CONFIG_ID = 1;

const storedWeight = z.number().finite().min(0).max(1);

/** The stored weights, each one that is missing or unusable replaced by its default. */
export function weightsOf(json: unknown): Weights {
  const stored = json && typeof json === 'object' && !Array.isArray(json) ? (json as Record<string, unknown>) : {};
  const weights = Object.fromEntries(
    SCORE_TERMS.map((term) => {
      const parsed = storedWeight.safeParse(stored[term]);
      return [term, parsed.success ? parsed.data : DEFAULT_WEIGHTS[term]];
    }),
  ) as Weights;
  return weightSum(weights) > 0 ? weights : { ...DEFAULT_WEIGHTS };
}

export const weightSum = (weights: Weights) => SCORE_TERMS.reduce((sum, term) => sum + weights[term], 0);

/** The weights in force (defaults while no admin has changed them). */
export async function currentWeights(db: Db): Promise<Weights> {
  const row = await db.scoreConfig.findUnique({ where: { id: SCORE_CONFIG_ID }, select: { weights: true } });
  return weightsOf(row?.weights);
}

const numeric = (value: number) => Prisma.sql`${value}::float8::numeric`;
const raw = (value: number) => Prisma.raw(`${value}::numeric`);

const coverageValue = Prisma.sql`CASE a.status_global ${Prisma.join(
  Object.entries(COVERAGE_VALUES).map(([status, value]) => Prisma.raw(`WHEN '${status}' THEN ${value}`)),
  ' ',
)} ELSE 0 END`;

/**
 * The scoring CTEs, ending in `scored`: one row per active technique matching `where` (a condition on `t`, the
 * techniques table), with the inputs of every term, each term's value (0–1), its points and the score.
 * Validated tests come from the figures the database keeps per technique, rules are aggregated once per technique
 * with a grouped subquery, so every score of the catalog comes from one statement.
 */
export function scoredTechniques(weights: Weights, where: Prisma.Sql = Prisma.empty): Prisma.Sql {
  const total = numeric(weightSum(weights));
  const points = (term: ScoreTermName) =>
    Prisma.sql`round(100 * ${numeric(weights[term])} * ${Prisma.raw(term)} / ${total}, ${Prisma.raw(String(POINT_DECIMALS))})`;
  const value = (expression: Prisma.Sql) => Prisma.sql`round((${expression})::numeric, ${Prisma.raw(String(VALUE_DECIMALS))})`;
  const age = Prisma.sql`extract(epoch FROM (now() - v.last_validated_at)) / 86400.0`;
  return Prisma.sql`
    WITH active AS NOT MATERIALIZED (
      SELECT t.id, t.ttp_id, t.name, t.status_global, t.tactic, t.tactics, t.platforms, t.is_subtechnique, t.parent_ttp_id
        FROM techniques t
       WHERE NOT t.revoked AND NOT t.deprecated ${where}
    ), validated AS (
      -- Kept by the database as tests change (technique_test_stats): no aggregate over every test per request.
      SELECT x.technique_id, x.tests_validated AS tests, x.validated_detected AS detected,
             x.validated_partial AS partially_detected, x.last_validated_at
        FROM technique_test_stats x
       WHERE x.technique_id IN (SELECT id FROM active)
    ), rules AS (
      SELECT tag AS ttp_id, count(DISTINCT r.id)::int AS rules
        FROM detection_rules r CROSS JOIN LATERAL unnest(r.technique_ids) AS tag
       WHERE r.is_active AND tag IN (SELECT ttp_id FROM active)
       GROUP BY tag
    ), terms AS (
      SELECT a.*,
             coalesce(v.tests, 0) AS validated_tests,
             coalesce(v.detected, 0) AS detected_tests,
             coalesce(v.partially_detected, 0) AS partially_detected_tests,
             v.last_validated_at,
             coalesce(r.rules, 0) AS active_rules,
             ${value(coverageValue)} AS coverage,
             ${value(Prisma.sql`CASE WHEN coalesce(r.rules, 0) > 0 THEN 1 ELSE 0 END`)} AS detection,
             ${value(Prisma.sql`CASE WHEN v.last_validated_at IS NULL THEN 0
                 ELSE greatest(0, least(1, (${raw(STALE_DAYS)} - ${age}) / ${raw(STALE_DAYS - FRESH_DAYS)})) END`)} AS validation_freshness,
             ${value(Prisma.sql`CASE WHEN coalesce(v.tests, 0) = 0 THEN 0
                 ELSE (v.detected + 0.5 * v.partially_detected) / v.tests::numeric END`)} AS detection_rate
        FROM active a
        LEFT JOIN validated v ON v.technique_id = a.id
        LEFT JOIN rules r ON r.ttp_id = a.ttp_id
    ), pointed AS (
      SELECT terms.*,
             ${points('coverage')} AS coverage_points,
             ${points('detection')} AS detection_points,
             ${points('validation_freshness')} AS validation_freshness_points,
             ${points('detection_rate')} AS detection_rate_points
        FROM terms
    ), scored AS (
      SELECT id, ttp_id, name, status_global, tactic, tactics, platforms, is_subtechnique, parent_ttp_id,
             validated_tests, detected_tests, partially_detected_tests, last_validated_at, active_rules,
             coverage::float8 AS coverage, detection::float8 AS detection,
             validation_freshness::float8 AS validation_freshness, detection_rate::float8 AS detection_rate,
             coverage_points::float8 AS coverage_points, detection_points::float8 AS detection_points,
             validation_freshness_points::float8 AS validation_freshness_points, detection_rate_points::float8 AS detection_rate_points,
             (coverage_points + detection_points + validation_freshness_points + detection_rate_points)::float8 AS score
        FROM pointed
    )`;
}

/** One row of `scored`. */
export interface ScoredRow {
  id: string;
  ttp_id: string;
  name: string;
  status_global: CoverageStatus;
  tactic: string | null;
  tactics: string[];
  platforms: string[];
  is_subtechnique: boolean;
  parent_ttp_id: string | null;
  validated_tests: number;
  detected_tests: number;
  partially_detected_tests: number;
  last_validated_at: Date | null;
  active_rules: number;
  coverage: number;
  detection: number;
  validation_freshness: number;
  detection_rate: number;
  coverage_points: number;
  detection_points: number;
  validation_freshness_points: number;
  detection_rate_points: number;
  score: number;
}

/** The columns a matrix (heatmap, layer) needs; fewer columns make a whole-catalog read much cheaper. */
export const MATRIX_COLUMNS = [
  'id',
  'ttp_id',
  'name',
  'status_global',
  'tactic',
  'tactics',
  'is_subtechnique',
  'parent_ttp_id',
  'score',
] as const;
export const POINT_COLUMNS = SCORE_TERMS.map((term) => `${term}_points` as const);
export const TERM_COLUMNS = [...SCORE_TERMS, ...POINT_COLUMNS] as const;
export type MatrixRow = Pick<ScoredRow, (typeof MATRIX_COLUMNS)[number]>;

/** A term of a breakdown: its value (0–1), weight and the points it adds to the score. */
export interface TermPoints {
  name: ScoreTermName;
  value: number;
  weight: number;
  points: number;
}

export function termsOf(row: Pick<ScoredRow, (typeof TERM_COLUMNS)[number]>, weights: Weights): TermPoints[] {
  return SCORE_TERMS.map((name) => ({ name, value: row[name], weight: weights[name], points: row[`${name}_points`] }));
}

/** Postgres' average of scores, rounded like a score. */
export const averageScore = (column: Prisma.Sql) =>
  Prisma.sql`round(avg(${column})::numeric, ${Prisma.raw(String(POINT_DECIMALS))})::float8`;
