import { ApiKeyScopeError, ForbiddenError, PasswordChangeRequiredError, UnauthenticatedError } from '../errors.ts';
import type { ApiKeyScope } from '../generated/prisma/enums.ts';
import type { Role } from './roles.ts';

/** Who is calling: a user through a session token, or through one of their API keys. */
export interface Principal {
  userId: string;
  username: string;
  role: Role;
  mustChangePassword: boolean;
  via: 'token' | 'api_key';
  /** Session token id and expiry (for logout). */
  jti?: string;
  expiresAt?: Date;
  /** Scope of the API key, when authenticated by one. */
  keyScope?: ApiKeyScope;
  apiKeyId?: string;
}

/**
 * An access rule. `roles: 'public'` needs no principal; `'signed-in'` accepts any principal, even one that
 * still has to change its password (logout, me, change-password).
 */
export interface AccessRule {
  roles: readonly Role[] | 'public' | 'signed-in';
  /** The operation changes state: read-scoped API keys are refused. */
  write?: boolean;
}

const ADMIN_ONLY = (roles: readonly Role[]) => roles.length === 1 && roles[0] === 'admin';

/**
 * The one authorisation decision, shared by GraphQL scope-auth and the REST adapter. Throws the error
 * the caller should see (401, 403 or the password-change gate); returns when access is granted.
 */
export function assertAccess(principal: Principal | null, rule: AccessRule, failure?: UnauthenticatedError): void {
  if (rule.write && principal?.keyScope === 'read') {
    throw new ApiKeyScopeError('A read-only API key cannot change anything');
  }
  if (rule.roles === 'public') return;
  if (!principal) throw failure ?? new UnauthenticatedError();
  if (rule.roles === 'signed-in') return;
  if (principal.mustChangePassword) throw new PasswordChangeRequiredError();
  if (!rule.roles.includes(principal.role)) throw new ForbiddenError();
  if (principal.keyScope && principal.keyScope !== 'admin' && ADMIN_ONLY(rule.roles)) {
    throw new ApiKeyScopeError('Administrative operations need an API key with the admin scope');
  }
}

/**
 * Everything `assertAccess` reads of a principal, as one string: two principals of the same kind get the same
 * decision from every rule. Null without a principal. Keys answers kept per kind of caller (src/graphql/catalog-cache.ts).
 */
export function accessKind(principal: Principal | null): string | null {
  if (!principal) return null;
  return [principal.role, principal.via, principal.keyScope ?? '', principal.mustChangePassword ? 'must-change' : ''].join(':');
}

/** Whether `assertAccess` would let the principal through: for answers that differ by caller instead of failing. */
export function grants(principal: Principal | null, rule: AccessRule): boolean {
  try {
    assertAccess(principal, rule);
    return true;
  } catch {
    return false;
  }
}
