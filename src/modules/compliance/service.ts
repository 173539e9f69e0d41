import { createContextCache } from '@pothos/core';
import DataLoader from 'dataloader';
import { z } from 'zod';
import { Prisma } from '../../generated/prisma/client.ts';
import { escapeLike, likePattern } from '../../db/search.ts';
import { pageOf } from '../../db/page-totals.ts';
import { NotFoundError } from '../../errors.ts';
import type { CoverageStatus } from '../../generated/prisma/enums.ts';
import type { Services } from '../../services.ts';
import { page, parseInput, isUuid } from '../../validation.ts';

export const CONTROL_PAGE = { defaultLimit: 50, maxLimit: 200 } as const;
const pageSchema = page(CONTROL_PAGE.defaultLimit, CONTROL_PAGE.maxLimit);

/** Coverage of a control, derived from the status_global of its mapped catalog techniques (see CONTROL_RATING). */
export const ControlCoverage = { covered: 'covered', partial: 'partial', gap: 'gap', not_evaluated: 'not_evaluated' } as const;
export type ControlCoverage = (typeof ControlCoverage)[keyof typeof ControlCoverage];

export interface FrameworkRow {
  id: string;
  key: string;
  name: string;
  version: string;
  attackVersion: string | null;
  updatedAt: Date;
  controlCount: number;
  mappedControlCount: number;
  mappingCount: number;
  attackIdCount: number;
}

export interface ControlRow {
  id: string;
  frameworkId: string;
  controlId: string;
  name: string;
  family: string | null;
  coverageStatus: ControlCoverage;
  /** Distinct ATT&CK ids mapped to the control. */
  mappedCount: number;
  /** Mapped ids that are active techniques of the catalog: the ones the rule looks at. */
  assessedCount: number;
  validatedCount: number;
  partialCount: number;
}

export interface ControlTechnique {
  controlId: string;
  attackId: string;
  mappingType: string;
  comments: string | null;
  inCatalog: boolean;
  assessed: boolean;
  techniqueId: string | null;
  techniqueName: string | null;
  statusGlobal: CoverageStatus | null;
}

export interface ComplianceSummary {
  framework: FrameworkRow;
  total: number;
  covered: number;
  partial: number;
  gaps: number;
  notEvaluated: number;
  unmapped: number;
  coveragePercentage: number;
  mappedAttackIdCount: number;
  absentAttackIds: string[];
  inactiveAttackIds: string[];
}

const filterSchema = z.object({
  status: z.enum(ControlCoverage).nullish(),
  family: z.string().trim().min(1, 'must not be empty').max(200, 'must be at most 200 characters').nullish(),
  search: z.string().trim().max(200, 'must be at most 200 characters').nullish(),
});

/**
 * The coverage rule, over the mapped ATT&CK ids that are active (not revoked, not deprecated) techniques of
 * the catalog: none → not_evaluated; all validated → covered; at least one validated or partial → partial;
 * otherwise → gap. Ids absent from the catalog or retired there are reported by the summary, never counted.
 */
const CONTROL_RATING = Prisma.sql`
  CASE WHEN assessed = 0 THEN 'not_evaluated'
       WHEN validated = assessed THEN 'covered'
       WHEN validated + partial > 0 THEN 'partial'
       ELSE 'gap' END`;

/** One row per control of the framework with its counts and coverage status, as a CTE named `rated`. */
const ratedControls = (frameworkId: string) => Prisma.sql`
  WITH stats AS (
    SELECT c.id, c.framework_id, c.control_id, c.name, c.family,
           count(DISTINCT m.attack_id)::int AS mapped,
           (count(DISTINCT t.ttp_id) FILTER (WHERE NOT t.revoked AND NOT t.deprecated))::int AS assessed,
           (count(DISTINCT t.ttp_id) FILTER (WHERE NOT t.revoked AND NOT t.deprecated AND t.status_global = 'validated'))::int AS validated,
           (count(DISTINCT t.ttp_id) FILTER (WHERE NOT t.revoked AND NOT t.deprecated AND t.status_global = 'partial'))::int AS partial
      FROM compliance_controls c
      LEFT JOIN compliance_mappings m ON m.control_id = c.id
      LEFT JOIN techniques t ON t.ttp_id = m.attack_id
     WHERE c.framework_id = ${frameworkId}::uuid
     GROUP BY c.id
  ), rated AS (SELECT stats.*, ${CONTROL_RATING} AS status FROM stats)`;

const CONTROL_COLUMNS = Prisma.sql`
  id, framework_id AS "frameworkId", control_id AS "controlId", name, family, status AS "coverageStatus",
  mapped AS "mappedCount", assessed AS "assessedCount", validated AS "validatedCount", partial AS "partialCount"`;

