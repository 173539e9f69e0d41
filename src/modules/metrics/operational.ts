import { z } from 'zod';
import { Prisma } from '../../generated/prisma/client.ts';
import type { Services } from '../../services.ts';
import { parseInput } from '../../validation.ts';
import { durationStats, emptyDurationStats, percentage, type PercentileOf } from './sql.ts';

export interface SecondsStats {
  count: number;
  meanSeconds: number | null;
  medianSeconds: number | null;
  p90Seconds: number | null;
}

export interface HoursStats {
  count: number;
  meanHours: number | null;
  medianHours: number | null;
  p90Hours: number | null;
}

export interface Efficacy {
  tests: number;
  detected: number;
  partiallyDetected: number;
  notDetected: number;
  /** (detected + 0.5 × partially detected) / tests × 100; null without tests. */
  rate: number | null;
}

export interface OperationalKpis {
  mttd: SecondsStats;
  mttr: HoursStats;
  efficacy: Efficacy;
  computedAt: string;
}

export interface OperationalWeek {
  weekStart: Date | string;
  mttd: SecondsStats;
  mttr: HoursStats;
  efficacy: Efficacy;
}

export interface OperationalTrend {
  period: Period;
  from: Date | string;
  to: Date | string;
  weeks: OperationalWeek[];
  computedAt: string;
}

export interface TeamBreakdown {
  red: { executions: number; successfulAttacks: number; attackSuccessRate: number | null; execution: SecondsStats };
  blue: {
    evaluations: number;
    detected: number;
    partiallyDetected: number;
    notDetected: number;
    detectionRate: number | null;
    evaluation: SecondsStats;
    mttd: SecondsStats;
  };
  computedAt: string;
}

/** How long the operational figures are kept (the spec's result cache). */
export const OPERATIONAL_CACHE_MS = 5 * 60_000;

export const PERIODS = { '30d': '30 days', '90d': '90 days', '1y': '1 year' } as const;
export type Period = keyof typeof PERIODS;
const PERIOD_NAMES = Object.keys(PERIODS) as [Period, ...Period[]];
/** The `period` input of the weekly series (the operational trend, the analytics): 30d by default. */
export const periodSchema = z.object({
  period: z.enum(PERIOD_NAMES, { error: `must be one of ${PERIOD_NAMES.join(', ')}` }).prefault('30d'),
});

// Every figure aggregates `test_outcomes`: one row per test that has left the red team's hands, with what it
// contributes, kept by the database from `tests` (the migration `operational_outcomes` defines the standing
// results, standing executions and repairs). Its rows are narrow, so one scan feeds every figure.
const results = Prisma.sql`count(*) FILTER (WHERE is_result)`;
const detected = Prisma.sql`count(*) FILTER (WHERE is_result AND detection_result = 'detected')`;
const partially = Prisma.sql`count(*) FILTER (WHERE is_result AND detection_result = 'partially_detected')`;
const notDetected = Prisma.sql`count(*) FILTER (WHERE is_result AND detection_result = 'not_detected')`;
const detectionRate = percentage(Prisma.sql`${detected} + 0.5 * ${partially}`, results);

const EFFICACY = Prisma.sql`json_build_object('tests', ${results}, 'detected', ${detected}, 'partiallyDetected', ${partially},
  'notDetected', ${notDetected}, 'rate', ${detectionRate})`;
const EMPTY_EFFICACY = Prisma.sql`json_build_object('tests', 0, 'detected', 0, 'partiallyDetected', 0, 'notDetected', 0, 'rate', NULL)`;

const MTTD = durationStats(Prisma.sql`detect_seconds`, 'seconds');
const MTTR = durationStats(Prisma.sql`repair_hours`, 'hours');

/** The durations with an index of their own (migration operational_outcome_percentiles). */
type IndexedDuration = 'detect_seconds' | 'execution_seconds' | 'evaluation_seconds';

/**
 * Percentiles of `column` over the whole of `test_outcomes`, for a statement that aggregates the whole table: instead of
 * sorting the column's 80,000 values (15–25 ms each on two cores), the two values around the percentile's rank are read
 * from the column's index (2–6 ms) and interpolated as percentile_cont does (the same float arithmetic, so the same
 * figures). The rank comes from the statement's own count, taken in the same snapshot as the index read.
 */
const indexedPercentile =
  (column: IndexedDuration): PercentileOf =>
  (fraction) => {
    const name = Prisma.raw(column);
    const count = Prisma.sql`count(test_outcomes.${name})`;
    const rank = Prisma.sql`(${Prisma.raw(String(fraction))}::float8 * (${count} - 1))`;
    return Prisma.sql`CASE WHEN ${count} > 0 THEN (
      SELECT pair[1] + (${rank} - floor(${rank})) * (coalesce(pair[2], pair[1]) - pair[1])
        FROM (SELECT array_agg(value ORDER BY value) AS pair
                FROM (SELECT i.${name} AS value FROM test_outcomes i WHERE i.${name} IS NOT NULL
                       ORDER BY i.${name} OFFSET floor(${rank})::bigint LIMIT 2) around) pairs) END`;
  };

