import { Prisma } from '../../generated/prisma/client.ts';
import type { Services } from '../../services.ts';
import { currentWeights, scoredTechniques, TERM_COLUMNS, termsOf, type ScoredRow, type Weights } from './formula.ts';
import { isUuid } from '../../validation.ts';

/** One technique's score (0–100) and the weighted terms that add up to it. */
export interface TechniqueScore {
  techniqueId: string;
  ttpId: string;
  score: number;
  /** term name → { value (0–1), weight, points (= 100 × value × weight / Σ weights) } */
  terms: Record<string, { value: number; weight: number; points: number }>;
}

/**
 * Scored rows of the active techniques (all, those whose ids are listed, and/or those matching `where` on `t`),
 * in ttp id order, with the listed columns (all by default).
 */
export async function scoredRows<K extends keyof ScoredRow = keyof ScoredRow>(
  services: Services,
  options: { ids?: readonly string[]; where?: Prisma.Sql; weights?: Weights; columns?: readonly K[] } = {},
): Promise<{ rows: Pick<ScoredRow, K>[]; weights: Weights }> {
  const weights = options.weights ?? (await currentWeights(services.prisma));
  const ids = options.ids ? Prisma.sql`AND t.id = ANY(${options.ids.filter((id) => isUuid(id))}::uuid[])` : Prisma.empty;
  const columns = options.columns ? Prisma.raw(options.columns.join(', ')) : Prisma.raw('*');
  const rows = await services.prisma.$queryRaw<Pick<ScoredRow, K>[]>`
    ${scoredTechniques(weights, Prisma.sql`${ids} ${options.where ?? Prisma.empty}`)} SELECT ${columns} FROM scored ORDER BY ttp_id COLLATE "C"`;
  return { rows, weights };
}

/**
 * Scores of the active catalog techniques (all of them, or those listed), computed by the database.
 * Contract shared by scores, heatmap, snapshots, risk and reports; the formula lives in formula.ts.
 */
export async function techniqueScores(services: Services, techniqueIds?: readonly string[]): Promise<Map<string, TechniqueScore>> {
  if (techniqueIds && !techniqueIds.length) return new Map();
  const { rows, weights } = await scoredRows(services, { ids: techniqueIds, columns: ['id', 'ttp_id', 'score', ...TERM_COLUMNS] });
  return new Map(
    rows.map((row) => [
      row.id,
      {
        techniqueId: row.id,
        ttpId: row.ttp_id,
        score: row.score,
        terms: Object.fromEntries(termsOf(row, weights).map(({ name, ...term }) => [name, term])),
      },
    ]),
  );
}
