import type { IncomingMessage } from 'node:http';
import { parse as parseCookies } from 'cookie';
import type { VerifyClientCallbackAsync } from 'ws';
import { SESSION_COOKIE } from '../auth/authenticate.ts';
import type { OriginPolicy } from './origin.ts';

/**
 * Browsers attach cookies to WebSocket upgrades from any site and leave the check of `Origin` to the server:
 * an upgrade that carries the session cookie must come from one of the service's own origins. Upgrades without
 * the cookie (a bearer token in `connectionParams`) and without `Origin` (non-browser clients) pass.
 */
export function crossSiteUpgradeRefused(req: IncomingMessage, policy: OriginPolicy): boolean {
  const origin = req.headers.origin;
  if (origin === undefined || !req.headers.cookie) return false;
  if (parseCookies(req.headers.cookie)[SESSION_COOKIE] === undefined) return false;
  return !policy.isOwn(origin, req);
}

/** `verifyClient` for the GraphQL WebSocket server: answers 403 to cross-site upgrades carrying the cookie. */
export function verifyUpgradeOrigin(policy: OriginPolicy): VerifyClientCallbackAsync<IncomingMessage> {
  return ({ req }, done) => {
    if (crossSiteUpgradeRefused(req, policy)) done(false, 403, 'Cross-origin WebSocket upgrade with the session cookie refused');
    else done(true);
  };
}
