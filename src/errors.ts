import { type FieldNaming, keepNames } from './naming.ts';

/**
 * Domain errors: a stable `code`, an HTTP status and a client-safe message. GraphQL carries them in
 * `extensions`; REST answers `{ detail, code }` with the status. Anything else is an internal error.
 */
export class DomainError extends Error {
  readonly status: number = 400;
  readonly code: string = 'BAD_REQUEST';
  /** Extra fields merged into REST bodies and GraphQL extensions. */
  readonly extra: Record<string, unknown> = {};

  /**
   * The REST error body: the spec's `{ detail, code }` plus any extra fields. Errors that name fields (by their
   * GraphQL names) name them through `naming`, which the REST edge supplies.
   */
  restBody(_naming: FieldNaming = keepNames): Record<string, unknown> {
    return { detail: this.message, code: this.code, ...this.extra };
  }
}

export class ValidationError extends DomainError {
  override readonly status = 400;
  override readonly code = 'VALIDATION_ERROR';
  /** `field`: the GraphQL (camelCase) path of the offending input, or null when the request as a whole is wrong. */
  constructor(
    readonly field: string | null,
    readonly reason: string,
  ) {
    super(field ? `${field}: ${reason}` : reason);
    this.extra.field = field;
  }

  override restBody(naming: FieldNaming = keepNames): Record<string, unknown> {
    const field = this.field === null ? null : naming(this.field);
    return { detail: field ? `${field}: ${this.reason}` : this.reason, code: this.code, field };
  }
}

export class UnauthenticatedError extends DomainError {
  override readonly status = 401;
  override readonly code: string = 'NOT_AUTHENTICATED';
  constructor(message = 'Authentication required') {
    super(message);
  }
}

export class InvalidCredentialsError extends UnauthenticatedError {
  override readonly code = 'INVALID_CREDENTIALS';
  constructor() {
    super('Incorrect username or password');
  }
}

export class TooManyAttemptsError extends DomainError {
  override readonly status = 429;
  override readonly code = 'TOO_MANY_ATTEMPTS';
  constructor(readonly retryAfterSeconds: number) {
    super(`Too many failed attempts; try again in ${retryAfterSeconds} seconds`);
    this.extra.retry_after = retryAfterSeconds;
  }
}

/**
 * The service cannot take the request now (database pool exhausted, queue unreachable): answered 503 with
 * `Retry-After`, so clients back off instead of seeing an internal error.
 */
export class ServiceUnavailableError extends DomainError {
  override readonly status = 503;
  override readonly code: string;
  /** Read by GraphQL (graphql-js copies it, Apollo turns `http` into the response status and headers). */
  readonly extensions: Record<string, unknown>;
  constructor(
    message: string,
    readonly retryAfterSeconds = 2,
    code = 'SERVICE_BUSY',
  ) {
    super(message);
    this.code = code;
    this.extra.retry_after = retryAfterSeconds;
    this.extensions = { http: { status: 503, headers: new Map([['retry-after', String(retryAfterSeconds)]]) } };
  }
}

export class ForbiddenError extends DomainError {
  override readonly status = 403;
  override readonly code: string = 'FORBIDDEN';
  constructor(message = 'You do not have permission to perform this action') {
    super(message);
  }
}

export class PasswordChangeRequiredError extends ForbiddenError {
  override readonly code = 'PASSWORD_CHANGE_REQUIRED';
  constructor() {
    super('You must change your password before doing anything else (POST /api/v1/auth/change-password)');
  }
}

export class ApiKeyScopeError extends ForbiddenError {
  override readonly code = 'API_KEY_SCOPE';
  constructor(message: string) {
    super(message);
  }
}

export class NotFoundError extends DomainError {
  override readonly status = 404;
  override readonly code = 'NOT_FOUND';
  constructor(entity: string, key?: string) {
    super(key ? `${entity} ${key} not found` : `${entity} not found`);
  }
}

export class ConflictError extends DomainError {
  override readonly status = 409;
  override readonly code = 'CONFLICT';
}

/** A 4xx decided outside the domain (malformed body, oversized request). */
export class RequestError extends DomainError {
  constructor(
    override readonly status: number,
    override readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

/**
 * A transition a state machine does not allow from the current state: the spec's INVALID_TRANSITION (status
 * 400), whose REST `detail` is an object naming the current and target states and the valid transitions.
 */
export class InvalidTransitionError extends DomainError {
  override readonly status = 400;
  override readonly code = 'INVALID_TRANSITION';

  constructor(what: string, action: string, currentState: string, targetState: string, valid: readonly string[]) {
    super(
      `Invalid transition: ${action} cannot move ${/^[aeiou]/i.test(what) ? 'an' : 'a'} ${what} from ${currentState} to ${targetState}. ` +
        `Valid transitions from ${currentState}: ${valid.length ? valid.join(', ') : 'none'}`,
    );
    Object.assign(this.extra, { current_state: currentState, target_state: targetState, valid_transitions: [...valid] });
  }

  override restBody(): Record<string, unknown> {
    return { detail: { message: this.message, code: this.code, ...this.extra }, code: this.code };
  }
}
