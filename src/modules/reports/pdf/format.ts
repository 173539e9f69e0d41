import type { CoverageFigures, TacticRow, TestFigures } from '../documents/shared.ts';
import type { Bar, Column } from './canvas.ts';

export const percent = (value: number | null | undefined) => (value == null ? 'n/a' : `${value.toFixed(1)}%`);
export const day = (iso: string | null | undefined) => (iso ? iso.slice(0, 10) : '-');
export const count = (value: number) => value.toLocaleString('en-US');
/** not_covered → Not covered */
export const words = (value: string | null | undefined) =>
  value ? value.charAt(0).toUpperCase() + value.slice(1).replace(/_/g, ' ') : '-';

export const STATUS_COLORS: Record<string, string> = {
  validated: '#15803d',
  partial: '#ca8a04',
  not_covered: '#b91c1c',
  in_progress: '#2563eb',
  not_evaluated: '#9ca3af',
};

export const RESULT_COLORS: Record<string, string> = { detected: '#15803d', partially_detected: '#ca8a04', not_detected: '#b91c1c' };

export const STATE_COLORS: Record<string, string> = {
  draft: '#9ca3af',
  red_executing: '#dc2626',
  blue_evaluating: '#2563eb',
  in_review: '#7c3aed',
  rejected: '#b45309',
  validated: '#15803d',
};

export const coverageFigureBoxes = (coverage: CoverageFigures) => [
  { label: 'Coverage', value: percent(coverage.coverage_percentage) },
  { label: 'Techniques', value: count(coverage.total_techniques) },
  { label: 'Validated', value: count(coverage.validated) },
  { label: 'Partial', value: count(coverage.partial) },
  { label: 'Not covered', value: count(coverage.not_covered) },
  { label: 'In progress', value: count(coverage.in_progress) },
  { label: 'Not evaluated', value: count(coverage.not_evaluated) },
];

export const statusBars = (coverage: CoverageFigures): Bar[] =>
  (['validated', 'partial', 'not_covered', 'in_progress', 'not_evaluated'] as const).map((status) => ({
    label: words(status),
    value: coverage[status],
    color: STATUS_COLORS[status],
  }));

export const tacticBars = (rows: TacticRow[]): Bar[] =>
  rows.filter((row) => row.total > 0).map((row) => ({ label: row.tactic, value: row.coverage_percentage }));

export const TACTIC_COLUMNS: Column[] = [
  { header: 'Tactic', width: 3 },
  { header: 'Techniques', width: 1.4, align: 'right' },
  { header: 'Validated', width: 1.3, align: 'right' },
  { header: 'Partial', width: 1.1, align: 'right' },
  { header: 'Not covered', width: 1.4, align: 'right' },
  { header: 'In progress', width: 1.4, align: 'right' },
  { header: 'Not evaluated', width: 1.5, align: 'right' },
  { header: 'Coverage', width: 1.3, align: 'right' },
];

export const tacticCells = (rows: TacticRow[]) =>
  rows.map((row) => [
    row.tactic,
    count(row.total),
    count(row.validated),
    count(row.partial),
    count(row.not_covered),
    count(row.in_progress),
    count(row.not_evaluated),
    percent(row.coverage_percentage),
  ]);

export const testFigureBoxes = (figures: TestFigures) => [
  { label: 'Tests', value: count(figures.total) },
  { label: 'Validated', value: count(figures.by_state.validated) },
  { label: 'Rejected', value: count(figures.by_state.rejected) },
  { label: 'Detection rate', value: percent(figures.detection_rate) },
  { label: 'Detected', value: count(figures.detected) },
  { label: 'Partially detected', value: count(figures.partially_detected) },
  { label: 'Not detected', value: count(figures.not_detected) },
];

export const stateBars = (figures: TestFigures): Bar[] =>
  (Object.keys(STATE_COLORS) as (keyof TestFigures['by_state'])[]).map((state) => ({
    label: words(state),
    value: figures.by_state[state],
    color: STATE_COLORS[state],
  }));

export const resultBars = (figures: { detected: number; partially_detected: number; not_detected: number }): Bar[] =>
  (['detected', 'partially_detected', 'not_detected'] as const).map((result) => ({
    label: words(result),
    value: figures[result],
    color: RESULT_COLORS[result],
  }));
