import { randomUUID } from 'node:crypto';
import type { RequestHandler } from 'express';
import type { Logger } from '../logger.ts';

declare module 'node:http' {
  interface IncomingMessage {
    /** The request's id: a valid incoming X-Request-Id, else a new UUID. */
    id: string;
    /** The service's logger, every line bound to the request's id. */
    log: Logger;
  }
}

/** An incoming X-Request-Id is kept when it is a plain token of at most 64 characters. */
const REQUEST_ID = /^[A-Za-z0-9._-]{1,64}$/;

/** Polled by load balancers: answered, never logged. */
const QUIET_PATHS = new Set(['/api/v1/system/health']);

/**
 * Request ids and the request log. Each request gets its id, answered in X-Request-Id, and `req.log`, the service's
 * logger bound to it; once answered, one line at info level (`request completed`, or `request errored` at error
 * level for a 5xx) with the method, the path, the status and the time taken. Nothing is built for a line the level
 * drops: a logger per request that serialised the request's headers whatever the level cost every request its share.
 */
export function requestLog(log: Logger): RequestHandler {
  return (req, res, next) => {
    const given = req.headers['x-request-id'];
    const id = typeof given === 'string' && REQUEST_ID.test(given) ? given : randomUUID();
    req.id = id;
    req.log = log.child({ reqId: id });
    res.setHeader('X-Request-Id', id);
    if (QUIET_PATHS.has(req.url)) {
      next();
      return;
    }
    const started = performance.now();
    res.once('finish', () => {
      const failed = res.statusCode >= 500;
      if (!log.isLevelEnabled(failed ? 'error' : 'info')) return;
      const line = {
        req: { method: req.method, url: req.originalUrl },
        res: { statusCode: res.statusCode },
        responseTime: Math.round(performance.now() - started),
      };
      if (failed) req.log.error(line, 'request errored');
      else req.log.info(line, 'request completed');
    });
    next();
  };
}
