import { statesOf, statesWhere as where } from '../../lifecycle/kit.ts';
import type { Team, TestState } from '../../generated/prisma/enums.ts';

export type EditKind = 'general' | 'red' | 'blue' | 'remediation' | 'classification';

/** Every rule that depends on the state a test is in. */
export interface StateRule {
  /** Whose move it is: a team works on the test, the leads decide it, or nobody (decided). */
  turn: Team | 'leads' | null;
  /** The timer runs while the test is in this state. */
  timed: boolean;
  /** Which groups of fields may be edited. */
  edits: readonly EditKind[];
  /** Which teams may add evidence. */
  evidence: readonly Team[];
  /** Detection rules may be evaluated against the test (the blue side has started). */
  evaluable: boolean;
  /** A decision (validated or rejected): stamps decided_at and allows a retest. */
  decided: boolean;
}

/**
 * The one table of test states, in lifecycle order, beside the transition table (state-machine.ts). Adding a
 * state: a row here, the Prisma enum value and its migration; the SQL triggers are held to this table by a test.
 */
export const STATES: Readonly<Record<TestState, StateRule>> = {
  draft: {
    turn: 'red',
    timed: false,
    edits: ['general', 'red', 'classification'],
    evidence: [],
    evaluable: false,
    decided: false,
  },
  red_executing: {
    turn: 'red',
    timed: true,
    edits: ['red', 'classification'],
    evidence: ['red'],
    evaluable: false,
    decided: false,
  },
  blue_evaluating: {
    turn: 'blue',
    timed: true,
    edits: ['blue', 'classification'],
    evidence: ['red', 'blue'],
    evaluable: true,
    decided: false,
  },
  in_review: {
    turn: 'leads',
    timed: false,
    edits: ['remediation', 'classification'],
    evidence: ['red', 'blue'],
    evaluable: true,
    decided: false,
  },
  rejected: {
    turn: null,
    timed: false,
    edits: ['general', 'remediation', 'classification'],
    evidence: ['red', 'blue'],
    evaluable: true,
    decided: true,
  },
  validated: {
    turn: null,
    timed: false,
    edits: ['remediation', 'classification'],
    evidence: [],
    evaluable: true,
    decided: true,
  },
};

export const TEST_STATES = statesOf(STATES);

/** The states, in lifecycle order, whose rule passes `test`. */
const statesWhere = (test: (rule: StateRule, state: TestState) => boolean): readonly TestState[] => where(STATES, test);

/** The timer runs while someone works on the test: it starts entering these states and stops leaving them. */
export const TIMED_STATES = statesWhere((rule) => rule.timed);

/** A retest re-runs a decided test. */
export const RETEST_FROM = statesWhere((rule) => rule.decided);

export const UNDECIDED_STATES = statesWhere((rule) => !rule.decided);

/** Test states in which each team may add evidence: from its own phase on, never once validated. */
export const UPLOAD_STATES: Readonly<Record<Team, readonly TestState[]>> = {
  red: statesWhere((rule) => rule.evidence.includes('red')),
  blue: statesWhere((rule) => rule.evidence.includes('blue')),
};

export const EVALUABLE_STATES = statesWhere((rule) => rule.evaluable);

/** States in which each team's part is still to do, or done (a decided test has both parts done). */
export const TEAM_STATES = {
  redPending: statesWhere((rule) => rule.turn === 'red'),
  redCompleted: statesWhere((rule) => rule.turn !== 'red'),
  bluePending: statesWhere((rule) => rule.turn === 'blue'),
  blueCompleted: statesWhere((rule) => rule.turn === 'leads' || rule.turn === null),
} as const;

const EDITS: Record<EditKind, { what: string; kind: string; audit: string }> = {
  general: { what: 'The general update', kind: 'updated', audit: 'update_test' },
  red: { what: 'The red-side update', kind: 'red_updated', audit: 'update_test_red' },
  blue: { what: 'The blue-side update', kind: 'blue_updated', audit: 'update_test_blue' },
  remediation: { what: 'The remediation update', kind: 'remediation_updated', audit: 'update_test_remediation' },
  classification: { what: 'Classification', kind: 'classification_changed', audit: 'classify_test' },
};

/** Which fields may be edited in which states (the spec's edit rules), with how each edit is recorded. */
export const EDIT_RULES = Object.fromEntries(
  Object.entries(EDITS).map(([kind, rule]) => [kind, { ...rule, states: statesWhere((state) => state.edits.includes(kind as EditKind)) }]),
) as Record<EditKind, { states: readonly TestState[]; what: string; kind: string; audit: string }>;
