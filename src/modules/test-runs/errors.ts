import { DomainError } from '../../errors.ts';
import { type FieldNaming, keepNames } from '../../naming.ts';
import type { Side } from './state-machine.ts';

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
