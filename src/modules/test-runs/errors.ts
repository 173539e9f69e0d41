import { DomainError, InvalidTransitionError } from '../../errors.ts';
import { type FieldNaming, keepNames } from '../../naming.ts';
import type { TestState } from '../../generated/prisma/enums.ts';
import { validTransitions, type Side, type Transition } from './state-machine.ts';

/** The INVALID_TRANSITION error for a row of the test transition table tried from another state. */
export const invalidTestTransition = (row: Transition, currentState: TestState, targetState: TestState) =>
  new InvalidTransitionError('test', row.path, currentState, targetState, validTransitions(currentState));

/** An edit or action the current state does not allow (e.g. blue fields outside blue_evaluating). */
export class NotAllowedInStateError extends DomainError {
  override readonly status = 400;

  constructor(
    override readonly code: 'EDIT_NOT_ALLOWED' | 'TIMER_NOT_ALLOWED' | 'RETEST_NOT_ALLOWED',
    what: string,
    currentState: TestState,
    allowedStates: readonly TestState[],
  ) {
    super(`${what} is allowed only in ${allowedStates.join(' or ')}; the test is in ${currentState}`);
    Object.assign(this.extra, { current_state: currentState, allowed_states: allowedStates });
  }
}

/** A lead decides a side that has already been decided in this review round. */
export class AlreadyValidatedError extends DomainError {
  override readonly status = 409;
  override readonly code = 'ALREADY_VALIDATED';

  constructor(side: Side, status: string) {
    super(`The ${side} side has already been ${status} in this review; reopen the test to decide again`);
    Object.assign(this.extra, { side, validation_status: status });
  }
}

/** A transition whose preconditions on the test's fields are not met. */
export class IncompleteTestError extends DomainError {
  override readonly status = 400;
  override readonly code = 'INCOMPLETE_TEST';

  constructor(
    readonly missing: readonly string[],
    readonly action: string,
  ) {
    super(`${missing.join(', ')} must be recorded before ${action}`);
    Object.assign(this.extra, { missing_fields: missing });
  }

  override restBody(naming: FieldNaming = keepNames): Record<string, unknown> {
    const missing = this.missing.map(naming);
    return { detail: `${missing.join(', ')} must be recorded before ${this.action}`, code: this.code, missing_fields: missing };
  }
}
