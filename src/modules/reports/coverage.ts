import { Prisma } from '../../generated/prisma/client.ts';
import type { CoverageStatus, DetectionResult } from '../../generated/prisma/enums.ts';
import type { Services } from '../../services.ts';
import { coveredWeight, percentage } from '../metrics/sql.ts';
import { techniqueScope, type TechniqueScopeFilter } from './scope.ts';

/** Techniques by coverage status; coverage percentage = (validated + 0.5 × partial) / total × 100, one decimal (0 when none). */
export interface StatusCounts {
  total: number;
  validated: number;
  partial: number;
  notCovered: number;
  inProgress: number;
  notEvaluated: number;
  coveragePercentage: number;
}

export interface TacticCoverage extends StatusCounts {
  /** Display name (the short name when the catalog does not know the tactic). */
  tactic: string;
  shortName: string;
  /** TA id, null for a tactic the catalog does not know. */
  tacticId: string | null;
}

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
  totals: StatusCounts;
  byTactic: TacticCoverage[];
  techniques: TechniqueCoverage[];
}

/** The status-count columns over `techniques t` (SQL aggregates shared by every coverage figure). */
const STATUS_COUNTS = Prisma.sql`
  count(*)::int AS "total",
  count(*) FILTER (WHERE t.status_global = 'validated')::int AS "validated",
  count(*) FILTER (WHERE t.status_global = 'partial')::int AS "partial",
  count(*) FILTER (WHERE t.status_global = 'not_covered')::int AS "notCovered",
  count(*) FILTER (WHERE t.status_global = 'in_progress')::int AS "inProgress",
  count(*) FILTER (WHERE t.status_global = 'not_evaluated')::int AS "notEvaluated"`;

/** The coverage percentage of counted rows, as /metrics/summary defines it. */
const COVERAGE = percentage(coveredWeight(Prisma.sql`c."validated"`, Prisma.sql`c."partial"`), Prisma.sql`c."total"`, Prisma.sql`0`);

/** Coverage totals of the techniques matching `where` (a condition on `techniques t`). */
export async function statusCounts(services: Services, where: Prisma.Sql): Promise<StatusCounts> {
  const [totals] = await services.prisma.$queryRaw<StatusCounts[]>`
    SELECT c.*, ${COVERAGE} AS "coveragePercentage" FROM (SELECT ${STATUS_COUNTS} FROM techniques t WHERE ${where}) AS c`;
  return totals;
}

/**
 * Per-tactic coverage in matrix order: a technique counts under each of its tactics. Every tactic of the
 * catalog is listed (zeros included), then tactics only custom techniques name; `onlyShortName` keeps one.
 */
export async function tacticCoverage(services: Services, where: Prisma.Sql, onlyShortName: string | null = null): Promise<TacticCoverage[]> {
  const only = onlyShortName ? Prisma.sql`WHERE coalesce(ta.short_name, c.short_name) = ${onlyShortName}` : Prisma.empty;
  return services.prisma.$queryRaw<TacticCoverage[]>`
    WITH pairs AS (
      SELECT DISTINCT t.id, t.status_global, x.short_name
      FROM techniques t CROSS JOIN LATERAL unnest(t.tactics) AS x(short_name) WHERE ${where}
    ), counted AS (
      SELECT t.short_name, ${STATUS_COUNTS} FROM pairs t GROUP BY t.short_name
    )
    SELECT c.tactic, c."shortName", c."tacticId", c."total", c."validated", c."partial", c."notCovered", c."inProgress", c."notEvaluated",
      ${COVERAGE} AS "coveragePercentage"
    FROM (
      SELECT coalesce(ta.name, c.short_name) AS tactic, coalesce(ta.short_name, c.short_name) AS "shortName",
        ta.external_id AS "tacticId", ta.matrix_order,
        coalesce(c."total", 0) AS "total", coalesce(c."validated", 0) AS "validated", coalesce(c."partial", 0) AS "partial",
        coalesce(c."notCovered", 0) AS "notCovered", coalesce(c."inProgress", 0) AS "inProgress", coalesce(c."notEvaluated", 0) AS "notEvaluated"
      FROM tactics ta FULL JOIN counted c ON c.short_name = ta.short_name ${only}
    ) AS c
    ORDER BY c.matrix_order NULLS LAST, lower(c.tactic), c."shortName"`;
}

/**
 * One row per technique with its test counts and latest validated result, by ttp id: counts are aggregated
 * once (GROUP BY) for the techniques in scope; the latest result is one index probe per technique.
 */
export async function techniqueCoverage(services: Services, where: Prisma.Sql): Promise<TechniqueCoverage[]> {
  return services.prisma.$queryRaw<TechniqueCoverage[]>`
    WITH scope AS (SELECT t.* FROM techniques t WHERE ${where}),
    counts AS (
      SELECT s.technique_id, count(*)::int AS total,
        count(*) FILTER (WHERE s.state = 'validated')::int AS validated,
        count(*) FILTER (WHERE s.state = 'rejected')::int AS rejected
      FROM tests s WHERE s.technique_id IN (SELECT id FROM scope) GROUP BY s.technique_id
    )
    SELECT t.id, t.ttp_id AS "ttpId", t.name,
      ARRAY(SELECT coalesce(ta.name, x.short_name) FROM unnest(t.tactics) WITH ORDINALITY AS x(short_name, n)
            LEFT JOIN tactics ta ON ta.short_name = x.short_name ORDER BY x.n) AS "tactics",
      t.platforms, t.status_global::text AS "status",
      coalesce(c.total, 0) AS "testsTotal", coalesce(c.validated, 0) AS "testsValidated", coalesce(c.rejected, 0) AS "testsRejected",
      coalesce(c.total - c.validated - c.rejected, 0) AS "testsOpen",
      l.detection_result::text AS "lastResult", l.decided_at AS "lastValidatedAt"
    FROM scope t LEFT JOIN counts c ON c.technique_id = t.id
    LEFT JOIN LATERAL (
      -- The newest validated result, read from the (technique_id, state, decided_at, detection_result) index.
      SELECT s.detection_result, s.decided_at FROM tests s
      WHERE s.technique_id = t.id AND s.state = 'validated' AND s.decided_at IS NOT NULL AND s.detection_result IS NOT NULL
      ORDER BY s.decided_at DESC, s.created_at DESC, s.id DESC LIMIT 1
    ) l ON true
    ORDER BY t.ttp_id`;
}

/** The coverage summary: totals by status, per-tactic rows and one row per technique. */
export async function coverageReport(services: Services, filter: TechniqueScopeFilter | null | undefined): Promise<CoverageReport> {
  const scope = await techniqueScope(services.prisma, filter);
  const [totals, byTactic, techniques] = await Promise.all([
    statusCounts(services, scope.where),
    tacticCoverage(services, scope.where, scope.tacticShortName),
    techniqueCoverage(services, scope.where),
  ]);
  return { generatedAt: new Date(), tactic: scope.tactic, platform: scope.platform, totals, byTactic, techniques };
}
