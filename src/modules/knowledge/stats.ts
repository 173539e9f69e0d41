import { PlaybookType, Severity } from '../../generated/prisma/enums.ts';
import type { Services } from '../../services.ts';

export type PlaybookTypeCounts = Record<PlaybookType, number>;
export type SeverityCounts = Record<Severity, number>;

export interface KnowledgeStats {
  playbooks: { total: number; byType: PlaybookTypeCounts };
  lessons: { total: number; bySeverity: SeverityCounts };
}

/** Every value of `values` with its count, zero when the database has none. */
function countsOf<K extends string>(values: readonly K[], rows: { key: K; count: number }[]): Record<K, number> {
  const found = new Map(rows.map((row) => [row.key, row.count]));
  return Object.fromEntries(values.map((value) => [value, found.get(value) ?? 0])) as Record<K, number>;
}

const sum = (counts: Record<string, number>) => Object.values(counts).reduce((total, count) => total + count, 0);

/** Playbooks by type and lessons by severity, counted by the database (every type and severity, zeros included). */
export async function knowledgeStats(services: Services): Promise<KnowledgeStats> {
  const db = services.prisma;
  const [types, severities] = await Promise.all([
    db.playbook.groupBy({ by: ['type'], _count: { _all: true } }),
    db.lessonLearned.groupBy({ by: ['severity'], _count: { _all: true } }),
  ]);
  const byType = countsOf(
    Object.values(PlaybookType),
    types.map((row) => ({ key: row.type, count: row._count._all })),
  );
  const bySeverity = countsOf(
    Object.values(Severity),
    severities.map((row) => ({ key: row.severity, count: row._count._all })),
  );
  return { playbooks: { total: sum(byType), byType }, lessons: { total: sum(bySeverity), bySeverity } };
}