/** Every framework with its counts, by key. */
export function listFrameworks(services: Services, where = Prisma.sql`TRUE`): Promise<FrameworkRow[]> {
  return services.prisma.$queryRaw<FrameworkRow[]>`
    SELECT f.id, f.key, f.name, f.version, f.attack_version AS "attackVersion", f.updated_at AS "updatedAt",
           count(DISTINCT c.id)::int AS "controlCount",
           count(DISTINCT m.control_id)::int AS "mappedControlCount",
           count(m.id)::int AS "mappingCount",
           count(DISTINCT m.attack_id)::int AS "attackIdCount"
      FROM compliance_frameworks f
      LEFT JOIN compliance_controls c ON c.framework_id = f.id
      LEFT JOIN compliance_mappings m ON m.control_id = c.id
     WHERE ${where}
     GROUP BY f.id
     ORDER BY f.key`;
}

/** One framework by uuid or key (nist_800_53, csa_ccm). */
export async function getFramework(services: Services, idOrKey: string): Promise<FrameworkRow> {
  const key = idOrKey.trim();
  const [framework] = await listFrameworks(
    services,
    isUuid(key) ? Prisma.sql`f.id = ${key}::uuid` : Prisma.sql`f.key = ${key.toLowerCase()}`,
  );
  if (!framework) throw new NotFoundError('Compliance framework', key);
  return framework;
}

async function pageOfControls(services: Services, frameworkId: string, condition: Prisma.Sql, paging: unknown) {
  const { offset, limit } = parseInput(pageSchema, paging);
  const rated = ratedControls(frameworkId);
  return pageOf({ offset, limit }, [
    services.prisma.$queryRaw<
      ControlRow[]
    >`${rated} SELECT ${CONTROL_COLUMNS} FROM rated WHERE ${condition} ORDER BY control_id COLLATE "C" LIMIT ${limit} OFFSET ${offset}`,
    services.prisma.$queryRaw<{ total: number }[]>`${rated} SELECT count(*)::int AS total FROM rated WHERE ${condition}`.then(
      ([row]) => row?.total ?? 0,
    ),
  ]);
}

/** Controls of a framework with their coverage status, by control id (filters status, family, search). */
export async function listControls(services: Services, frameworkIdOrKey: string, filter: unknown, paging: unknown) {
  const { status, family, search } = parseInput(filterSchema, filter ?? {});
  const framework = await getFramework(services, frameworkIdOrKey);
  const conditions = [Prisma.sql`TRUE`];
  if (status) conditions.push(Prisma.sql`status = ${status}`);
  if (family) conditions.push(Prisma.sql`(lower(family) = lower(${family}) OR control_id ILIKE ${`${escapeLike(family)}-%`})`);
  if (search) conditions.push(Prisma.sql`(control_id ILIKE ${likePattern(search)} OR name ILIKE ${likePattern(search)})`);
  return pageOfControls(services, framework.id, Prisma.join(conditions, ' AND '), paging);
}

/** The gaps of a framework: controls whose assessed techniques are none of them validated or partial. */
export async function listGaps(services: Services, frameworkIdOrKey: string, paging: unknown) {
  const framework = await getFramework(services, frameworkIdOrKey);
  return pageOfControls(services, framework.id, Prisma.sql`status = ${ControlCoverage.gap}`, paging);
}

/** Counts by coverage status, and the mapped ATT&CK ids the rule could not look at (absent from the catalog, or retired there). */
export async function summarize(services: Services, frameworkIdOrKey: string): Promise<ComplianceSummary> {
  const framework = await getFramework(services, frameworkIdOrKey);
  const [[counts], attackIds] = await Promise.all([
    services.prisma.$queryRaw<{ total: number; covered: number; partial: number; gaps: number; notEvaluated: number; unmapped: number }[]>`
      ${ratedControls(framework.id)}
      SELECT count(*)::int AS total,
             (count(*) FILTER (WHERE status = 'covered'))::int AS covered,
             (count(*) FILTER (WHERE status = 'partial'))::int AS partial,
             (count(*) FILTER (WHERE status = 'gap'))::int AS gaps,
             (count(*) FILTER (WHERE status = 'not_evaluated'))::int AS "notEvaluated",
             (count(*) FILTER (WHERE mapped = 0))::int AS unmapped
        FROM rated`,
    services.prisma.$queryRaw<{ attackId: string; state: 'absent' | 'inactive' | 'active' }[]>`
      SELECT DISTINCT m.attack_id AS "attackId",
             CASE WHEN t.id IS NULL THEN 'absent' WHEN t.revoked OR t.deprecated THEN 'inactive' ELSE 'active' END AS state
        FROM compliance_mappings m
        JOIN compliance_controls c ON c.id = m.control_id
        LEFT JOIN techniques t ON t.ttp_id = m.attack_id
       WHERE c.framework_id = ${framework.id}::uuid
       ORDER BY 1`,
  ]);
  const assessable = counts.covered + counts.partial + counts.gaps;
  return {
    framework,
    ...counts,
    coveragePercentage: assessable ? Math.round((counts.covered / assessable) * 1000) / 10 : 0,
    mappedAttackIdCount: attackIds.length,
    absentAttackIds: attackIds.filter((row) => row.state === 'absent').map((row) => row.attackId),
    inactiveAttackIds: attackIds.filter((row) => row.state === 'inactive').map((row) => row.attackId),
  };
}

