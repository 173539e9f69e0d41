import type { Role } from '../../auth/roles.ts';
import type { Team, TestState } from '../../generated/prisma/enums.ts';
import type { NotificationEvent } from '../notifications/preferences.ts';

export type EditKind = 'general' | 'red' | 'blue' | 'remediation' | 'classification';

/** Who hears of a test entering a state (the spec's in-app notification table). */
export interface EntryNotice {
  event: NotificationEvent;
  recipients: 'creator' | readonly Role[];
  title: string;
  /** Completes `Test "<name>" (<ttp>) …`. */
  message: string;
}

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
  entry: EntryNotice | null;
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
    entry: null,
  },
  red_executing: {
    turn: 'red',
    timed: true,
    edits: ['red', 'classification'],
    evidence: ['red'],
    evaluable: false,
    decided: false,
    entry: { event: 'test_execution_started', recipients: 'creator', title: 'Test execution started', message: 'is being executed' },
  },
  blue_evaluating: {
    turn: 'blue',
    timed: true,
    edits: ['blue', 'classification'],
    evidence: ['red', 'blue'],
    evaluable: true,
    decided: false,
    entry: {
      event: 'test_ready_for_blue',
      recipients: ['blue_tech'],
      title: 'Test ready for blue-team evaluation',
      message: 'awaits blue-team evaluation',
    },
  },
  in_review: {
    turn: 'leads',
    timed: false,
    edits: ['remediation', 'classification'],
    evidence: ['red', 'blue'],
    evaluable: true,
    decided: false,
    entry: {
      event: 'test_ready_for_review',
      recipients: ['red_lead', 'blue_lead'],
      title: 'Test ready for review',
      message: 'awaits red and blue lead validation',
    },
  },
  rejected: {
    turn: null,
    timed: false,
    edits: ['general', 'remediation', 'classification'],
    evidence: ['red', 'blue'],
    evaluable: true,
    decided: true,
    entry: { event: 'test_rejected', recipients: 'creator', title: 'Test rejected', message: 'was rejected' },
  },
  validated: {
    turn: null,
    timed: false,
    edits: ['remediation', 'classification'],
    evidence: [],
    evaluable: true,
    decided: true,
    entry: { event: 'test_validated', recipients: 'creator', title: 'Test validated', message: 'was validated' },
  },
};

export const TEST_STATES = Object.keys(STATES) as readonly TestState[];

/** The states, in lifecycle order, whose rule passes `test`. */
export const statesWhere = (test: (rule: StateRule, state: TestState) => boolean): readonly TestState[] =>
  TEST_STATES.filter((state) => test(STATES[state], state));

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
