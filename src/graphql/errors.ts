import type { ApolloServerPlugin } from '@apollo/server';
import { GraphQLError, type GraphQLFormattedError } from 'graphql';
import { ServiceUnavailableError } from '../errors.ts';
import { domainErrorFrom } from '../db/errors.ts';
import type { Logger } from '../logger.ts';
import { tokenLimitErrorFrom } from './limits/errors.ts';

/**
 * What a client may learn from a GraphQL error: domain errors in full, internal ones not at all, and stack
 * traces only when `keepStacktrace` (DEBUG_ERRORS) says so.
 */
export function formatGraphqlError(
  formatted: GraphQLFormattedError,
  error: unknown,
  log: Logger,
  requestId?: string,
  keepStacktrace = false,
): GraphQLFormattedError {
  const original = error instanceof GraphQLError ? error.originalError : error;
  // A document over the token limit fails to parse; it is answered with the limit's code, not as a syntax error.
  const domain = domainErrorFrom(original) ?? tokenLimitErrorFrom(error);
  if (domain) {
    return {
      message: domain.message,
      path: formatted.path,
      locations: formatted.locations,
      extensions: { code: domain.code, status: domain.status, ...domain.extra },
    };
  }
  if (original && !(original instanceof GraphQLError)) {
    log.error({ err: original, requestId, path: formatted.path }, 'unexpected error in a resolver');
    return {
      message: 'Internal server error',
      path: formatted.path,
      extensions: { code: 'INTERNAL_SERVER_ERROR', status: 500, request_id: requestId },
    };
  }
  return keepStacktrace ? formatted : withoutStacktrace(formatted);
}

function withoutStacktrace(formatted: GraphQLFormattedError): GraphQLFormattedError {
  if (!formatted.extensions || !('stacktrace' in formatted.extensions)) return formatted;
  const { stacktrace: _stacktrace, ...extensions } = formatted.extensions;
  return { ...formatted, extensions };
}

/**
 * GraphQL over HTTP answers 503 with `Retry-After` when a resolver met an overloaded or unreachable backend,
 * as REST does, so clients and proxies back off instead of reading a 200 with an error inside.
 */
export const serviceAvailabilityPlugin: ApolloServerPlugin = {
  async requestDidStart() {
    return {
      async didEncounterErrors({ errors, response }) {
        for (const error of errors) {
          const domain = domainErrorFrom(error instanceof GraphQLError ? error.originalError : error);
          if (!(domain instanceof ServiceUnavailableError)) continue;
          response.http.status = 503;
          response.http.headers.set('retry-after', String(domain.retryAfterSeconds));
          return;
        }
      },
    };
  },
};
