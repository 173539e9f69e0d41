import { z } from 'zod';
import type { Principal } from '../../auth/access.ts';
import { generateApiKey } from '../../auth/api-keys.ts';
import { inTransaction } from '../../db/unit-of-work.ts';
import { NotFoundError } from '../../errors.ts';
import { ApiKeyScope } from '../../generated/prisma/enums.ts';
import type { ApiKey } from '../../generated/prisma/client.ts';
import type { Services } from '../../services.ts';
import { parseInput, trimmed } from '../../validation.ts';
import { assertMayGrant, assertMayRevoke } from './permissions.ts';

/** A key as created: the record plus its value, which is shown this once and stored only as a hash. */
export type NewApiKey = ApiKey & { key: string };

const createSchema = z.object({
  name: trimmed(100),
  scope: z.enum(ApiKeyScope),
});

/** Most API keys one list shows: the newest, revoked ones included. */
export const OWN_API_KEY_MAX = 500;

export function listOwnApiKeys(services: Services, principal: Principal) {
  return services.prisma.apiKey.findMany({
    where: { userId: principal.userId },
    orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
    take: OWN_API_KEY_MAX,
  });
}

export async function createApiKey(services: Services, principal: Principal, input: unknown): Promise<NewApiKey> {
  const { name, scope } = parseInput(createSchema, input);
  assertMayGrant(principal, scope);
  const { value, hash, prefix } = generateApiKey();
  return inTransaction(services, principal, async (uow) => {
    const apiKey = await uow.tx.apiKey.create({ data: { userId: principal.userId, name, scope, prefix, keyHash: hash } });
    await uow.audit({ action: 'create_api_key', entityType: 'api_key', entityId: apiKey.id, details: { name, scope, prefix } });
    uow.emit('api_key.changed', { apiKeyId: apiKey.id, userId: principal.userId, change: 'created' });
    return { ...apiKey, key: value };
  });
}

/** Revokes a key at once (authentication refuses revoked keys); revoking a revoked key changes nothing. */
export async function revokeApiKey(services: Services, principal: Principal, id: string) {
  return inTransaction(services, principal, async (uow) => {
    const apiKey = await uow.tx.apiKey.findUnique({ where: { id }, select: { id: true, userId: true, name: true, revokedAt: true } });
    if (!apiKey) throw new NotFoundError('API key', id);
    assertMayRevoke(principal, apiKey);
    // Only while not revoked: a concurrent revocation that won keeps its time, and only it is audited.
    const { count } = await uow.tx.apiKey.updateMany({ where: { id, revokedAt: null }, data: { revokedAt: new Date() } });
    const revoked = await uow.tx.apiKey.findUniqueOrThrow({ where: { id } });
    if (!count) return revoked;
    await uow.audit({
      action: 'revoke_api_key',
      entityType: 'api_key',
      entityId: id,
      details: { name: apiKey.name, owner_id: apiKey.userId },
    });
    uow.emit('api_key.changed', { apiKeyId: id, userId: apiKey.userId, change: 'revoked' });
    return revoked;
  });
}
