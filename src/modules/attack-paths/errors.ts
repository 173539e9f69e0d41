import { DomainError, InvalidTransitionError } from '../../errors.ts';
import type { AttackPathExecutionStatus } from '../../generated/prisma/enums.ts';
import { validExecutionTransitions, type ExecutionTransition } from './state-machine.ts';

/** The INVALID_TRANSITION error for a row of the execution transition table tried from another status. */
export const invalidExecutionTransition = (row: ExecutionTransition, current: AttackPathExecutionStatus) =>
  new InvalidTransitionError('attack path execution', row.path, current, row.to, validExecutionTransitions(current));

/** An action the execution's status does not allow (recording an outcome outside running, tests of an aborted run). */
export class ExecutionNotAllowedError extends DomainError {
  override readonly status = 400;
  override readonly code = 'EDIT_NOT_ALLOWED';

  constructor(what: string, current: AttackPathExecutionStatus, allowed: readonly AttackPathExecutionStatus[]) {
    super(`${what} is allowed only in ${allowed.join(' or ')}; the execution is ${current}`);
    Object.assign(this.extra, { current_state: current, allowed_states: allowed });
  }
}

/** An execution of a path without steps would record nothing. */
export class EmptyAttackPathError extends DomainError {
  override readonly status = 400;
  override readonly code = 'EMPTY_ATTACK_PATH';

  constructor() {
    super('The attack path has no steps: add at least one before executing it');
  }
}

/** A path already holds the most steps one path may have. */
export class TooManyStepsError extends DomainError {
  override readonly status = 400;
  override readonly code = 'TOO_MANY_STEPS';

  constructor(max: number) {
    super(`An attack path has at most ${max} steps`);
    Object.assign(this.extra, { max_steps: max });
  }
}
