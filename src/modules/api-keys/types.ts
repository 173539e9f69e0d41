import { builder, type SchemaTypes } from '../../graphql/builder.ts';
import type { ApiKey } from '../../generated/prisma/client.ts';
import { ApiKeyScope } from '../../generated/prisma/enums.ts';
import type { NewApiKey } from './service.ts';

export const ApiKeyScopeEnum = builder.enumType(ApiKeyScope, {
  name: 'ApiKeyScope',
  description: 'read: queries only; write: also mutations; admin: also admin-only operations (admins only).',
});

const PREFIX = 'The first characters of the key value, to recognise it.';

/** The fields of a key, shared by the stored key and the key just created (which adds its value). */
const apiKeyFields = <Shape extends ApiKey>(t: PothosSchemaTypes.ObjectFieldBuilder<SchemaTypes, Shape>) => ({
  id: t.id({ resolve: (key) => key.id }),
  name: t.string({ resolve: (key) => key.name }),
  scope: t.field({ type: ApiKeyScopeEnum, resolve: (key) => key.scope }),
  prefix: t.string({ description: PREFIX, resolve: (key) => key.prefix }),
  createdAt: t.field({ type: 'DateTime', resolve: (key) => key.createdAt }),
  lastUsedAt: t.field({ type: 'DateTime', nullable: true, resolve: (key) => key.lastUsedAt }),
  revokedAt: t.field({ type: 'DateTime', nullable: true, resolve: (key) => key.revokedAt }),
});

export const ApiKeyType = builder.objectRef<ApiKey>('ApiKey').implement({
  description: 'A long-lived credential of one user, sent as `Authorization: Bearer svc_…`. Its value is never shown again.',
  fields: apiKeyFields,
});

export const NewApiKeyType = builder.objectRef<NewApiKey>('NewApiKey').implement({
  description: 'A key just created: the API key fields plus its value, shown only in this answer.',
  fields: (t) => ({
    ...apiKeyFields(t),
    key: t.exposeString('key', { description: 'The key value (svc_<hex>). Store it now: only its hash is kept.' }),
  }),
});

export const CreateApiKeyInput = builder.inputType('CreateApiKeyInput', {
  fields: (t) => ({
    name: t.string({ required: true, description: '1 to 100 characters.' }),
    scope: t.field({ type: ApiKeyScopeEnum, required: true, description: "Never wider than the owner's role allows." }),
  }),
});
