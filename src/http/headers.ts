import type { RequestHandler } from 'express';
import helmet from 'helmet';
import { SESSION_COOKIE } from '../auth/authenticate.ts';

/**
 * Helmet's headers for every answer. The API answers JSON, so its policy allows nothing and no framing; the
 * HTML pages set their own (`pagePolicy`). HSTS is left to the domain's owner for sibling subdomains.
 */
export function securityHeaders(): RequestHandler {
  return helmet({
    contentSecurityPolicy: { useDefaults: false, directives: { defaultSrc: ["'none'"], frameAncestors: ["'none'"] } },
    xFrameOptions: { action: 'deny' },
    strictTransportSecurity: { maxAge: 31_536_000, includeSubDomains: false },
  }) as RequestHandler;
}

/** The CSP of GraphiQL and the REST docs: local scripts and styles only, never inside another site's frame. */
export function pagePolicy(): RequestHandler {
  return helmet.contentSecurityPolicy({
    useDefaults: false,
    directives: {
      defaultSrc: ["'self'"],
      scriptSrc: ["'self'", "'unsafe-inline'"],
      styleSrc: ["'self'", "'unsafe-inline'"],
      imgSrc: ["'self'", 'data:'],
      connectSrc: ["'self'", 'ws:', 'wss:'],
      frameAncestors: ["'none'"],
      formAction: ["'self'"],
      baseUri: ["'none'"],
      objectSrc: ["'none'"],
    },
  }) as RequestHandler;
}

/**
 * The CSP of the web app: its own scripts, styles, fonts and images only, no inline script or style, no `eval`,
 * GraphQL over HTTP and WebSocket to this origin only ('self' covers ws:/wss: of the same host in CSP 3).
 */
export function appPolicy(): RequestHandler {
  return helmet.contentSecurityPolicy({
    useDefaults: false,
    directives: {
      defaultSrc: ["'none'"],
      scriptSrc: ["'self'"],
      styleSrc: ["'self'"],
      fontSrc: ["'self'"],
      imgSrc: ["'self'", 'data:'],
      connectSrc: ["'self'"],
      manifestSrc: ["'self'"],
      frameAncestors: ["'none'"],
      formAction: ["'self'"],
      baseUri: ["'none'"],
      objectSrc: ["'none'"],
    },
  }) as RequestHandler;
}

const hasSessionCookie = (cookie: string | undefined) => cookie?.includes(`${SESSION_COOKIE}=`);

/**
 * `Cache-Control: no-store` on API answers that may hold a user's data or a credential: every answer to a
 * request with credentials, and every answer to a state-changing request (the login answer among them).
 * Routes that need another policy set it themselves.
 */
export const noStoreForPrivateAnswers: RequestHandler = (req, res, next) => {
  const unsafe = req.method !== 'GET' && req.method !== 'HEAD';
  if (unsafe || req.headers.authorization !== undefined || hasSessionCookie(req.headers.cookie)) res.setHeader('Cache-Control', 'no-store');
  next();
};
