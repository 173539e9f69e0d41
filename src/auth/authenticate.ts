import { parse as parseCookies } from 'cookie';
import type { IncomingHttpHeaders } from 'node:http';
import { UnauthenticatedError } from '../errors.ts';
import type { Authentication } from '../graphql/context.ts';
import type { Services } from '../services.ts';
import type { Principal } from './access.ts';
import { hashApiKey, looksLikeApiKey } from './api-keys.ts';
import type { SessionRow } from './session-cache.ts';

export const SESSION_COOKIE = 'svc_token';
/** How stale `last_used_at` of an API key may get before it is written again. */
const KEY_USAGE_RESOLUTION_MS = 60_000;

/** The credential of a request: `Authorization: Bearer …` first, then the session cookie. */
export function credentialOf(headers: IncomingHttpHeaders): string | null {
  const authorization = headers.authorization;
  if (authorization) {
    const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization);
    return match ? match[1] : '';
  }
  const cookieHeader = headers.cookie;
  return cookieHeader ? (parseCookies(cookieHeader)[SESSION_COOKIE] ?? null) : null;
}

/** What authentication reads: the database (users, API keys and revoked tokens), the token signer and the session cache. */
export type AuthenticationDeps = Pick<Services, 'prisma' | 'tokens' | 'sessions'>;

/**
 * Resolves a credential to a principal. A token's user and revocation are read at most SESSION_CACHE before (see
 * SessionCache: changes made through the service take effect at once); `fresh` reads them now. Invalid credentials
 * are reported, not thrown: public operations still work with a stale cookie.
 */
export async function authenticate(
  services: AuthenticationDeps,
  credential: string | null,
  { fresh = false } = {},
): Promise<Authentication> {
  if (credential === null) return { principal: null };
  try {
    const principal = looksLikeApiKey(credential)
      ? await principalFromApiKey(services, credential)
      : await principalFromToken(services, credential, fresh);
    return { principal };
  } catch (error) {
    if (error instanceof UnauthenticatedError) return { principal: null, failure: error };
    throw error;
  }
}

async function principalFromToken(services: AuthenticationDeps, token: string, fresh: boolean): Promise<Principal> {
  const claims = await services.tokens.verify(token);
  // One statement: the user and whether the token was revoked.
  const read = async () =>
    (
      await services.prisma.$queryRaw<SessionRow[]>`
        SELECT EXISTS (SELECT 1 FROM revoked_tokens WHERE jti = ${claims.jti}) AS revoked,
               u.id::text AS id, u.username, u.role::text AS role, u.is_active AS "isActive",
               u.must_change_password AS "mustChangePassword", u.session_version AS "sessionVersion"
        FROM (SELECT 1) AS one LEFT JOIN users u ON u.id = ${claims.sub}::uuid`
    )[0];
  const row = fresh ? await read() : await services.sessions.get(claims.jti, read);
  if (row.revoked) throw new UnauthenticatedError('Token has been revoked');
  if (!row.id || !row.isActive) throw new UnauthenticatedError('Account is disabled');
  if (claims.sv !== row.sessionVersion) {
    throw new UnauthenticatedError('Token predates a password change');
  }
  return {
    userId: row.id,
    username: row.username,
    role: row.role,
    mustChangePassword: row.mustChangePassword,
    via: 'token',
    jti: claims.jti,
    expiresAt: new Date(claims.exp * 1000),
  };
}

async function principalFromApiKey(services: Pick<Services, 'prisma'>, value: string): Promise<Principal> {
  const key = await services.prisma.apiKey.findUnique({ where: { keyHash: hashApiKey(value) }, include: { user: true } });
  if (!key || key.revokedAt || !key.user.isActive) throw new UnauthenticatedError('Invalid API key');
  if (!key.lastUsedAt || Date.now() - key.lastUsedAt.getTime() > KEY_USAGE_RESOLUTION_MS) {
    await services.prisma.apiKey.update({ where: { id: key.id }, data: { lastUsedAt: new Date() } });
  }
  return {
    userId: key.user.id,
    username: key.user.username,
    role: key.user.role,
    mustChangePassword: key.user.mustChangePassword,
    via: 'api_key',
    keyScope: key.scope,
    apiKeyId: key.id,
  };
}
