import type { IncomingMessage } from 'node:http';
import type { RequestHandler } from 'express';
import { RequestError } from '../errors.ts';

/** A body was sent: chunked, or a Content-Length above zero (clients send `Content-Length: 0` with none). */
export function hasBody(req: IncomingMessage): boolean {
  if (req.headers['transfer-encoding'] !== undefined) return true;
  const length = Number(req.headers['content-length']);
  return Number.isFinite(length) && length > 0;
}

export function unsupportedMediaType(accepted: string): RequestError {
  return new RequestError('UNSUPPORTED_MEDIA_TYPE', `The request body must be ${accepted}`);
}

/**
 * Refuses a body of any other media type than `accepted` with 415. Only JSON (and the few forms the interface
 * names) is read: a form or text/plain body is what another site can send without a CORS preflight.
 */
export function requireMediaType(accepted: string): RequestHandler {
  return (req, _res, next) => {
    next(hasBody(req) && !req.is(accepted) ? unsupportedMediaType(accepted) : undefined);
  };
}
