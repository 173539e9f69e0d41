import type { ErrorRequestHandler, Request, RequestHandler } from 'express';
import { domainErrorFrom } from '../db/errors.ts';
import { type DomainError, type ErrorCode, NotFoundError, RequestError } from '../errors.ts';
import type { Logger } from '../logger.ts';

/** The catalogue code of a body parser's or static file's refusal by its status, else BAD_REQUEST. */
const BODY_PARSER_CODES: Record<number, ErrorCode> = {
  403: 'FORBIDDEN',
  404: 'NOT_FOUND',
  413: 'PAYLOAD_TOO_LARGE',
  415: 'UNSUPPORTED_MEDIA_TYPE',
};

/** Malformed JSON, oversized bodies and the like, as raised by Express' body parsers. */
export function bodyParserError(error: unknown): DomainError | null {
  const status = (error as { status?: number; type?: string }).status;
  if (!status || status < 400 || status >= 500) return null;
  const type = (error as { type?: string }).type;
  const message = type === 'entity.parse.failed' ? 'The request body is not valid JSON' : (error as Error).message;
  return new RequestError(BODY_PARSER_CODES[status] ?? 'BAD_REQUEST', message, status);
}

/** The 4xx a request error stands for (domain errors, body parsers, static files), or null for an internal one. */
function clientError(error: unknown): DomainError | null {
  return domainErrorFrom(error) ?? bodyParserError(error);
}

/**
 * Errors raised before Apollo runs on /graphql (cross-site refusal, media type, body parsing), answered in
 * the GraphQL response shape so GraphQL clients can read them.
 */
export function graphqlHttpErrors(): ErrorRequestHandler {
  return (error, _req, res, next) => {
    const known = clientError(error);
    if (!known) return next(error);
    res.status(known.status).json({ errors: [{ message: known.message, extensions: { code: known.code, status: known.status } }] });
  };
}

/** Anything no route answered: JSON, never Express' HTML page. */
export const notFoundAsJson: RequestHandler = (req: Request) => {
  throw new NotFoundError('Route', `${req.method} ${req.path}`);
};

/** The last error handler of the server: `{detail, code}` JSON for everything, no stack traces. */
export function finalErrorHandler(log: Logger): ErrorRequestHandler {
  return (error, req, res, _next) => {
    if (res.headersSent) {
      res.destroy();
      return;
    }
    const known = clientError(error);
    if (known) {
      res.status(known.status).json(known.restBody());
      return;
    }
    const requestId = String(req.id ?? '');
    log.error({ err: error, requestId, method: req.method, url: req.originalUrl }, 'unexpected error');
    res.status(500).json({ detail: 'Internal server error', code: 'INTERNAL_SERVER_ERROR', request_id: requestId });
  };
}
