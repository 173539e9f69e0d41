import { DomainError } from '../../errors.ts';
import type { TestState } from '../../generated/prisma/enums.ts';
import { validTransitions, type Side, type Transition } from './state-machine.ts';

/** A transition the table does not allow from the current state (the spec's INVALID_TRANSITION, status 400). */
export class InvalidTransitionError extends DomainError {
  override readonly status = 400;
  override readonly code = 'INVALID_TRANSITION';

  constructor(
    readonly row: Transition,
    readonly currentState: TestState,
    readonly targetState: TestState,
  ) {
    const valid = validTransitions(currentState);
    super(
      `Invalid transition: ${row.path} cannot move a test from ${currentState} to ${targetState}. ` +
        `Valid transitions from ${currentState}: ${valid.length ? valid.join(', ') : 'none'}`,
    );
    Object.assign(this.extra, { current_state: currentState, target_state: targetState, valid_transitions: valid });
  }

  /** The spec's transition error: `detail` is an object repeating the code next to the states. */
  override restBody(): Record<string, unknown> {
    return { detail: { message: this.message, code: this.code, ...this.extra }, code: this.code };
  }
}

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

  constructor(message: string, missing: string[]) {
    super(message);
    Object.assign(this.extra, { missing_fields: missing });
  }
}
