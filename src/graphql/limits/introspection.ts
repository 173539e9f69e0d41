import { NoSchemaIntrospectionCustomRule, validate, type DocumentNode, type GraphQLError, type GraphQLSchema } from 'graphql';
import { LIMIT_CODES, limitGraphqlError, QueryLimitError } from './errors.ts';

/** Who may read the schema through `__schema` and `__type` (GRAPHQL_INTROSPECTION); `__typename` is always allowed. */
export type IntrospectionPolicy = 'signed-in' | 'anyone' | 'off';

/** A GraphQL error when the document introspects the schema and the policy refuses this caller, null otherwise. */
export function introspectionRefusal(
  schema: GraphQLSchema,
  document: DocumentNode,
  policy: IntrospectionPolicy,
  signedIn: boolean,
): GraphQLError | null {
  if (policy === 'anyone' || (policy === 'signed-in' && signedIn)) return null;
  if (validate(schema, document, [NoSchemaIntrospectionCustomRule]).length === 0) return null;
  const refusal =
    policy === 'off'
      ? new QueryLimitError(LIMIT_CODES.introspection, 'Schema introspection is disabled on this server', {}, 403)
      : new QueryLimitError(LIMIT_CODES.introspection, 'Sign in to introspect the schema', {}, 401);
  return limitGraphqlError(refusal);
}