/** For each control id, its mapped ATT&CK ids with the catalog's technique where there is one: one query per batch. */
export async function loadControlTechniques(services: Services, controlIds: readonly string[]): Promise<ControlTechnique[][]> {
  if (!controlIds.length) return [];
  const rows = await services.prisma.$queryRaw<ControlTechnique[]>`
    SELECT m.control_id AS "controlId", m.attack_id AS "attackId", m.mapping_type AS "mappingType", m.comments,
           t.id IS NOT NULL AS "inCatalog", COALESCE(NOT t.revoked AND NOT t.deprecated, FALSE) AS assessed,
           t.id AS "techniqueId", t.name AS "techniqueName", t.status_global::text AS "statusGlobal"
      FROM compliance_mappings m
      LEFT JOIN techniques t ON t.ttp_id = m.attack_id
     WHERE m.control_id IN (${Prisma.join(controlIds.map((id) => Prisma.sql`${id}::uuid`))})
     ORDER BY m.attack_id, m.mapping_type`;
  const byControl = new Map<string, ControlTechnique[]>(controlIds.map((id) => [id, []]));
  for (const row of rows) byControl.get(row.controlId)?.push(row);
  return controlIds.map((id) => byControl.get(id)!);
}

/** The per-request loader of control techniques (keyed by the request context). */
export const controlTechniquesLoader = createContextCache(
  (context: { services: Services }) => new DataLoader<string, ControlTechnique[]>((ids) => loadControlTechniques(context.services, ids)),
);

/** A compliance control mapped to an ATT&CK technique, with its framework and how it maps. */
export interface TechniqueControl {
  id: string;
  frameworkKey: string;
  frameworkName: string;
  controlId: string;
  name: string;
  family: string | null;
  /** How the control maps to the technique (mitigates, protects, …), each once, in order. */
  mappingTypes: string[];
}

/** Most controls one technique lists (the two frameworks hold about 300 controls between them). */
export const TECHNIQUE_CONTROL_MAX = 500;

/**
 * For each ATT&CK id, the controls mapped to it, one row per control, by framework key and control id: one query
 * for the whole batch.
 */
export async function loadControlsByTtpId(services: Services, ttpIds: readonly string[]): Promise<TechniqueControl[][]> {
  if (!ttpIds.length) return [];
  const rows = await services.prisma.$queryRaw<(TechniqueControl & { attackId: string })[]>`
    SELECT m.attack_id AS "attackId", c.id, f.key AS "frameworkKey", f.name AS "frameworkName",
           c.control_id AS "controlId", c.name, c.family, array_agg(m.mapping_type ORDER BY m.mapping_type) AS "mappingTypes"
      FROM compliance_mappings m
      JOIN compliance_controls c ON c.id = m.control_id
      JOIN compliance_frameworks f ON f.id = c.framework_id
     WHERE m.attack_id = ANY (${[...ttpIds]}::text[])
     GROUP BY m.attack_id, c.id, f.key, f.name
     ORDER BY f.key, c.control_id COLLATE "C"`;
  const byTtpId = new Map<string, TechniqueControl[]>(ttpIds.map((ttpId) => [ttpId, []]));
  for (const { attackId, ...control } of rows) byTtpId.get(attackId)?.push(control);
  return ttpIds.map((ttpId) => byTtpId.get(ttpId)!.slice(0, TECHNIQUE_CONTROL_MAX));
}

/** The per-request loader of a technique's controls (keyed by the request context): a list's in one batch. */
export const techniqueControlsLoader = createContextCache(
  (context: { services: Services }) =>
    new DataLoader<string, TechniqueControl[]>((ttpIds) => loadControlsByTtpId(context.services, ttpIds)),
);
