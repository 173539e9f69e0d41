import { Prisma } from '../../generated/prisma/client.ts';
import type { Services } from '../../services.ts';
import { parseInput } from '../../validation.ts';
import {
  OPERATIONAL_CACHE_MS,
  operationalTrend,
  periodSchema,
  periodWeeks,
  utcWeek,
  type Efficacy,
  type HoursStats,
  type Period,
  type SecondsStats,
} from '../metrics/operational.ts';
import { validationIs } from '../detection-lifecycle/validation-states.ts';

export interface AnalyticsPoint {
  weekStart: Date | string;
  /** Coverage % of the latest snapshot taken by the week's end (carried forward; null before the first). */
  coveragePercentage: number | null;
  /** Validated techniques in that snapshot. */
  validatedTechniques: number | null;
  /** Tests whose execution started in the week. */
  testsExecuted: number;
  efficacy: Efficacy;
  mttd: SecondsStats;
  mttr: HoursStats;
  alertsFired: number;
  /** Average, over techniques with a validation by the week's end, of their freshest validation's remaining life at that time × 100. */
  detectionConfidence: number | null;
}

export interface Analytics {
  period: Period;
  from: Date | string;
  to: Date | string;
  points: AnalyticsPoint[];
  computedAt: string;
}

interface WeekRow {
  weekStart: Date;
  coveragePercentage: number | null;
  validatedTechniques: number | null;
  testsExecuted: number;
  alertsFired: number;
  detectionConfidence: number | null;
}

/**
 * Trend series per UTC week (Monday) over the period, computed in SQL and cached like the operational KPIs:
 * snapshots for coverage, tests for executions, `test_outcomes` for efficacy, MTTD and MTTR (the operational
 * trend), alert instances, and the validations' remaining life for detection confidence.
 */
export function analytics(services: Services, input: unknown): Promise<Analytics> {
  const { period } = parseInput(periodSchema, input ?? {});
  return services.cache.remember('analytics', `analytics:${period}`, OPERATIONAL_CACHE_MS, async () => {
    const [operational, weeks] = await Promise.all([
      operationalTrend(services, { period }),
      services.prisma.$queryRaw<WeekRow[]>`
        WITH weeks AS (
          SELECT week, (week + interval '1 week') AT TIME ZONE 'UTC' AS week_end
            FROM ${periodWeeks(period)} AS week
        ), since AS (SELECT min(week) AT TIME ZONE 'UTC' AS at FROM weeks),
        fired AS (
          SELECT ${utcWeek('fired_at')} AS week, count(*)::int AS n
            FROM alert_instances WHERE fired_at >= (SELECT at FROM since) GROUP BY 1
        )
        SELECT w.week AT TIME ZONE 'UTC' AS "weekStart",
               s.coverage_percentage AS "coveragePercentage",
               (s.summary ->> 'validated')::int AS "validatedTechniques",
               -- Counted week by week on the index of execution dates, instead of sorting a year of tests by week.
               (SELECT count(*)::int FROM tests
                 WHERE execution_date >= w.week AT TIME ZONE 'UTC' AND execution_date < w.week_end) AS "testsExecuted",
               coalesce(f.n, 0) AS "alertsFired",
               c.confidence AS "detectionConfidence"
          FROM weeks w
          LEFT JOIN fired f ON f.week = w.week
          LEFT JOIN LATERAL (SELECT coverage_percentage, summary FROM snapshots
                              WHERE created_at < w.week_end ORDER BY created_at DESC LIMIT 1) s ON true
          LEFT JOIN LATERAL (
            SELECT round(avg(best) * 100)::float8 AS confidence FROM (
              SELECT technique_id,
                     max(CASE WHEN ${validationIs('fresh', undefined, Prisma.sql`w.week_end`)}
                              THEN greatest(0, 1 - extract(epoch FROM w.week_end - validated_at)
                                               / nullif(extract(epoch FROM valid_until - validated_at), 0))
                              ELSE 0 END) AS best
                FROM detection_validations WHERE validated_at < w.week_end GROUP BY technique_id
            ) per_technique
          ) c ON true
         ORDER BY w.week`,
    ]);
    const byWeek = new Map(operational.weeks.map((week) => [new Date(week.weekStart).getTime(), week]));
    const points = weeks.map((week): AnalyticsPoint => {
      const kpis = byWeek.get(new Date(week.weekStart).getTime());
      return {
        ...week,
        efficacy: kpis?.efficacy ?? { tests: 0, detected: 0, partiallyDetected: 0, notDetected: 0, rate: null },
        mttd: kpis?.mttd ?? { count: 0, meanSeconds: null, medianSeconds: null, p90Seconds: null },
        mttr: kpis?.mttr ?? { count: 0, meanHours: null, medianHours: null, p90Hours: null },
      };
    });
    const to = new Date(new Date(weeks.at(-1)!.weekStart).getTime() + 7 * 86_400_000);
    return { period, from: weeks[0].weekStart, to, points, computedAt: new Date().toISOString() };
  });
}
