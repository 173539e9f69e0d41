import type { RequestHandler } from 'express';
import type { Services } from '../services.ts';

const LOOPBACK = /^(127\.|::1$|::ffff:127\.)/;

/** Once per process: the condition is a deployment setting, not something each request needs to repeat. */
let warned = false;

/**
 * Warns once when a same-host proxy seems to forward requests while `TRUST_PROXY` is unset: every client then
 * appears as loopback, so the login throttle sees one address (and, with the default loopback exemption,
 * throttles nobody).
 */
export function warnOnUntrustedProxy(services: Pick<Services, 'config' | 'log'>): RequestHandler {
  const proxyTrusted = services.config.TRUST_PROXY !== 'false';
  return (req, _res, next) => {
    if (!warned && !proxyTrusted && req.headers['x-forwarded-for'] !== undefined && LOOPBACK.test(req.socket.remoteAddress ?? '')) {
      warned = true;
      services.log.warn(
        { exemptLoopback: services.config.RATE_LIMIT_EXEMPT_LOOPBACK },
        'a loopback request carries X-Forwarded-For but TRUST_PROXY is not set: behind this proxy every client looks like ' +
          '127.0.0.1, so login throttling cannot tell clients apart (and loopback is exempt by default); set TRUST_PROXY',
      );
    }
    next();
  };
}
