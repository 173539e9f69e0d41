import type { Services } from '../../../services.ts';
import { coverageByTactic, coverageSummary } from '../../metrics/coverage.ts';
import { calendarQuarter, EXECUTIVE_WINDOW_DAYS, trailingDays, type Period } from '../period.ts';
import {
  campaignCounts,
  coverageFigures,
  iso,
  monthlyTestFigures,
  periodTestFigures,
  remediationFigures,
  tacticRows,
  topGaps,
  type CampaignCounts,
  type CoverageFigures,
  type DocumentBase,
  type Gap,
  type MonthFigures,
  type PeriodTestFigures,
  type RemediationFigures,
  type TacticRow,
} from './shared.ts';

interface PeriodDocument extends DocumentBase {
  coverage: CoverageFigures;
  tests: PeriodTestFigures;
  remediation: RemediationFigures;
  by_tactic: TacticRow[];
  top_gaps: Gap[];
}

export interface ExecutiveDocument extends PeriodDocument {
  kind: 'executive_summary';
  period: { from: string; to: string; label: string };
  campaigns: CampaignCounts;
}

export interface CompletedCampaign {
  id: string;
  name: string;
  completed_at: string;
  tests_total: number;
  tests_validated: number;
}

export interface QuarterlyDocument extends PeriodDocument {
  kind: 'quarterly_summary';
  period: { year: number; quarter: number; from: string; to: string; label: string };
  /** Coverage percentage of the latest snapshot before the quarter and at its end (live while it runs). */
  coverage_trend: { start: number | null; end: number | null; change: number | null };
  by_month: MonthFigures[];
  campaigns: CampaignCounts & { completed: CompletedCampaign[] };
}

/** Figures both summaries share: current coverage, test activity in the period, remediation, gaps. */
async function periodFigures(services: Services, period: Period) {
  const [coverage, tests, remediation, byTactic, gaps, campaigns] = await Promise.all([
    coverageSummary(services),
    periodTestFigures(services, period),
    remediationFigures(services),
    coverageByTactic(services),
    topGaps(services),
    campaignCounts(services, period),
  ]);
  return { coverage: coverageFigures(coverage), tests, remediation, by_tactic: tacticRows(byTactic), top_gaps: gaps, campaigns };
}

/** A briefing: coverage now and test activity over the last 90 days. */
export async function executiveDocument(services: Services): Promise<ExecutiveDocument> {
  const now = new Date();
  const period = trailingDays(EXECUTIVE_WINDOW_DAYS, now);
  const { campaigns, ...figures } = await periodFigures(services, period);
  const label = `Last ${EXECUTIVE_WINDOW_DAYS} days`;
  return {
    kind: 'executive_summary',
    title: 'Executive summary',
    subtitle: `${label}: ${period.from.toISOString().slice(0, 10)} to ${period.to.toISOString().slice(0, 10)}`,
    generated_at: now.toISOString(),
    period: { from: period.from.toISOString(), to: period.to.toISOString(), label },
    ...figures,
    campaigns,
  };
}

/** Coverage percentage of the latest snapshot taken before `at`. */
async function snapshotCoverage(services: Services, at: Date): Promise<number | null> {
  const snapshot = await services.prisma.snapshot.findFirst({
    where: { createdAt: { lt: at } },
    orderBy: { createdAt: 'desc' },
    select: { coveragePercentage: true },
  });
  return snapshot?.coveragePercentage ?? null;
}

async function campaignsCompleted(services: Services, period: Period): Promise<CompletedCampaign[]> {
  const rows = await services.prisma.$queryRaw<(Omit<CompletedCampaign, 'completed_at'> & { completed_at: Date })[]>`
    SELECT c.id, c.name, c.completed_at,
      (SELECT count(*) FROM tests s WHERE s.campaign_id = c.id)::int AS tests_total,
      (SELECT count(*) FROM tests s WHERE s.campaign_id = c.id AND s.state = 'validated')::int AS tests_validated
    FROM campaigns c
    WHERE c.status = 'completed' AND c.completed_at >= ${period.from}::timestamptz AND c.completed_at < ${period.to}::timestamptz
    ORDER BY c.completed_at, c.name`;
  return rows.map((row) => ({ ...row, completed_at: iso(row.completed_at)! }));
}

/** A calendar quarter in review (UTC); year and quarter default to the current ones. */
export async function quarterlyDocument(services: Services, year?: number | null, quarter?: number | null): Promise<QuarterlyDocument> {
  const now = new Date();
  const period = calendarQuarter(year, quarter, now);
  const running = period.to > now;
  const [{ campaigns, ...figures }, byMonth, start, end, completed] = await Promise.all([
    periodFigures(services, period),
    monthlyTestFigures(services, period),
    snapshotCoverage(services, period.from),
    running ? Promise.resolve(null) : snapshotCoverage(services, period.to),
    campaignsCompleted(services, period),
  ]);
  const endCoverage = running ? figures.coverage.coverage_percentage : end;
  return {
    kind: 'quarterly_summary',
    title: `Quarterly summary ${period.label}`,
    subtitle: `${period.from.toISOString().slice(0, 10)} to ${new Date(period.to.getTime() - 1).toISOString().slice(0, 10)}${running ? ' (quarter in progress)' : ''}`,
    generated_at: now.toISOString(),
    period: {
      year: period.year,
      quarter: period.quarter,
      from: period.from.toISOString(),
      to: period.to.toISOString(),
      label: period.label,
    },
    ...figures,
    coverage_trend: {
      start,
      end: endCoverage,
      change: start != null && endCoverage != null ? Math.round((endCoverage - start) * 10) / 10 : null,
    },
    by_month: byMonth,
    campaigns: { ...campaigns, completed },
  };
}
