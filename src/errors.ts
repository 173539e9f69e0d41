import { type FieldNaming, keepNames } from './naming.ts';

/**
 * Which REST operations can answer a code: every one (`request`), those for signed-in callers (`signed-in`), those
 * that write (`write`, and `cross-site` unless the row allows other sites), those with parameters (which may name
 * a record) or writing (`record`), writes by their domain rules (`domain`), GraphQL rows (`graphql-row`), the rows that list it
 * (`row`); `graphql` codes come only from /graphql, `server` ones are 5xx.
 */
export type ErrorScope =
  | 'request'
  | 'signed-in'
  | 'write'
  | 'cross-site'
  | 'record'
  | 'domain'
  | 'graphql-row'
  | 'row'
  | 'graphql'
  | 'server';

/**
 * Every error code a client can receive, with its HTTP status and meaning: the one catalogue the error classes
 * (whose `code` must be one of these), the REST error handler and the OpenAPI document all read.
 */
export const ERROR_CODES = {
  BAD_REQUEST: {
    status: 400,
    applies: 'write',
    description: 'The request is malformed (a body that is not valid JSON, an aborted upload)',
  },
  VALIDATION_ERROR: {
    status: 400,
    applies: 'request',
    description: 'A parameter or body field is missing, of the wrong type or out of range (`field` names it)',
  },
  INVALID_TRANSITION: {
    status: 400,
    applies: 'domain',
    description: 'The lifecycle does not allow this transition from the current state',
  },
  EDIT_NOT_ALLOWED: { status: 400, applies: 'domain', description: 'The record cannot be changed in its current state' },
  TIMER_NOT_ALLOWED: { status: 400, applies: 'domain', description: 'The test state has no timer to start or stop' },
  RETEST_NOT_ALLOWED: { status: 400, applies: 'domain', description: 'The test cannot be retested in its current state' },
  INCOMPLETE_TEST: { status: 400, applies: 'domain', description: 'Fields must be recorded before this transition (`missing_fields`)' },
  TEST_NOT_EVALUABLE: { status: 400, applies: 'domain', description: 'The test has no telemetry to evaluate rules against' },
  SELF_LOCKOUT: { status: 400, applies: 'domain', description: 'Administrators cannot deactivate or demote themselves' },
  EMPTY_ATTACK_PATH: { status: 400, applies: 'domain', description: 'An attack path needs at least one step' },
  TOO_MANY_STEPS: { status: 400, applies: 'domain', description: 'An attack path has more steps than allowed' },
  NO_EXECUTED_TESTS: { status: 400, applies: 'domain', description: 'The campaign has no executed test yet' },
  DESTINATION_NOT_ALLOWED: { status: 400, applies: 'domain', description: 'The outgoing address is refused by the outgoing-request guard' },
  NO_REMEDIATION: { status: 400, applies: 'domain', description: 'The test has no remediation to track (its result is not a gap)' },
  QUERY_TOO_COMPLEX: { status: 400, applies: 'graphql', description: 'The GraphQL operation costs more than allowed' },
  QUERY_TOO_DEEP: { status: 400, applies: 'graphql', description: 'The GraphQL operation is nested too deeply' },
  TOO_MANY_ALIASES: { status: 400, applies: 'graphql', description: 'The GraphQL operation has too many aliases' },
  QUERY_TOO_LARGE: { status: 400, applies: 'graphql', description: 'The GraphQL document is too large (413 for an oversized body)' },
  NOT_AUTHENTICATED: { status: 401, applies: 'signed-in', description: 'No valid session token, cookie or API key' },
  INVALID_CREDENTIALS: { status: 401, applies: 'row', description: 'Incorrect username or password' },
  TRACKER_SIGNATURE_INVALID: { status: 401, applies: 'row', description: "The tracker webhook's signature is missing or wrong" },
  SSO_FAILED: { status: 401, applies: 'row', description: 'The identity provider did not sign the user in' },
  FORBIDDEN: { status: 403, applies: 'signed-in', description: "The caller's role or record access does not allow this" },
  PASSWORD_CHANGE_REQUIRED: { status: 403, applies: 'signed-in', description: 'The password must be changed before anything else' },
  API_KEY_SCOPE: { status: 403, applies: 'signed-in', description: "The API key's scope does not allow this" },
  CSRF_REJECTED: { status: 403, applies: 'cross-site', description: 'A state-changing request from another site' },
  INTROSPECTION_DISABLED: { status: 403, applies: 'graphql', description: 'Schema introspection is disabled (401 when not signed in)' },
  NOT_FOUND: { status: 404, applies: 'record', description: 'No such record (or route)' },
  CONFLICT: { status: 409, applies: 'write', description: 'A unique value is taken, or the record changed concurrently' },
  ALREADY_VALIDATED: { status: 409, applies: 'domain', description: 'This side has already been decided in this review' },
  LAST_ADMIN: { status: 409, applies: 'domain', description: 'The last active administrator cannot be removed' },
  SYNC_IN_PROGRESS: { status: 409, applies: 'domain', description: 'A sync of this source is already running' },
  EMAIL_NOT_CONFIGURED: { status: 409, applies: 'domain', description: 'E-mail delivery is not configured' },
  INVALID_STATE: { status: 409, applies: 'domain', description: "The record's state does not allow this" },
  SSO_DISABLED: { status: 409, applies: 'domain', description: 'Single sign-on is not enabled' },
  SSO_ACCOUNT_EXISTS: { status: 409, applies: 'domain', description: 'A local account already holds this identity' },
  SSO_LINK_REFUSED: { status: 409, applies: 'domain', description: 'The identity cannot be linked to this account' },
  TEST_IN_OTHER_CAMPAIGN: { status: 409, applies: 'domain', description: 'The test already belongs to another campaign' },
  TRACKER_NOT_CONFIGURED: { status: 409, applies: 'domain', description: 'No active issue-tracker connection to file the issue with' },
  PAYLOAD_TOO_LARGE: { status: 413, applies: 'write', description: 'The body or file is larger than allowed' },
  UNSUPPORTED_MEDIA_TYPE: { status: 415, applies: 'write', description: 'The body is not of the media type the operation reads' },
  ANSWER_TOO_LARGE: { status: 422, applies: 'graphql-row', description: 'The answer would be larger than allowed: ask for smaller pages' },
  TOO_MANY_ATTEMPTS: { status: 429, applies: 'row', description: 'Too many failed sign-in attempts (`retry_after`)' },
  RATE_LIMITED: { status: 429, applies: 'request', description: "The caller's request budget is spent for this window" },
  TOO_MANY_SUBSCRIPTIONS: { status: 429, applies: 'graphql', description: 'Too many live GraphQL subscriptions' },
  INTERNAL_SERVER_ERROR: { status: 500, applies: 'server', description: 'An unexpected error (logged with the request id)' },
  EVIDENCE_INTEGRITY: { status: 500, applies: 'server', description: 'Stored evidence no longer matches its recorded hash' },
  SOURCE_UNAVAILABLE: { status: 502, applies: 'server', description: 'A knowledge source could not be read' },
  SERVICE_BUSY: { status: 503, applies: 'server', description: 'The database is too busy; retry after `Retry-After`' },
  QUEUE_UNAVAILABLE: { status: 503, applies: 'server', description: 'The job queue is unreachable; retry after `Retry-After`' },
  QUERY_TIMEOUT: { status: 503, applies: 'server', description: 'The operation ran past its deadline' },
  SSO_UNAVAILABLE: { status: 503, applies: 'server', description: 'Single sign-on state is unavailable for a moment' },
  SSO_BUSY: { status: 503, applies: 'server', description: 'Single sign-on is busy' },
  REPORT_RENDERING_BUSY: { status: 503, applies: 'server', description: 'PDF rendering is at capacity or ran past its time' },
  DATA_DIR_IN_USE: { status: 503, applies: 'server', description: 'Another process holds the embedded data directory' },
} as const satisfies Record<string, { status: number; applies: ErrorScope; description: string }>;

