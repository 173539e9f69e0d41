import type { ApolloServerPlugin } from '@apollo/server';
import { GraphQLError } from 'graphql';
import { RateLimitedError } from '../http/rate-limit.ts';
import type { Context } from './context.ts';

/**
 * GraphQL over HTTP takes one request from the caller's reads budget (queries) or writes budget (mutations),
 * once the operation is known; a spent budget answers HTTP 429 with Retry-After and the RateLimit fields.
 * Subscriptions are bounded by the WebSocket connection caps instead.
 */
export const rateLimitPlugin: ApolloServerPlugin<Context> = {
  async requestDidStart() {
    return {
      async didResolveOperation({ operation, contextValue, response }) {
        if (!operation || operation.operation === 'subscription') return;
        const caller = { userId: contextValue.auth.principal?.userId ?? null, clientIp: contextValue.clientIp };
        try {
          const headers = await contextValue.services.rateLimits.take(operation.operation === 'mutation' ? 'writes' : 'reads', caller);
          for (const [name, value] of Object.entries(headers ?? {})) response.http.headers.set(name, value);
        } catch (error) {
          if (!(error instanceof RateLimitedError)) throw error;
          const headers = new Map([['retry-after', String(error.retryAfterSeconds)], ...Object.entries(error.headers)]);
          throw new GraphQLError(error.message, {
            extensions: { code: error.code, status: 429, retry_after: error.retryAfterSeconds, http: { status: 429, headers } },
          });
        }
      },
    };
  },
};
