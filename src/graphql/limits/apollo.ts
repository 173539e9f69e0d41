import type { ApolloServerOptions, ApolloServerPlugin, BaseContext } from '@apollo/server';
import type { GraphQLSchema } from 'graphql';
import { costError, limitRules, type GraphqlLimits } from './rules.ts';

/**
 * Apollo's share of the limits: the token limit at parse, depth and aliases at validation (cacheable: they depend on
 * the document only) and the cost once the operation and its variables are known, before any resolver runs.
 */
export function apolloLimits<TContext extends BaseContext>(schema: GraphQLSchema, limits: GraphqlLimits) {
  const costCheck: ApolloServerPlugin<TContext> = {
    async requestDidStart() {
      return {
        async didResolveOperation({ document, request, operationName }) {
          const error = costError(schema, document, limits, { variables: request.variables, operationName });
          if (error) throw error;
        },
      };
    },
  };
  const options = {
    parseOptions: { maxTokens: limits.maxTokens },
    validationRules: limitRules(limits),
    allowBatchedHttpRequests: false,
  } satisfies Partial<ApolloServerOptions<TContext>>;
  return { options, plugins: [costCheck] };
}
