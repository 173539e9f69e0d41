import type { CoverageStatus } from '../../generated/prisma/enums.ts';

/** Technique counts of a snapshot by coverage status, as stored in `snapshots.summary`. */
export interface SnapshotSummary {
  total: number;
  validated: number;
  partial: number;
  in_progress: number;
  not_covered: number;
  not_evaluated: number;
}

/**
 * Coverage order used to compare two snapshots: a move to the right is an improvement, to the left a
 * regression.
 */
export const STATUS_ORDER: readonly CoverageStatus[] = ['not_evaluated', 'not_covered', 'in_progress', 'partial', 'validated'];

export const SNAPSHOT_KINDS = ['manual', 'daily', 'posture'] as const;
export type SnapshotKind = (typeof SNAPSHOT_KINDS)[number];

const count = (value: unknown) => (typeof value === 'number' && Number.isFinite(value) ? value : 0);

/** The stored summary JSON read back with every count present (0 when missing). */
export function summaryOf(json: unknown): SnapshotSummary {
  const stored = json && typeof json === 'object' ? (json as Record<string, unknown>) : {};
  return {
    total: count(stored.total),
    validated: count(stored.validated),
    partial: count(stored.partial),
    in_progress: count(stored.in_progress),
    not_covered: count(stored.not_covered),
    not_evaluated: count(stored.not_evaluated),
  };
}

export const round2 = (value: number) => Math.round(value * 100) / 100;

/** The flat counts of a summary in GraphQL's camelCase. */
export function countsOf(json: unknown) {
  const summary = summaryOf(json);
  return {
    total: summary.total,
    validated: summary.validated,
    partial: summary.partial,
    inProgress: summary.in_progress,
    notCovered: summary.not_covered,
    notEvaluated: summary.not_evaluated,
  };
}
