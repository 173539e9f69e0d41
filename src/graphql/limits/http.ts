import express, { type ErrorRequestHandler } from 'express';
import { LIMIT_CODES, QueryLimitError } from './errors.ts';

/** The /graphql body parser: a document and its variables within `maxBytes`. */
export function graphqlBodyParser(maxBytes: number) {
  return express.json({ limit: maxBytes });
}

/** An oversized /graphql body answered as a GraphQL error with a stable code; other errors go on. */
export function graphqlBodyTooLarge(maxBytes: number): ErrorRequestHandler {
  return (error, _req, res, next) => {
    if ((error as { type?: string }).type !== 'entity.too.large') return next(error);
    const refusal = new QueryLimitError(
      LIMIT_CODES.size,
      `The request body is larger than ${maxBytes} bytes`,
      { max_bytes: maxBytes },
      413,
    );
    res
      .status(refusal.status)
      .json({ errors: [{ message: refusal.message, extensions: { code: refusal.code, status: refusal.status, ...refusal.extra } }] });
  };
}
