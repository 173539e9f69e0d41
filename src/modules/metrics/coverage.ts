import { Prisma } from '../../generated/prisma/client.ts';
import type { Services } from '../../services.ts';
import { coveredWeight, percentage } from './sql.ts';

/** Techniques by coverage status and the coverage percentage they give. */
export interface CoverageCounts {
  total: number;
  validated: number;
  partial: number;
  notCovered: number;
  inProgress: number;
  notEvaluated: number;
  /** (validated + 0.5 × partial) / total × 100, one decimal; 0 without techniques. */
  coveragePercentage: number;
}

export interface TacticCoverage extends CoverageCounts {
  /** Display name (Defense Evasion). */
  tactic: string;
  /** ATT&CK short name (defense-evasion). */
  shortName: string;
  /** TA id; null for a tactic that only custom techniques name. */
  tacticId: string | null;
  matrixOrder: number | null;
}

/** Techniques that count: neither revoked nor deprecated (sub-techniques included), as a condition on `techniques t`. */
export const ACTIVE_TECHNIQUES = Prisma.sql`NOT t.revoked AND NOT t.deprecated`;

/** The techniques in scope: `where` is a condition on `techniques t` (active ones by default). */
const inScope = (where: Prisma.Sql) => Prisma.sql`SELECT t.id, t.status_global, t.tactic, t.tactics FROM techniques t WHERE ${where}`;

const COUNTS = Prisma.sql`
  count(*)::int AS total,
  (count(*) FILTER (WHERE status_global = 'validated'))::int AS validated,
  (count(*) FILTER (WHERE status_global = 'partial'))::int AS partial,
  (count(*) FILTER (WHERE status_global = 'not_covered'))::int AS "notCovered",
  (count(*) FILTER (WHERE status_global = 'in_progress'))::int AS "inProgress",
  (count(*) FILTER (WHERE status_global = 'not_evaluated'))::int AS "notEvaluated"`;

const COVERAGE = percentage(coveredWeight(Prisma.sql`validated`, Prisma.sql`partial`), Prisma.sql`total`, Prisma.sql`0`);

/** Techniques in scope (active ones by default) by coverage status, with the coverage percentage. */
export async function coverageSummary(services: Services, where: Prisma.Sql = ACTIVE_TECHNIQUES): Promise<CoverageCounts> {
  const [row] = await services.prisma.$queryRaw<CoverageCounts[]>`
    WITH counts AS (SELECT ${COUNTS} FROM (${inScope(where)}) active)
    SELECT *, ${COVERAGE} AS "coveragePercentage" FROM counts`;
  return row;
}

/**
 * Coverage per tactic in matrix order: a technique counts under each of its tactics. Every tactic of the
 * catalog is listed (zeros included); tactics only custom techniques name follow, by name. `where` narrows the
 * techniques (active ones by default), `onlyShortName` keeps the row of one tactic.
 */
export async function coverageByTactic(
  services: Services,
  where: Prisma.Sql = ACTIVE_TECHNIQUES,
  onlyShortName: string | null = null,
): Promise<TacticCoverage[]> {
  const only = onlyShortName ? Prisma.sql`WHERE "shortName" = ${onlyShortName}` : Prisma.empty;
  return services.prisma.$queryRaw<TacticCoverage[]>`
    WITH pairs AS (
      SELECT DISTINCT active.id, active.status_global, active.tactic, active.tactics[1] AS first, short_name
        FROM (${inScope(where)}) active CROSS JOIN LATERAL unnest(active.tactics) AS short_name
    ), counted AS (
      SELECT short_name, max(tactic) FILTER (WHERE first = short_name) AS display, ${COUNTS}
        FROM pairs GROUP BY short_name
    ), merged AS (
      SELECT coalesce(tc.name, c.display, c.short_name) AS tactic,
             coalesce(tc.short_name, c.short_name) AS "shortName",
             tc.external_id AS "tacticId",
             tc.matrix_order AS "matrixOrder",
             coalesce(c.total, 0) AS total, coalesce(c.validated, 0) AS validated, coalesce(c.partial, 0) AS partial,
             coalesce(c."notCovered", 0) AS "notCovered", coalesce(c."inProgress", 0) AS "inProgress",
             coalesce(c."notEvaluated", 0) AS "notEvaluated"
        FROM tactics tc FULL JOIN counted c ON c.short_name = tc.short_name
    )
    SELECT *, ${COVERAGE} AS "coveragePercentage" FROM merged ${only}
     ORDER BY "matrixOrder" NULLS LAST, lower(tactic), "shortName"`;
}
