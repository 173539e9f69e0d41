import SchemaBuilder from '@pothos/core';
import ComplexityPlugin from '@pothos/plugin-complexity';
import ErrorsPlugin from '@pothos/plugin-errors';
import PrismaPlugin from '@pothos/plugin-prisma';
import ScopeAuthPlugin from '@pothos/plugin-scope-auth';
import { assertAccess, type AccessRule } from '../auth/access.ts';
import type PrismaTypes from '../generated/pothos-types.ts';
import { getDatamodel } from '../generated/pothos-types.ts';
import type { Context } from './context.ts';
import { defaultFieldCost, UNDECLARED_LIST_MULTIPLIER } from './cost.ts';
import { DateTimeScalar, JsonScalar, UuidScalar } from './scalars.ts';

export const builder = new SchemaBuilder<{
  Context: Context;
  PrismaTypes: PrismaTypes;
  AuthScopes: { access: AccessRule };
  Scalars: {
    DateTime: { Input: Date; Output: Date | string };
    JSON: { Input: unknown; Output: unknown };
    UUID: { Input: string; Output: string };
  };
  DefaultFieldNullability: false;
}>({
  plugins: [ScopeAuthPlugin, PrismaPlugin, ErrorsPlugin, ComplexityPlugin],
  defaultFieldNullability: false,
  scopeAuth: {
    // The access rule throws the precise 401/403 error; scope-auth lets it through unchanged.
    authScopes: (context) => ({
      access: (rule: AccessRule) => {
        assertAccess(context.auth.principal, rule, context.auth.failure);
        return true;
      },
    }),
    authorizeOnSubscribe: true,
  },
  prisma: {
    client: (context) => context.services.prisma,
    dmmf: getDatamodel(),
    exposeDescriptions: false,
    filterConnectionTotalCount: true,
  },
  errors: {
    defaultTypes: [],
  },
  // Field costs only (src/graphql/cost.ts): the limits are checked before execution (src/graphql/limits/), not by
  // the plugin's resolver wrapper.
  complexity: {
    disabled: true,
    fieldComplexity: defaultFieldCost,
    defaultComplexity: 0,
    defaultListMultiplier: UNDECLARED_LIST_MULTIPLIER,
  },
});

builder.addScalarType('DateTime', DateTimeScalar);
builder.addScalarType('JSON', JsonScalar);
builder.addScalarType('UUID', UuidScalar);

builder.queryType({ description: 'Read operations.' });
builder.mutationType({
  description: 'Changes. Read-only API keys can call none of them.',
  authScopes: { access: { roles: 'public', write: true } },
});
builder.subscriptionType({ description: 'Live streams over graphql-ws on /graphql.' });

/** The builder's type parameters, for helpers that define fields on several types. */
export type SchemaTypes = typeof builder extends PothosSchemaTypes.SchemaBuilder<infer Types> ? Types : never;
