import { DomainError } from '../../errors.ts';

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
