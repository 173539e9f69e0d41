import type { IncomingMessage } from 'node:http';
import type { RequestHandler } from 'express';
import { ForbiddenError } from '../errors.ts';
import { refererOrigin, type OriginPolicy } from './origin.ts';

export class CrossSiteRequestError extends ForbiddenError {
  override readonly code = 'CSRF_REJECTED';
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);
const OWN_FETCH_SITES = new Set(['same-origin', 'none']);

const header = (req: IncomingMessage, name: string): string | undefined => {
  const value = req.headers[name];
  return Array.isArray(value) ? value[0] : value;
};

/**
 * Why a state-changing browser request is refused as cross-site, or null when it may proceed. Requests with
 * an `Authorization` header (bearer tokens, API keys) cannot be forged by another site and are not checked.
 * Every other unsafe request is: those the session cookie authenticates, and also the cookie-less login form,
 * so that no other site can sign a browser in to an account of its choosing (login CSRF). Clients that send
 * none of `Sec-Fetch-Site`, `Origin` and `Referer` (scripts, curl) pass.
 */
export function crossSiteRefusal(req: IncomingMessage, policy: OriginPolicy): string | null {
  if (SAFE_METHODS.has(req.method ?? 'GET') || req.headers.authorization !== undefined) return null;
  const fetchSite = header(req, 'sec-fetch-site');
  if (fetchSite !== undefined && !OWN_FETCH_SITES.has(fetchSite.toLowerCase())) {
    return `Cross-site request refused (Sec-Fetch-Site: ${fetchSite.slice(0, 20)})`;
  }
  const origin = header(req, 'origin');
  if (origin !== undefined) return policy.isOwn(origin, req) ? null : 'Cross-origin request refused: Origin is not one of this service';
  const referer = header(req, 'referer');
  if (referer !== undefined) {
    const fromReferer = refererOrigin(referer);
    return fromReferer && policy.isOwn(fromReferer, req) ? null : 'Cross-origin request refused: Referer is not one of this service';
  }
  return null;
}

/**
 * Refuses cross-site unsafe requests that do not carry an `Authorization` header (see `crossSiteRefusal`). The REST
 * router puts it on every row except those declaring `crossSiteAllowed` (the SAML assertion consumer, which the
 * identity provider's page posts to from its own origin and which authenticates by the signed assertion alone).
 */
export function refuseCrossSite(policy: OriginPolicy): RequestHandler {
  return (req, _res, next) => {
    const reason = crossSiteRefusal(req, policy);
    next(
      reason
        ? new CrossSiteRequestError(`${reason}; send the request from this service's own pages or with an Authorization header`)
        : undefined,
    );
  };
}
