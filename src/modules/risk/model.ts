import type { CoverageStatus } from '../../generated/prisma/enums.ts';

/**
 * The risk model, one table per term (docs/risk.md explains the choices):
 *   prevalence = ln(1 + actors) / ln(1 + most actors of any technique)   (0 when no technique has actors)
 *   impact     = tacticWeight × (IMPACT_FLOOR + (1 − IMPACT_FLOOR) × prevalence), rounded to 4 decimals
 *   likelihood = LIKELIHOOD[coverage status]
 *   score      = impact × likelihood × 100, rounded to 2 decimals
 */
export const RISK_MODEL_VERSION = 1;

/** Share of its tactic weight a technique keeps when no tracked actor uses it. */
export const IMPACT_FLOOR = 0.25;

/** Weight per ATT&CK tactic short name; a technique with several tactics takes the highest. */
export const TACTIC_WEIGHTS: Readonly<Record<string, number>> = {
  'initial-access': 1,
  execution: 1,
  'privilege-escalation': 1,
  'credential-access': 1,
  impact: 1,
  'lateral-movement': 0.9,
  exfiltration: 0.9,
  persistence: 0.8,
  'defense-evasion': 0.8,
  'command-and-control': 0.8,
  collection: 0.7,
  discovery: 0.5,
  reconnaissance: 0.4,
  'resource-development': 0.4,
};

/** Weight of a technique without tactics, or whose tactics are not in TACTIC_WEIGHTS. */
export const DEFAULT_TACTIC_WEIGHT = 0.6;

/** How likely an attack with the technique goes unnoticed, by coverage status. */
export const LIKELIHOOD: Readonly<Record<CoverageStatus, number>> = {
  not_covered: 0.9,
  not_evaluated: 0.8,
  in_progress: 0.6,
  partial: 0.4,
  validated: 0.1,
};

/** Statuses without any established detection: what GET /risk/top lists. */
export const UNCOVERED_STATUSES: readonly CoverageStatus[] = ['not_covered', 'not_evaluated', 'in_progress'];

/** Statuses worth testing next: what GET /risk/recommendations lists. */
export const RECOMMENDABLE_STATUSES: readonly CoverageStatus[] = ['not_covered', 'not_evaluated', 'in_progress', 'partial'];

export const RiskLevel = { critical: 'critical', high: 'high', medium: 'medium', low: 'low' } as const;
export type RiskLevel = (typeof RiskLevel)[keyof typeof RiskLevel];

/** Lower bounds (inclusive) on a 0–100 value, highest level first: used for scores and for impact × 100. */
export const LEVEL_THRESHOLDS: readonly { level: RiskLevel; min: number }[] = [
  { level: 'critical', min: 60 },
  { level: 'high', min: 40 },
  { level: 'medium', min: 20 },
  { level: 'low', min: 0 },
];

export const levelOf = (value: number): RiskLevel => LEVEL_THRESHOLDS.find(({ min }) => value >= min)?.level ?? 'low';

/** The terms stored in RiskProfile.details. */
export interface RiskTerms {
  model_version: number;
  status: CoverageStatus;
  actor_count: number;
  max_actor_count: number;
  prevalence: number;
  tactics: string[];
  weighted_tactic: string | null;
  tactic_weight: number;
  impact_floor: number;
  impact: number;
  likelihood: number;
  score: number;
}

const STATUS_PHRASES: Record<CoverageStatus, string> = {
  not_covered: 'tested and not detected',
  not_evaluated: 'not evaluated',
  in_progress: 'test in progress',
  partial: 'only partially detected',
  validated: 'validated',
};

/** Why a technique ranks where it does, in words: "used by 3 actors, execution tactic (weight 1), not evaluated". */
export function reasonOf(terms: Pick<RiskTerms, 'actor_count' | 'weighted_tactic' | 'tactic_weight' | 'status'>): string {
  const actors =
    terms.actor_count === 0 ? 'used by no tracked actor' : `used by ${terms.actor_count} actor${terms.actor_count === 1 ? '' : 's'}`;
  const tactic = `${terms.weighted_tactic ? `${terms.weighted_tactic} tactic` : 'no weighted tactic'} (weight ${terms.tactic_weight})`;
  return `${actors}, ${tactic}, ${STATUS_PHRASES[terms.status]}`;
}
