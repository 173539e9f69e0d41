import type { CoverageStatus } from '../../gql/graphql.ts';

/** How the matrix shows each coverage status: a colour, a pattern and a glyph, never the colour alone. */
export const STATUSES: { status: CoverageStatus; label: string; glyph: string }[] = [
  { status: 'validated', label: 'Validated', glyph: '✓' },
  { status: 'partial', label: 'Partial', glyph: '◐' },
  { status: 'in_progress', label: 'In progress', glyph: '…' },
  { status: 'not_covered', label: 'Not covered', glyph: '✗' },
  { status: 'not_evaluated', label: 'Not evaluated', glyph: '–' },
];

export const statusOf = (status: CoverageStatus) => STATUSES.find((entry) => entry.status === status) ?? STATUSES[4];

/** Score bands of the score colouring, low to high. */
export const SCORE_BANDS = [
  { band: 0, label: 'Score 0–24', from: 0 },
  { band: 1, label: 'Score 25–49', from: 25 },
  { band: 2, label: 'Score 50–74', from: 50 },
  { band: 3, label: 'Score 75–100', from: 75 },
];

export const scoreBand = (score: number) => SCORE_BANDS.findLast((entry) => score >= entry.from)?.band ?? 0;

export type Colouring = 'status' | 'score';

/** The CSS class of a cell's swatch in the chosen colouring. */
export const swatchClass = (colouring: Colouring, status: CoverageStatus, score: number) =>
  colouring === 'status' ? `swatch status-${status}` : `swatch score-${scoreBand(score)}`;
