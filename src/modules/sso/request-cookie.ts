import type { Request, Response } from 'express';
import { parse as parseCookies } from 'cookie';
import { SSO_REQUEST_TTL_MS } from '../../auth/sso-state.ts';
import type { Services } from '../../services.ts';

/** Names the AuthnRequest this browser started, so that only this browser can complete it. */
export const SSO_REQUEST_COOKIE = 'svc_sso_request';
const PATH = '/api/v1/sso/callback';

/**
 * The identity provider's page posts the answer from its own site: only a `SameSite=None` cookie comes along, and
 * browsers keep those only when `Secure`. Without TLS the cookie is `Lax`, which works when the identity provider
 * is on the same site (e.g. both on localhost) and otherwise makes sign-ins fail (docs/sso.md).
 */
function options(req: Request, services: Services) {
  const mode = services.config.COOKIE_SECURE;
  const secure = mode === 'auto' ? req.secure : mode === 'true';
  return { httpOnly: true, secure, sameSite: secure ? ('none' as const) : ('lax' as const), path: PATH };
}

export function setSsoRequestCookie(req: Request, res: Response, services: Services, requestId: string): void {
  res.cookie(SSO_REQUEST_COOKIE, requestId, { ...options(req, services), maxAge: SSO_REQUEST_TTL_MS });
}

export function clearSsoRequestCookie(req: Request, res: Response, services: Services): void {
  res.clearCookie(SSO_REQUEST_COOKIE, options(req, services));
}

export function ssoRequestCookie(req: Request): string | null {
  const header = req.headers.cookie;
  return header ? (parseCookies(header)[SSO_REQUEST_COOKIE] ?? null) : null;
}
