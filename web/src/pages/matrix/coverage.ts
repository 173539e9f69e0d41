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

/** Detection confidence bands (0–100, `detectionLifecycleDashboard`), low to high; a technique without assets or validations is 0. */
export const CONFIDENCE_BANDS = [
  { band: 0, label: 'Confidence 0–24', from: 0 },
  { band: 1, label: 'Confidence 25–49', from: 25 },
  { band: 2, label: 'Confidence 50–74', from: 50 },
  { band: 3, label: 'Confidence 75–100', from: 75 },
];

export const confidenceBand = (confidence: number) => CONFIDENCE_BANDS.findLast((entry) => confidence >= entry.from)?.band ?? 0;

export type Colouring = 'status' | 'score' | 'confidence';

export const colouringOf = (value: string | null): Colouring => (value === 'score' || value === 'confidence' ? value : 'status');

/** What the overlays add to cells, by ttp id: detection confidence, the chosen actor's techniques, snapshot changes. */
export interface Overlay {
  confidence?: ReadonlyMap<string, number>;
  actor?: { name: string; ttpIds: ReadonlySet<string> };
  changes?: ReadonlyMap<string, { before: CoverageStatus; after: CoverageStatus }>;
}

/** The CSS class of a cell's swatch in the chosen colouring. */
export function swatchClass(colouring: Colouring, cell: { ttpId: string; status: CoverageStatus; score: number }, overlay: Overlay) {
  if (colouring === 'status') return `swatch status-${cell.status}`;
  if (colouring === 'score') return `swatch score-${scoreBand(cell.score)}`;
  return `swatch confidence-${confidenceBand(overlay.confidence?.get(cell.ttpId) ?? 0)}`;
}
