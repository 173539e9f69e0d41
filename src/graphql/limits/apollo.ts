import type { ApolloServerOptions, ApolloServerPlugin, BaseContext } from '@apollo/server';
import type { GraphQLSchema } from 'graphql';
import { oneExecutionStop } from './errors.ts';
import { introspectionRefusal } from './introspection.ts';
import { createCostMemo } from './cost-memo.ts';
import { costRefusal, limitRules, type GraphqlLimits } from './rules.ts';

/**
 * Apollo's share of the limits: the token limit at parse, depth and aliases at validation (cacheable: they depend on
 * the document only), introspection by the caller and the cost once the operation and its variables are known, before any resolver runs; an
 * operation the execution guard stopped is answered with its one error and status.
 */
export function apolloLimits<TContext extends BaseContext & { auth: { principal: unknown } }>(
  schema: GraphQLSchema,
  limits: GraphqlLimits,
) {
  const costOf = createCostMemo(schema);
  const costCheck: ApolloServerPlugin<TContext> = {
    async requestDidStart() {
      return {
        async didResolveOperation({ document, request, operationName, contextValue }) {
          const error =
            introspectionRefusal(schema, document, limits.introspection, Boolean(contextValue.auth.principal)) ??
            costRefusal(costOf(document, { variables: request.variables, operationName }), limits);
          if (error) throw error;
        },
        async willSendResponse({ response }) {
          if (response.body.kind !== 'single' || !response.body.singleResult.errors) return;
          const { errors, stop } = oneExecutionStop(response.body.singleResult.errors);
          if (!stop) return;
          response.body.singleResult.errors = errors;
          response.http.status = Number(stop.extensions?.status);
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
