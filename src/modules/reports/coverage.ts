import type { Prisma } from '../../generated/prisma/client.ts';
import type { CoverageStatus, DetectionResult } from '../../generated/prisma/enums.ts';
import type { Services } from '../../services.ts';
import { coverageByTactic, coverageSummary, type CoverageCounts, type TacticCoverage } from '../metrics/coverage.ts';
import { techniqueScope, type TechniqueScopeFilter } from './scope.ts';

/** Techniques by coverage status, and per tactic: the same figures as /metrics/summary and /metrics/by-tactic. */
export type { CoverageCounts as StatusCounts, TacticCoverage } from '../metrics/coverage.ts';

export interface TechniqueCoverage {
  id: string;
  ttpId: string;
  name: string;
  /** Display names of the technique's tactics, in matrix order. */
  tactics: string[];
  platforms: string[];
  status: CoverageStatus;
  testsTotal: number;
  testsValidated: number;
  testsRejected: number;
  /** Tests still in the pipeline (draft to in_review). */
  testsOpen: number;
  /** Detection result of the latest validated test (the one that decides the status). */
  lastResult: DetectionResult | null;
  lastValidatedAt: Date | null;
}

export interface CoverageReport {
  generatedAt: Date;
  tactic: string | null;
  platform: string | null;
  totals: CoverageCounts;
  byTactic: TacticCoverage[];
  techniques: TechniqueCoverage[];
}

/**
 * One row per technique with its test counts and latest validated result, by ttp id, read from the figures the
 * database keeps per technique as its tests change (`technique_test_stats`, see prisma/schema.prisma).
 */
export async function techniqueCoverage(services: Services, where: Prisma.Sql): Promise<TechniqueCoverage[]> {
  return services.prisma.$queryRaw<TechniqueCoverage[]>`
    SELECT t.id, t.ttp_id AS "ttpId", t.name,
      ARRAY(SELECT coalesce(ta.name, x.short_name) FROM unnest(t.tactics) WITH ORDINALITY AS x(short_name, n)
            LEFT JOIN tactics ta ON ta.short_name = x.short_name ORDER BY x.n) AS "tactics",
      t.platforms, t.status_global::text AS "status",
      coalesce(c.tests_total, 0) AS "testsTotal", coalesce(c.tests_validated, 0) AS "testsValidated",
      coalesce(c.tests_rejected, 0) AS "testsRejected",
      coalesce(c.tests_total - c.tests_validated - c.tests_rejected, 0) AS "testsOpen",
      c.last_result::text AS "lastResult", c.last_result_at AS "lastValidatedAt"
    FROM techniques t LEFT JOIN technique_test_stats c ON c.technique_id = t.id
    WHERE ${where}
    ORDER BY t.ttp_id`;
}

/** The coverage summary: totals by status, per-tactic rows and one row per technique. */
export async function coverageReport(services: Services, filter: TechniqueScopeFilter | null | undefined): Promise<CoverageReport> {
  const scope = await techniqueScope(services.prisma, filter);
  const [totals, byTactic, techniques] = await Promise.all([
    coverageSummary(services, scope.where),
    coverageByTactic(services, scope.where, scope.tacticShortName),
    techniqueCoverage(services, scope.where),
  ]);
  return { generatedAt: new Date(), tactic: scope.tactic, platform: scope.platform, totals, byTactic, techniques };
}
