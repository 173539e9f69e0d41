import type { Services } from '../../services.ts';

/** One technique's score (0–100) and the weighted terms that add up to it. */
export interface TechniqueScore {
  techniqueId: string;
  ttpId: string;
  score: number;
  /** term name → { value (0–1), weight, points (= 100 × value × weight / Σ weights) } */
  terms: Record<string, { value: number; weight: number; points: number }>;
}

/**
 * Scores of the active catalog techniques (all of them, or those listed), computed by the database.
 * Contract shared by scores, heatmap, snapshots, risk and reports; the formula lives in the scores module.
 */
export async function techniqueScores(services: Services, techniqueIds?: readonly string[]): Promise<Map<string, TechniqueScore>> {
  const rows = await services.prisma.technique.findMany({
    where: { revoked: false, deprecated: false, ...(techniqueIds ? { id: { in: [...techniqueIds] } } : {}) },
    select: { id: true, ttpId: true, statusGlobal: true },
  });
  const value = { validated: 1, partial: 0.5, in_progress: 0.25, not_covered: 0, not_evaluated: 0 } as const;
  return new Map(
    rows.map((row) => {
      const coverage = value[row.statusGlobal];
      return [row.id, { techniqueId: row.id, ttpId: row.ttpId, score: 100 * coverage, terms: { coverage: { value: coverage, weight: 1, points: 100 * coverage } } }];
    }),
  );
}
