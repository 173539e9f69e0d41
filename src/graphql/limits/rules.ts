import { maxAliasesRule } from '@escape.tech/graphql-armor-max-aliases';
import { maxDepthRule } from '@escape.tech/graphql-armor-max-depth';
import { createComplexityRule } from '@pothos/plugin-complexity';
import { validate, type DocumentNode, type GraphQLError, type GraphQLSchema, type ValidationContext, type ValidationRule } from 'graphql';
import type { Config } from '../../config.ts';
import { WORST_CASE } from '../cost.ts';
import { LIMIT_CODES, limitGraphqlError, QueryLimitError } from './errors.ts';
import type { IntrospectionPolicy } from './introspection.ts';
import { placeholderVariables } from './placeholders.ts';

/** The bounds every GraphQL document must stay within, whatever way it arrives. */
export interface GraphqlLimits {
  maxCost: number;
  maxDepth: number;
  maxAliases: number;
  maxTokens: number;
  introspection: IntrospectionPolicy;
}

export function graphqlLimitsOf(config: Config): GraphqlLimits {
  return {
    maxCost: config.GRAPHQL_MAX_COST,
    maxDepth: config.GRAPHQL_MAX_DEPTH,
    maxAliases: config.GRAPHQL_MAX_ALIASES,
    maxTokens: config.GRAPHQL_MAX_TOKENS,
    introspection: config.GRAPHQL_INTROSPECTION,
  };
}

const reportAs = (error: QueryLimitError) => (context: ValidationContext | null) => context?.reportError(limitGraphqlError(error));

/** Depth and alias limits as validation rules; they need neither variables nor context, so validated documents may be cached. */
export function limitRules(limits: GraphqlLimits): ValidationRule[] {
  return [
    maxDepthRule({
      n: limits.maxDepth,
      ignoreIntrospection: true,
      flattenFragments: true,
      propagateOnRejection: false,
      onReject: [
        reportAs(
          new QueryLimitError(LIMIT_CODES.depth, `The query is nested deeper than ${limits.maxDepth} levels`, {
            max_depth: limits.maxDepth,
          }),
        ),
      ],
    }),
    maxAliasesRule({
      n: limits.maxAliases,
      propagateOnRejection: false,
      onReject: [
        reportAs(
          new QueryLimitError(LIMIT_CODES.aliases, `The query has more than ${limits.maxAliases} aliases`, {
            max_aliases: limits.maxAliases,
          }),
        ),
      ],
    }),
  ];
}

export interface CostInput {
  variables?: Record<string, unknown> | null;
  operationName?: string | null;
  /** Cost for any variable values: every page at its maximum size (used for the REST documents at start-up). */
  worstCase?: boolean;
}

/**
 * The cost of the operation `operationName` of `document` (Pothos' complexity rule over the field costs of
 * `src/graphql/cost.ts`), or null when its variables do not coerce: execution then reports them precisely.
 */
export function operationCost(schema: GraphQLSchema, document: DocumentNode, input: CostInput = {}): number | null {
  let cost: number | null = null;
  validate(schema, document, [
    createComplexityRule({
      context: input.worstCase ? { [WORST_CASE]: true } : {},
      variableValues: input.worstCase ? placeholderVariables(schema, document) : (input.variables ?? {}),
      operationName: input.operationName ?? undefined,
      onResult: (result) => void (cost = Math.max(cost ?? 0, result.complexity)),
    }),
  ]);
  return cost;
}

/** The refusal of an operation costing `cost`, or null when it is within the limit (or unknown: execution reports why). */
export function costRefusal(cost: number | null, limits: GraphqlLimits): GraphQLError | null {
  if (cost === null || cost <= limits.maxCost) return null;
  return limitGraphqlError(
    new QueryLimitError(
      LIMIT_CODES.cost,
      `The query would cost ${cost}, more than the limit of ${limits.maxCost}: ask for smaller pages or fewer nested lists`,
      {
        cost,
        max_cost: limits.maxCost,
      },
    ),
  );
}
