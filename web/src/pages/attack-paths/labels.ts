import type { AttackPathExecutionStatus, AttackStepExpectation, AttackStepOutcome } from '../../gql/graphql.ts';

export const EXPECTATION_LABELS: Record<AttackStepExpectation, string> = {
  detected: 'Detected',
  blocked: 'Blocked',
  not_detected: 'Not detected (known gap)',
};

export const OUTCOME_LABELS: Record<AttackStepOutcome, string> = {
  detected: 'Detected',
  blocked: 'Blocked',
  not_detected: 'Not detected',
  succeeded: 'Succeeded unnoticed',
  skipped: 'Skipped',
};

export const EXECUTION_STATUS_LABELS: Record<AttackPathExecutionStatus, string> = {
  pending: 'Pending',
  running: 'Running',
  completed: 'Completed',
  aborted: 'Aborted',
};

/** The buttons of the transition actions the API names in `myActions`. */
export const EXECUTION_ACTION_LABELS: Record<string, string> = { start: 'Start', complete: 'Complete', abort: 'Abort' };
