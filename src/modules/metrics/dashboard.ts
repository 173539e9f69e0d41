import { z } from 'zod';
import type { Services } from '../../services.ts';
import { parseInput } from '../../validation.ts';
import { coverageByTactic, coverageSummary, type CoverageCounts, type TacticCoverage } from './coverage.ts';
import { narrate, type ExecutiveFigures } from './narrative.ts';
import { OPERATIONAL_CACHE_MS, operationalKpis } from './operational.ts';
import { testPipeline, type TestPipeline } from './workflow.ts';

export interface CampaignCounts {
  total: number;
  draft: number;
  active: number;
  completed: number;
}

export interface DashboardKpis {
  coverage: CoverageCounts;
  tests: TestPipeline;
  campaigns: CampaignCounts;
}

export interface ExecutiveSummary extends ExecutiveFigures {
  summary: string;
  sentences: string[];
  generatedAt: Date;
}

export interface ActivityEntry {
  id: string;
  userId: string | null;
  username: string;
  action: string;
  entityType: string;
  entityId: string | null;
  timestamp: Date;
}

export const ACTIVITY_PAGE = { defaultLimit: 20, maxLimit: 100 } as const;
const activitySchema = z.object({
  limit: z
    .number()
    .int()
    .min(1, 'must be at least 1')
    .max(ACTIVITY_PAGE.maxLimit, `must be at most ${ACTIVITY_PAGE.maxLimit}`)
    .prefault(ACTIVITY_PAGE.defaultLimit),
});

/** Audit entries about accounts, keys and notifications are personal or security records: only the audit log shows them. */
export const PRIVATE_ENTITY_TYPES = ['user', 'api_key', 'notification'] as const;

async function campaignCounts(services: Services): Promise<CampaignCounts> {
  const [row] = await services.prisma.$queryRaw<CampaignCounts[]>`
    SELECT count(*)::int AS total,
           (count(*) FILTER (WHERE status = 'draft'))::int AS draft,
           (count(*) FILTER (WHERE status = 'active'))::int AS active,
           (count(*) FILTER (WHERE status = 'completed'))::int AS completed
      FROM campaigns`;
  return row;
}

export async function dashboardKpis(services: Services): Promise<DashboardKpis> {
  const [coverage, tests, campaigns] = await Promise.all([coverageSummary(services), testPipeline(services), campaignCounts(services)]);
  return { coverage, tests, campaigns };
}

/** The tactics with the highest and lowest coverage among those with techniques; ties go to the first in matrix order. */
export function extremes(tactics: TacticCoverage[]): { strongest: TacticCoverage | null; weakest: TacticCoverage | null } {
  const rated = tactics.filter((tactic) => tactic.total > 0);
  const pick = (better: (a: number, b: number) => boolean) =>
    rated.reduce<TacticCoverage | null>(
      (best, tactic) => (!best || better(tactic.coveragePercentage, best.coveragePercentage) ? tactic : best),
      null,
    );
  return { strongest: pick((a, b) => a > b), weakest: pick((a, b) => a < b) };
}

export async function executiveSummary(services: Services): Promise<ExecutiveSummary> {
  // Built on the operational KPIs, and as costly uncached: cached with them (5 minutes, cleared by coverage changes).
  const summary = await services.cache.remember('analytics', 'dashboard:executive', OPERATIONAL_CACHE_MS, () =>
    composeExecutiveSummary(services),
  );
  return { ...summary, generatedAt: new Date(summary.generatedAt) };
}

async function composeExecutiveSummary(services: Services): Promise<ExecutiveSummary> {
  const [coverage, tactics, [work], kpis] = await Promise.all([
    coverageSummary(services),
    coverageByTactic(services),
    // Two counts each on an index that holds its columns (an index-only scan of the tests it counts) rather than one
    // scan of every test with two filters: 23 ms instead of 160–175 on 100,000 tests (docs/benchmark.md).
    services.prisma.$queryRaw<{ validatedLast30Days: number; openRemediation: number }[]>`
      SELECT (SELECT count(*) FROM tests WHERE state = 'validated' AND decided_at >= now() - interval '30 days')::int
               AS "validatedLast30Days",
             (SELECT count(*) FROM tests WHERE remediation_status IN ('pending', 'in_progress'))::int AS "openRemediation"`,
    operationalKpis(services),
  ]);
  const { strongest, weakest } = extremes(tactics);
  const figures = {
    coverage,
    strongestTactic: strongest,
    weakestTactic: weakest,
    testsValidatedLast30Days: work.validatedLast30Days,
    openRemediation: work.openRemediation,
    efficacyRate: kpis.efficacy.rate,
    efficacyTests: kpis.efficacy.tests,
  };
  const sentences = narrate(figures);
  return { ...figures, summary: sentences.join(' '), sentences, generatedAt: new Date() };
}

/** The latest audit entries for the activity feed, newest first (accounts, keys and notifications left out). */
export function activityFeed(services: Services, input: unknown): Promise<ActivityEntry[]> {
  const { limit } = parseInput(activitySchema, input ?? {});
  return services.prisma.auditLog.findMany({
    where: { entityType: { notIn: [...PRIVATE_ENTITY_TYPES] } },
    orderBy: [{ timestamp: 'desc' }, { id: 'desc' }],
    take: limit,
    select: { id: true, userId: true, username: true, action: true, entityType: true, entityId: true, timestamp: true },
  });
}
