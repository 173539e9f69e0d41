import type { Request, Response } from 'express';
import { SESSION_COOKIE } from '../../auth/authenticate.ts';
import type { Services } from '../../services.ts';
import type { Session } from './service.ts';

function cookieOptions(req: Request, services: Services) {
  const mode = services.config.COOKIE_SECURE;
  return { httpOnly: true, sameSite: 'lax' as const, path: '/', secure: mode === 'auto' ? req.secure : mode === 'true' };
}

/** Sets the `svc_token` cookie of a session: every sign-in (password or single sign-on) answers with it. */
export function setSessionCookie(req: Request, res: Response, services: Services, session: Session): void {
  res.cookie(SESSION_COOKIE, session.accessToken, { ...cookieOptions(req, services), expires: new Date(session.expiresAt) });
}

export function clearSessionCookie(req: Request, res: Response, services: Services): void {
  res.clearCookie(SESSION_COOKIE, cookieOptions(req, services));
}
