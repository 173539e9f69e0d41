import { Prisma } from '../../../generated/prisma/client.ts';
import type { CoverageStatus, TestState } from '../../../generated/prisma/enums.ts';
import type { Services } from '../../../services.ts';
import { coveredWeight, percentage } from '../../metrics/sql.ts';
import type { StatusCounts, TacticCoverage } from '../coverage.ts';
import { monthsOf, type Period } from '../period.ts';
import { stateCountColumns, type StateCounts } from '../../test-runs/state-counts.ts';

export const REPORT_KINDS = ['purple_campaign', 'coverage_summary', 'executive_summary', 'quarterly_summary', 'technique'] as const;
export type ReportKind = (typeof REPORT_KINDS)[number];

/** What every generated document starts with. */
export interface DocumentBase {
  kind: ReportKind;
  title: string;
  subtitle: string | null;
  generated_at: string;
}

export const iso = (date: Date | null | undefined) => (date ? date.toISOString() : null);

export interface CoverageFigures {
  total_techniques: number;
  validated: number;
  partial: number;
  not_covered: number;
  in_progress: number;
  not_evaluated: number;
  coverage_percentage: number;
}

export const coverageFigures = (counts: StatusCounts): CoverageFigures => ({
  total_techniques: counts.total,
  validated: counts.validated,
  partial: counts.partial,
  not_covered: counts.notCovered,
  in_progress: counts.inProgress,
  not_evaluated: counts.notEvaluated,
  coverage_percentage: counts.coveragePercentage,
});

export interface TacticRow extends Omit<CoverageFigures, 'total_techniques'> {
  tactic: string;
  short_name: string;
  tactic_id: string | null;
  total: number;
}

export const tacticRows = (rows: TacticCoverage[]): TacticRow[] =>
  rows.map(({ total, tactic, shortName, tacticId, ...counts }) => {
    const { total_techniques: _, ...figures } = coverageFigures({ total, ...counts });
    return { tactic, short_name: shortName, tactic_id: tacticId, total, ...figures };
  });

/**
 * Detection results of validated tests; detection rate = (detected + 0.5 × partially detected) / validated tests
 * with a result × 100, one decimal, null without any (the efficacy rate of /metrics/operational).
 */
export interface DetectionFigures {
  detected: number;
  partially_detected: number;
  not_detected: number;
  detection_rate: number | null;
}

function DETECTION_COLUMNS(validated: Prisma.Sql) {
  const counted = (result: string) =>
    Prisma.sql`count(*) FILTER (WHERE ${validated} AND s.detection_result = ${Prisma.raw(`'${result}'`)})`;
  const results = Prisma.sql`count(*) FILTER (WHERE ${validated} AND s.detection_result IS NOT NULL)`;
  return Prisma.sql`
    ${counted('detected')}::int AS detected,
    ${counted('partially_detected')}::int AS partially_detected,
    ${counted('not_detected')}::int AS not_detected,
    ${percentage(coveredWeight(counted('detected'), counted('partially_detected')), results)} AS detection_rate`;
}

export type { StateCounts };

export interface TestFigures extends DetectionFigures {
  total: number;
  by_state: StateCounts;
}

/** Counts of the tests matching `where` (a condition on `tests s`), by state and by detection result. */
export async function testFigures(services: Services, where: Prisma.Sql): Promise<TestFigures> {
  const [row] = await services.prisma.$queryRaw<(DetectionFigures & StateCounts & { total: number })[]>`
    SELECT count(*)::int AS total,
      ${stateCountColumns(Prisma.sql`s.state`)},
      ${DETECTION_COLUMNS(Prisma.sql`s.state = 'validated'`)}
    FROM tests s WHERE ${where}`;
  const { total, detected, partially_detected, not_detected, detection_rate, ...byState } = row;
  return { total, by_state: byState, detected, partially_detected, not_detected, detection_rate };
}

/** Test activity in a period: executed (execution_date), validated and rejected (decided_at) within it. */
export interface PeriodTestFigures extends DetectionFigures {
  executed: number;
  validated: number;
  rejected: number;
  /** Tests in the pipeline now (draft to in_review), whatever the period. */
  open_now: number;
}

/** `column` within [from, to): a period's dates, or the columns of a row that holds a range. */
const within = (column: Prisma.Sql, range: { from: Date | Prisma.Sql; to: Date | Prisma.Sql }) =>
  Prisma.sql`(${column} >= ${range.from}::timestamptz AND ${column} < ${range.to}::timestamptz)`;

/** The range of the month row `m` in monthlyTestFigures. */
const MONTH = { from: Prisma.sql`m.starts_at`, to: Prisma.sql`m.ends_at` };

/**
 * Each figure is a range condition on its own, which an index answers (execution_date; decided_at with state and
 * result); the tests open now are summed from the per-technique figures the database keeps (technique_test_stats:
 * every test less the decided ones, validated and rejected, the only decided states).
 */
