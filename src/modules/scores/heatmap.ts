import { z } from 'zod';
import { Prisma } from '../../generated/prisma/client.ts';
import type { CoverageStatus } from '../../generated/prisma/enums.ts';
import type { Services } from '../../services.ts';
import { parseInput } from '../../validation.ts';
import { MATRIX_COLUMNS, type MatrixRow, type ScoredRow } from './formula.ts';
import { ORGANIZATION_CACHE_MS } from './service.ts';
import { scoredRows } from './technique-scores.ts';

export const heatmapFilterSchema = z.object({
  platform: z.string().trim().min(1, 'must not be empty').max(64, 'must be at most 64 characters').nullish(),
});
export type HeatmapFilter = z.input<typeof heatmapFilterSchema>;

export interface HeatmapTechnique {
  techniqueId: string;
  ttpId: string;
  name: string;
  status: CoverageStatus;
  score: number;
  subTechniques: HeatmapTechnique[];
}

export interface HeatmapTactic {
  /** TA id; null for a tactic only custom techniques name, and for the column of techniques without a tactic. */
  id: string | null;
  shortName: string | null;
  name: string;
  order: number | null;
  techniques: HeatmapTechnique[];
}

export interface CatalogTactic {
  id: string;
  shortName: string;
  name: string;
  order: number;
}

export const catalogTactics = (services: Services) =>
  services.prisma.$queryRaw<CatalogTactic[]>`
    SELECT external_id AS id, short_name AS "shortName", name, matrix_order AS "order" FROM tactics ORDER BY matrix_order, external_id`;

/** Active techniques offered on a platform (any case), or all of them. */
export const platformCondition = (platform: string | null | undefined) =>
  platform ? Prisma.sql`AND EXISTS (SELECT 1 FROM unnest(t.platforms) AS p WHERE lower(p) = lower(${platform}))` : Prisma.empty;

/** The scored active techniques (optionally of one platform, with `extra` columns) and the catalog tactics. */
export async function heatmapRows<K extends keyof ScoredRow = never>(services: Services, filter: HeatmapFilter, extra: readonly K[] = []) {
  const { platform } = parseInput(heatmapFilterSchema, filter ?? {});
  const [{ rows, weights }, tactics] = await Promise.all([
    scoredRows(services, { where: platformCondition(platform), columns: [...MATRIX_COLUMNS, ...extra] }),
    catalogTactics(services),
  ]);
  return { rows, weights, tactics, platform: platform ?? null };
}

const NO_TACTIC = 'No tactic';

/**
 * The matrix: catalog tactics in matrix order, then tactics only custom techniques name (by name), then the
 * techniques without any tactic. A technique appears under each of its tactics, in ttp id order; a
 * sub-technique is nested under its parent where the parent is in the same column, else listed on its own.
 */
export function buildMatrix(rows: readonly MatrixRow[], tactics: readonly CatalogTactic[]): HeatmapTactic[] {
  const columns = new Map<string | null, HeatmapTactic>(tactics.map((tactic) => [tactic.shortName, { ...tactic, techniques: [] }]));
  const custom: HeatmapTactic[] = [];
  const parents = new Map<string, HeatmapTechnique>();
  for (const row of rows) {
    const keys = row.tactics.length ? [...new Set(row.tactics)] : [null];
    for (const key of keys) {
      let column = columns.get(key);
      if (!column) {
        column = { id: null, shortName: key, name: key ?? NO_TACTIC, order: null, techniques: [] };
        columns.set(key, column);
        if (key !== null) custom.push(column);
      }
      // A custom tactic is named by the display name of a technique whose first tactic it is.
      if (column.id === null && key !== null && row.tactics[0] === key && row.tactic) column.name = row.tactic;
      const node: HeatmapTechnique = {
        techniqueId: row.id,
        ttpId: row.ttp_id,
        name: row.name,
        status: row.status_global,
        score: row.score,
        subTechniques: [],
      };
      const parent = row.is_subtechnique && row.parent_ttp_id ? parents.get(`${key}\u0000${row.parent_ttp_id}`) : undefined;
      if (parent) parent.subTechniques.push(node);
      else column.techniques.push(node);
      if (!row.is_subtechnique) parents.set(`${key}\u0000${row.ttp_id}`, node);
    }
  }
  custom.sort((a, b) => a.name.toLowerCase().localeCompare(b.name.toLowerCase()) || String(a.shortName).localeCompare(String(b.shortName)));
  const withoutTactic = columns.get(null);
  return [...tactics.map((tactic) => columns.get(tactic.shortName)!), ...custom, ...(withoutTactic ? [withoutTactic] : [])];
}

/** GET /heatmap: every active technique with its status and score, in matrix order; cached like the organisation score. */
export async function heatmap(services: Services, filter: HeatmapFilter) {
  return services.cache.remember('analytics', `scores:heatmap:${filter.platform?.toLowerCase() ?? ''}`, ORGANIZATION_CACHE_MS, async () => {
    const { rows, tactics, platform } = await heatmapRows(services, filter);
    return { platform, techniqueCount: rows.length, tactics: buildMatrix(rows, tactics) };
  });
}
