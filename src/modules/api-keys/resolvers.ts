import { allow } from '../../graphql/access.ts';
import { builder } from '../../graphql/builder.ts';
import { cappedListCost } from '../../graphql/cost.ts';
import { principalOf } from '../../graphql/context.ts';
import { apiKeyRoles } from './permissions.ts';
import * as apiKeys from './service.ts';
import { ApiKeyType, CreateApiKeyInput, NewApiKeyType } from './types.ts';

builder.queryFields((t) => ({
  myApiKeys: t.field({
    type: [ApiKeyType],
    description: `The caller's API keys, revoked ones included, newest first (the latest ${apiKeys.OWN_API_KEY_MAX}).`,
    complexity: cappedListCost(apiKeys.OWN_API_KEY_MAX),
    authScopes: allow(apiKeyRoles.own),
    resolve: (_root, _args, context) => apiKeys.listOwnApiKeys(context.services, principalOf(context)),
  }),
}));

builder.mutationFields((t) => ({
  createApiKey: t.field({
    type: NewApiKeyType,
    description: 'Creates an own API key and returns its value, once.',
    authScopes: allow(apiKeyRoles.own),
    args: { input: t.arg({ type: CreateApiKeyInput, required: true }) },
    resolve: (_root, { input }, context) => apiKeys.createApiKey(context.services, principalOf(context), input),
  }),
  revokeApiKey: t.field({
    type: ApiKeyType,
    description: "Revokes an own key (admins: anyone's); it stops working at once.",
    authScopes: allow(apiKeyRoles.own),
    args: { id: t.arg({ type: 'UUID', required: true }) },
    resolve: (_root, { id }, context) => apiKeys.revokeApiKey(context.services, principalOf(context), String(id)),
  }),
}));