export async function periodTestFigures(services: Services, period: Period): Promise<PeriodTestFigures> {
  const decided = within(Prisma.sql`s.decided_at`, period);
  const [row] = await services.prisma.$queryRaw<PeriodTestFigures[]>`
    SELECT (SELECT count(*) FROM tests s WHERE ${within(Prisma.sql`s.execution_date`, period)})::int AS executed,
      d.validated, d.rejected,
      (SELECT COALESCE(sum(x.tests_total - x.tests_validated - x.tests_rejected), 0) FROM technique_test_stats x)::int AS open_now,
      d.detected, d.partially_detected, d.not_detected, d.detection_rate
    FROM (
      SELECT count(*) FILTER (WHERE s.state = 'validated')::int AS validated,
        count(*) FILTER (WHERE s.state = 'rejected')::int AS rejected,
        ${DETECTION_COLUMNS(Prisma.sql`s.state = 'validated'`)}
      FROM tests s WHERE ${decided}
    ) AS d`;
  return row;
}

export interface MonthFigures {
  month: string;
  executed: number;
  validated: number;
  rejected: number;
}

/**
 * Executed, validated and rejected tests in each month of the period (UTC), zeros included: three counts per month,
 * each a range of one index, so no row is read twice and none is formatted.
 */
export async function monthlyTestFigures(services: Services, period: Period): Promise<MonthFigures[]> {
  const months = monthsOf(period);
  const decided = (state: TestState) =>
    Prisma.sql`(SELECT count(*) FROM tests s WHERE ${within(Prisma.sql`s.decided_at`, MONTH)} AND s.state = ${Prisma.raw(`'${state}'`)})::int`;
  return services.prisma.$queryRaw<MonthFigures[]>`
    SELECT m.month,
      (SELECT count(*) FROM tests s WHERE ${within(Prisma.sql`s.execution_date`, MONTH)})::int AS executed,
      ${decided('validated')} AS validated,
      ${decided('rejected')} AS rejected
    FROM unnest(${months.map((m) => m.month)}::text[], ${months.map((m) => m.from)}::timestamptz[],
      ${months.map((m) => m.to)}::timestamptz[]) WITH ORDINALITY AS m(month, starts_at, ends_at, position)
    ORDER BY m.position`;
}

/** A coverage gap worth closing first. */
export interface Gap {
  ttp_id: string;
  name: string;
  status: CoverageStatus;
  risk_score: number | null;
  actor_count: number;
  tests_total: number;
}

/** The number of gaps the summaries list. */
export const TOP_GAPS = 10;

/**
 * Active techniques not covered, then partially covered, then never evaluated; within each, highest risk
 * score first (when risk profiles were computed), then most threat actors using it, then ttp id.
 */
export async function topGaps(services: Services, limit = TOP_GAPS): Promise<Gap[]> {
  return services.prisma.$queryRaw<Gap[]>`
    SELECT t.ttp_id, t.name, t.status_global::text AS status, rp.score::float8 AS risk_score,
      (SELECT count(*) FROM threat_actor_techniques a WHERE a.technique_id = t.id)::int AS actor_count,
      (SELECT count(*) FROM tests s WHERE s.technique_id = t.id)::int AS tests_total
    FROM techniques t LEFT JOIN risk_profiles rp ON rp.technique_id = t.id
    WHERE NOT t.revoked AND NOT t.deprecated AND t.status_global IN ('not_covered', 'partial', 'not_evaluated')
    ORDER BY CASE t.status_global WHEN 'not_covered' THEN 0 WHEN 'partial' THEN 1 ELSE 2 END,
      rp.score DESC NULLS LAST, actor_count DESC, t.ttp_id
    LIMIT ${limit}`;
}

export interface CampaignCounts {
  active: number;
  completed_in_period: number;
}

export async function campaignCounts(services: Services, period: Period): Promise<CampaignCounts> {
  const [row] = await services.prisma.$queryRaw<CampaignCounts[]>`
    SELECT count(*) FILTER (WHERE c.status = 'active')::int AS active,
      count(*) FILTER (WHERE c.status = 'completed' AND ${within(Prisma.sql`c.completed_at`, period)})::int AS completed_in_period
    FROM campaigns c`;
  return row;
}

export type RemediationFigures = Record<'pending' | 'in_progress' | 'completed' | 'not_applicable', number>;

export async function remediationFigures(services: Services): Promise<RemediationFigures> {
  const [row] = await services.prisma.$queryRaw<RemediationFigures[]>`
    SELECT count(*) FILTER (WHERE s.remediation_status = 'pending')::int AS pending,
      count(*) FILTER (WHERE s.remediation_status = 'in_progress')::int AS in_progress,
      count(*) FILTER (WHERE s.remediation_status = 'completed')::int AS completed,
      count(*) FILTER (WHERE s.remediation_status = 'not_applicable')::int AS not_applicable
    FROM tests s WHERE s.remediation_status IS NOT NULL`;
  return row;
}
