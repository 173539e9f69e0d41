import { body, type Route } from '../../../rest-adapter/types.ts';
import { apiKeyRoles } from './permissions.ts';

const API_KEY_FIELDS = 'id name scope prefix createdAt lastUsedAt revokedAt';

export const apiKeyRoutes: Route[] = [
  {
    method: 'GET',
    path: '/api-keys',
    tag: 'API keys',
    summary: 'Own API keys, newest first (never their values)',
    roles: apiKeyRoles.own,
    document: `query { myApiKeys { ${API_KEY_FIELDS} } }`,
  },
  {
    method: 'POST',
    path: '/api-keys',
    tag: 'API keys',
    summary: 'Create an own API key (body name, scope read|write|admin); the answer holds the key value, shown only here',
    roles: apiKeyRoles.own,
    status: 201,
    document: `mutation ($input: CreateApiKeyInput!) { createApiKey(input: $input) { ${API_KEY_FIELDS} key } }`,
    variables: { input: body() },
  },
  {
    // Answers 200 with the revoked key (revoked_at set) rather than 204: the record stays listed.
    method: 'DELETE',
    path: '/api-keys/:id',
    tag: 'API keys',
    summary: 'Revoke an API key (owner or admin); answers the revoked key',
    roles: apiKeyRoles.own,
    document: `mutation ($id: UUID!) { revokeApiKey(id: $id) { ${API_KEY_FIELDS} } }`,
  },
];
