import { assertAccess, type Principal } from '../../auth/access.ts';
import { Roles } from '../../auth/roles.ts';
import { ApiKeyScopeError, NotFoundError } from '../../errors.ts';
import { ApiKeyScope } from '../../generated/prisma/enums.ts';

/** Every signed-in user manages their own keys; admins may also revoke anyone's. */
export const apiKeyRoles = {
  own: Roles.any,
  revokeOthers: Roles.admin,
} as const;

const SCOPE_RANK: Record<ApiKeyScope, number> = { read: 0, write: 1, admin: 2 };

/** Refuses a scope the caller may not grant: only admins get admin keys, and a key cannot mint a wider one. */
export function assertMayGrant(principal: Principal, scope: ApiKeyScope): void {
  if (scope === ApiKeyScope.admin && principal.role !== 'admin') {
    throw new ApiKeyScopeError('Only admins can create API keys with the admin scope');
  }
  if (principal.keyScope && SCOPE_RANK[scope] > SCOPE_RANK[principal.keyScope]) {
    throw new ApiKeyScopeError(`An API key with the ${principal.keyScope} scope cannot create a key with the ${scope} scope`);
  }
}

/** Owners revoke their own keys; admins anyone's. Other users' keys do not exist for a non-admin. */
export function assertMayRevoke(principal: Principal, key: { id: string; userId: string }): void {
  if (key.userId === principal.userId) return;
  if (principal.role !== 'admin') throw new NotFoundError('API key', key.id);
  assertAccess(principal, { roles: apiKeyRoles.revokeOthers, write: true });
}
