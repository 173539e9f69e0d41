import { Roles, type Role } from '../../auth/roles.ts';
import type { TestState, ValidationStatus } from '../../generated/prisma/enums.ts';
import { defineLifecycle, type TransitionRow } from '../../lifecycle/kit.ts';
import { STATES } from './states.ts';

export { EDIT_RULES, RETEST_FROM, TEST_STATES, TIMED_STATES, type EditKind } from './states.ts';

export type TestAction =
  | 'start_execution'
  | 'submit_red'
  | 'submit_blue'
  | 'validate_red'
  | 'validate_blue'
  | 'validate'
  | 'reject'
  | 'reopen';

export type Side = 'red' | 'blue';

/** The body a transition takes, which also names its GraphQL input type. */
export type TransitionInput = 'redValidation' | 'blueValidation' | 'legacyValidation' | 'legacyRejection';

/** What a row does besides changing the state. */
export interface TransitionEffects {
  /** Timestamp column set to the moment of the transition. */
  stamp?: 'executionDate' | 'redSubmittedAt' | 'blueSubmittedAt';
  /** Fields that must be filled before the transition is allowed. */
  requires?: readonly 'detectionResult'[];
  /** Records a lead's decision for one side, or for the caller's own side(s) ('own': admin decides both). */
  validates?: Side | 'own';
  /** Fixed decision of the legacy endpoints; otherwise the body carries it. */
  decision?: ValidationStatus;
  /** Clears every validation field (reopen). */
  clearsValidation?: boolean;
}

export interface Transition extends TransitionRow<TestState, TestAction> {
  action: TestAction;
  /** REST: POST /tests/{id}/<path>. */
  path: string;
  /** GraphQL mutation name. */
  mutation: string;
  from: TestState;
  /** Every state the action can lead to; the first is its nominal target. Validations pick by the dual validation rule. */
  to: readonly TestState[];
  /** The spec's "Who" column. */
  roles: readonly Role[];
  input?: TransitionInput;
  /** Audit action name. */
  audit: string;
  summary: string;
  effects: TransitionEffects;
  /** Earlier lifecycle endpoints kept for compatibility, mapped onto the same machine. */
  legacy?: boolean;
}

/** The one transition table: routes, mutations, errors, tests and docs all read it. */
export const TRANSITIONS: readonly Transition[] = [
  {
    action: 'start_execution',
    path: 'start-execution',
    mutation: 'startTestExecution',
    from: 'draft',
    to: ['red_executing'],
    roles: Roles.red,
    audit: 'start_test_execution',
    summary: 'Start execution: draft → red_executing; sets execution_date, starts the timer, notifies the creator',
    effects: { stamp: 'executionDate' },
  },
  {
    action: 'submit_red',
    path: 'submit-red',
    mutation: 'submitTestRed',
    from: 'red_executing',
    to: ['blue_evaluating'],
    roles: Roles.red,
    audit: 'submit_test_red',
    summary: 'Submit the red side: red_executing → blue_evaluating; notifies every blue technician',
    effects: { stamp: 'redSubmittedAt' },
  },
  {
    action: 'submit_blue',
    path: 'submit-blue',
    mutation: 'submitTestBlue',
    from: 'blue_evaluating',
    to: ['in_review'],
    roles: Roles.blue,
    audit: 'submit_test_blue',
    summary: 'Submit the blue side (detection_result required): blue_evaluating → in_review; stops the timer, notifies the leads',
    effects: { stamp: 'blueSubmittedAt', requires: ['detectionResult'] },
  },
  {
    action: 'validate_red',
    path: 'validate-red',
    mutation: 'validateTestRed',
    from: 'in_review',
    to: ['validated', 'rejected', 'in_review'],
    roles: Roles.redLead,
    input: 'redValidation',
    audit: 'validate_test_red',
    summary:
      'Red lead decision (red_validation_status approved or rejected, red_validation_notes); the dual validation rule decides the state',
    effects: { validates: 'red' },
  },
  {
    action: 'validate_blue',
    path: 'validate-blue',
    mutation: 'validateTestBlue',
    from: 'in_review',
    to: ['validated', 'rejected', 'in_review'],
    roles: Roles.blueLead,
    input: 'blueValidation',
    audit: 'validate_test_blue',
    summary:
      'Blue lead decision (blue_validation_status approved or rejected, blue_validation_notes); the dual validation rule decides the state',
    effects: { validates: 'blue' },
  },
  {
    action: 'validate',
    path: 'validate',
    mutation: 'validateTest',
    from: 'in_review',
    to: ['validated', 'in_review'],
    roles: Roles.leads,
    input: 'legacyValidation',
    audit: 'validate_test',
    summary: "Earlier endpoint: the caller's lead side approves (admin: every pending side); result is recorded as detection_result",
    effects: { validates: 'own', decision: 'approved' },
    legacy: true,
  },
  {
    action: 'reject',
    path: 'reject',
    mutation: 'rejectTest',
    from: 'in_review',
    to: ['rejected'],
    roles: Roles.leads,
    input: 'legacyRejection',
    audit: 'reject_test',
    summary: "Earlier endpoint: the caller's lead side rejects (admin: every pending side): in_review → rejected",
    effects: { validates: 'own', decision: 'rejected' },
    legacy: true,
  },
  {
    action: 'reopen',
    path: 'reopen',
    mutation: 'reopenTest',
    from: 'rejected',
    to: ['draft'],
    roles: Roles.leads,
    audit: 'reopen_test',
    summary: 'Reopen a rejected test: rejected → draft; clears every validation field',
    effects: { clearsValidation: true },
  },
];

/** The test lifecycle: the state table (states.ts), this transition table, and what derives from them. */
export const testLifecycle = defineLifecycle({
  noun: 'test',
  inState: (state: TestState) => `the test is in ${state}`,
  states: STATES,
  transitions: TRANSITIONS,
});

/** The state an action aims at: a rejection aims at rejected, every other validation at validated. */
export function targetOf(row: Transition, decision?: ValidationStatus | null): TestState {
  const wanted = decision ?? row.effects.decision;
  if (row.effects.validates && wanted === 'rejected') return 'rejected';
  return row.to[0];
}

/**
 * The dual validation rule: any rejection rejects the test; approval by both sides validates it;
 * otherwise it stays in review, waiting for the other side.
 */
export function dualValidationOutcome(red: ValidationStatus | null, blue: ValidationStatus | null): TestState {
  if (red === 'rejected' || blue === 'rejected') return 'rejected';
  if (red === 'approved' && blue === 'approved') return 'validated';
  return 'in_review';
}

/** The sides a lead decides for: their own, or every side for an admin. */
export function sidesOf(role: Role): Side[] {
  if (role === 'red_lead') return ['red'];
  if (role === 'blue_lead') return ['blue'];
  return role === 'admin' ? ['red', 'blue'] : [];
}
