import { GraphQLError } from 'graphql';
import { DomainError } from '../../errors.ts';

/** The stable codes of refused operations, in `extensions.code`. */
export const LIMIT_CODES = {
  cost: 'QUERY_TOO_COMPLEX',
  depth: 'QUERY_TOO_DEEP',
  aliases: 'TOO_MANY_ALIASES',
  size: 'QUERY_TOO_LARGE',
  answer: 'ANSWER_TOO_LARGE',
  timeout: 'QUERY_TIMEOUT',
  introspection: 'INTROSPECTION_DISABLED',
  subscriptions: 'TOO_MANY_SUBSCRIPTIONS',
} as const;

export type LimitCode = (typeof LIMIT_CODES)[keyof typeof LIMIT_CODES];

/** An operation refused before execution because it exceeds one of the configured limits. */
export class QueryLimitError extends DomainError {
  override readonly status: number;
  override readonly code: LimitCode;
  constructor(code: LimitCode, message: string, extra: Record<string, unknown> = {}, status = 400) {
    super(message);
    this.code = code;
    this.status = status;
    Object.assign(this.extra, extra);
  }
}

/**
 * The same refusal as a GraphQL error: `originalError` keeps the domain error (so the error formatter passes its code
 * through) and `extensions.http` makes Apollo answer with its status even when the error aborts validation.
 */
export function limitGraphqlError(error: QueryLimitError): GraphQLError {
  return new GraphQLError(error.message, {
    originalError: error,
    extensions: { code: error.code, status: error.status, ...error.extra, http: { status: error.status } },
  });
}

// graphql-js 16 refuses a document over `maxTokens` with a syntax error worded this way ("more that" in 16.x).
const TOKEN_LIMIT = /Document contains more th(?:an|at) (\d+) tokens/;

/** The token limit's syntax error as a limit error; null for any other error. */
export function tokenLimitErrorFrom(error: unknown): QueryLimitError | null {
  const match = error instanceof Error ? TOKEN_LIMIT.exec(error.message) : null;
  return match
    ? new QueryLimitError(LIMIT_CODES.size, `The document has more than ${match[1]} tokens`, { max_tokens: Number(match[1]) })
    : null;
}

const EXECUTION_STOPS = new Set<string>([LIMIT_CODES.answer, LIMIT_CODES.timeout]);

/**
 * An operation stopped by the execution guard reports it once: every field still pending when it stopped raises
 * the same refusal. Other errors are kept.
 */
export function oneExecutionStop<T extends { extensions?: { code?: unknown } }>(errors: readonly T[]): { errors: T[]; stop?: T } {
  const stop = errors.find((error) => EXECUTION_STOPS.has(String(error.extensions?.code)));
  return stop
    ? { errors: [stop, ...errors.filter((error) => !EXECUTION_STOPS.has(String(error.extensions?.code)))], stop }
    : { errors: [...errors] };
}