export type ErrorCode = keyof typeof ERROR_CODES;

/** The codes the catalogue lists for one HTTP status. */
export const codesWithStatus = (status: number): ErrorCode[] =>
  (Object.keys(ERROR_CODES) as ErrorCode[]).filter((code) => ERROR_CODES[code].status === status);

/**
 * Domain errors: a stable `code`, an HTTP status and a client-safe message. GraphQL carries them in
 * `extensions`; REST answers `{ detail, code }` with the status. Anything else is an internal error.
 */
export class DomainError extends Error {
  readonly status: number = 400;
  readonly code: ErrorCode = 'BAD_REQUEST';
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
  override readonly code: ErrorCode = 'NOT_AUTHENTICATED';
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
  override readonly code: ErrorCode;
  /** Read by GraphQL (graphql-js copies it, Apollo turns `http` into the response status and headers). */
  readonly extensions: Record<string, unknown>;
  constructor(
    message: string,
    readonly retryAfterSeconds = 2,
    code: ErrorCode = 'SERVICE_BUSY',
  ) {
    super(message);
    this.code = code;
    this.extra.retry_after = retryAfterSeconds;
    this.extensions = { http: { status: 503, headers: new Map([['retry-after', String(retryAfterSeconds)]]) } };
  }
}

export class ForbiddenError extends DomainError {
  override readonly status = 403;
  override readonly code: ErrorCode = 'FORBIDDEN';
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

/**
 * A 4xx decided outside the domain (malformed body, oversized request), with the catalogue's status of its code
 * unless another layer decided the status (a static file's 416).
 */
export class RequestError extends DomainError {
  override readonly status: number;
  constructor(
    override readonly code: ErrorCode,
    message: string,
    status: number = ERROR_CODES[code].status,
  ) {
    super(message);
    this.status = status;
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

/** A test, alert or other subject that has nothing for an issue tracker to track. */
export class NoRemediationError extends DomainError {
  override readonly status = 400;
  override readonly code = 'NO_REMEDIATION';
}

export class TrackerNotConfiguredError extends DomainError {
  override readonly status = 409;
  override readonly code = 'TRACKER_NOT_CONFIGURED';
  constructor() {
    super('No active issue-tracker connection: an admin adds one under /tracker/connections');
  }
}

/** An inbound tracker webhook without a valid signature of the connection's secret. */
export class TrackerSignatureError extends DomainError {
  override readonly status = 401;
  override readonly code = 'TRACKER_SIGNATURE_INVALID';
  constructor() {
    super('The webhook signature is missing or does not match the connection secret');
  }
}
