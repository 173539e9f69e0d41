import { builder } from '../../graphql/builder.ts';
import { ApiKeyScope } from '../../generated/prisma/enums.ts';
import type { NewApiKey } from './service.ts';

export const ApiKeyScopeEnum = builder.enumType(ApiKeyScope, {
  name: 'ApiKeyScope',
  description: 'read: queries only; write: also mutations; admin: also admin-only operations (admins only).',
});

const PREFIX = 'The first characters of the key value, to recognise it.';

export const ApiKeyType = builder.prismaObject('ApiKey', {
  description: 'A long-lived credential of one user, sent as `Authorization: Bearer svc_…`. Its value is never shown again.',
  fields: (t) => ({
    id: t.exposeID('id'),
    name: t.exposeString('name'),
    scope: t.expose('scope', { type: ApiKeyScopeEnum }),
    prefix: t.exposeString('prefix', { description: PREFIX }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    lastUsedAt: t.expose('lastUsedAt', { type: 'DateTime', nullable: true }),
    revokedAt: t.expose('revokedAt', { type: 'DateTime', nullable: true }),
  }),
});

export const NewApiKeyType = builder.objectRef<NewApiKey>('NewApiKey').implement({
  description: 'A key just created: the API key fields plus its value, shown only in this answer.',
  fields: (t) => ({
    id: t.exposeID('id'),
    name: t.exposeString('name'),
    scope: t.expose('scope', { type: ApiKeyScopeEnum }),
    prefix: t.exposeString('prefix', { description: PREFIX }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    lastUsedAt: t.expose('lastUsedAt', { type: 'DateTime', nullable: true }),
    revokedAt: t.expose('revokedAt', { type: 'DateTime', nullable: true }),
    key: t.exposeString('key', { description: 'The key value (svc_<hex>). Store it now: only its hash is kept.' }),
  }),
});

export const CreateApiKeyInput = builder.inputType('CreateApiKeyInput', {
  fields: (t) => ({
    name: t.string({ required: true, description: '1 to 100 characters.' }),
    scope: t.field({ type: ApiKeyScopeEnum, required: true, description: "Never wider than the owner's role allows." }),
  }),
});