/** A duration's summary over the whole of `test_outcomes`, its percentiles from its index. */
const wholeTableStats = (column: IndexedDuration) => durationStats(Prisma.raw(column), 'seconds', indexedPercentile(column));

/** The UTC week (its Monday 00:00, a timestamp without zone) of the moment in `column`. */
export const utcWeek = (column: 'blue_submitted_at' | 'remediation_completed_at' | 'fired_at') =>
  Prisma.sql`date_trunc('week', ${Prisma.raw(column)} AT TIME ZONE 'UTC')`;

/** The week a result counts in, and the one a repair counts in. */
const RESULT_WEEK = utcWeek('blue_submitted_at');
const REPAIR_WEEK = utcWeek('remediation_completed_at');

/** Every UTC week (`week`, its Monday as `utcWeek` gives it) that overlaps `period`, up to the current one. */
export const periodWeeks = (period: Period) =>
  Prisma.sql`generate_series(date_trunc('week', (now() - ${PERIODS[period]}::interval) AT TIME ZONE 'UTC'),
                             date_trunc('week', now() AT TIME ZONE 'UTC'), interval '1 week')`;

const now = () => new Date().toISOString();

/** MTTD, MTTR and efficacy over every standing result (cached five minutes, invalidated by test and coverage changes). */
export function operationalKpis(services: Services): Promise<OperationalKpis> {
  return services.cache.remember('analytics', 'metrics:operational', OPERATIONAL_CACHE_MS, async () => {
    const [row] = await services.prisma.$queryRaw<Omit<OperationalKpis, 'computedAt'>[]>`
      SELECT ${wholeTableStats('detect_seconds')} AS mttd, ${MTTR} AS mttr, ${EFFICACY} AS efficacy FROM test_outcomes`;
    return { ...row, computedAt: now() };
  });
}

/**
 * The same KPIs per UTC week (Monday 00:00) over every week that overlaps the period, zero-filled: a result
 * counts in the week of its blue submission, a repair in the week its remediation was completed.
 */
export function operationalTrend(services: Services, input: unknown): Promise<OperationalTrend> {
  const { period } = parseInput(periodSchema, input ?? {});
  return services.cache.remember('analytics', `metrics:operational-trend:${period}`, OPERATIONAL_CACHE_MS, async () => {
    const weeks = await services.prisma.$queryRaw<OperationalWeek[]>`
      WITH weeks AS (
        SELECT ${periodWeeks(period)} AS week
      ),
      -- By week and from the first week on, as the indexes of migration operational_outcomes_by_week read them.
      detections AS (
        SELECT ${RESULT_WEEK} AS week, ${MTTD} AS mttd, ${EFFICACY} AS efficacy
          FROM test_outcomes WHERE is_result AND ${RESULT_WEEK} >= (SELECT min(week) FROM weeks) GROUP BY 1
      ), fixes AS (
        SELECT ${REPAIR_WEEK} AS week, ${MTTR} AS mttr
          FROM test_outcomes WHERE repair_hours IS NOT NULL AND ${REPAIR_WEEK} >= (SELECT min(week) FROM weeks) GROUP BY 1
      )
      SELECT w.week AT TIME ZONE 'UTC' AS "weekStart",
             coalesce(d.mttd, ${emptyDurationStats('seconds')}) AS mttd,
             coalesce(f.mttr, ${emptyDurationStats('hours')}) AS mttr,
             coalesce(d.efficacy, ${EMPTY_EFFICACY}) AS efficacy
        FROM weeks w LEFT JOIN detections d ON d.week = w.week LEFT JOIN fixes f ON f.week = w.week
       ORDER BY w.week`;
    const to = new Date(new Date(weeks.at(-1)!.weekStart).getTime() + 7 * 86_400_000);
    return { period, from: weeks[0].weekStart, to, weeks, computedAt: now() };
  });
}

/** Red against blue: what each team's standing work amounts to (cached like the KPIs). */
export function operationalByTeam(services: Services): Promise<TeamBreakdown> {
  return services.cache.remember('analytics', 'metrics:operational-by-team', OPERATIONAL_CACHE_MS, async () => {
    const executions = Prisma.sql`count(*) FILTER (WHERE is_execution)`;
    const successful = Prisma.sql`count(*) FILTER (WHERE is_execution AND attack_success)`;
    const [row] = await services.prisma.$queryRaw<Omit<TeamBreakdown, 'computedAt'>[]>`
      SELECT json_build_object(
               'executions', ${executions},
               'successfulAttacks', ${successful},
               'attackSuccessRate', ${percentage(successful, Prisma.sql`count(attack_success) FILTER (WHERE is_execution)`)},
               'execution', ${wholeTableStats('execution_seconds')}) AS red,
             json_build_object(
               'evaluations', ${results}, 'detected', ${detected}, 'partiallyDetected', ${partially}, 'notDetected', ${notDetected},
               'detectionRate', ${detectionRate},
               'evaluation', ${wholeTableStats('evaluation_seconds')},
               'mttd', ${wholeTableStats('detect_seconds')}) AS blue
        FROM test_outcomes`;
    return { ...row, computedAt: now() };
  });
}
