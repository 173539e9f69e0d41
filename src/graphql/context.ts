import type { Principal } from '../auth/access.ts';
import type { UnauthenticatedError } from '../errors.ts';
import type { Actor } from '../db/unit-of-work.ts';
import type { Logger } from '../logger.ts';
import type { Services } from '../services.ts';

/** The outcome of reading a request's credentials: a principal, or why the credentials were refused. */
export interface Authentication {
  principal: Principal | null;
  failure?: UnauthenticatedError;
}

/** Per-request context, shared by GraphQL over HTTP and WebSocket and by the REST adapter. */
export interface Context {
  services: Services;
  auth: Authentication;
  requestId: string;
  clientIp: string;
  log: Logger;
}

/** The signed-in principal; resolvers behind an access rule can rely on it. */
export function principalOf(context: Context): Principal {
  const principal = context.auth.principal;
  if (!principal) throw new Error('resolver reached without a principal');
  return principal;
}

export function actorOf(context: Context): Actor {
  const principal = context.auth.principal;
  return principal ? { userId: principal.userId, username: principal.username } : { userId: null, username: 'anonymous' };
}
