import express, { type RequestHandler } from 'express';
import { requireMediaType } from '../src/http/content-type.ts';
import { isCustom, type CustomRoute, type Route } from './types.ts';

type RequestType = NonNullable<CustomRoute['requestType']>;

const BODY_LIMIT = '1mb';

const keepRawBody = (req: object, _res: unknown, buffer: Buffer) => {
  (req as { rawBody?: Buffer }).rawBody = buffer;
};

/** The media type a route reads its body as: what the row declares, JSON otherwise. */
export function requestTypeOf(route: Route): RequestType {
  return (isCustom(route) && route.requestType) || 'application/json';
}

/**
 * The body handling a row declares: a body of another media type is refused with 415 before anything reads it,
 * and only the declared type is parsed. Multipart bodies are streamed by the route's own handler.
 */
export function bodyReaders(route: Route): RequestHandler[] {
  if (route.method === 'GET') return [];
  const type = requestTypeOf(route);
  const limit = (isCustom(route) && route.bodyLimit) || BODY_LIMIT;
  const verify = isCustom(route) && route.rawBody ? keepRawBody : undefined;
  const readers: Record<RequestType, RequestHandler[]> = {
    'application/json': [express.json({ limit, verify })],
    'application/x-www-form-urlencoded': [express.urlencoded({ extended: false, limit })],
    'multipart/form-data': [],
  };
  return [requireMediaType(type), ...readers[type]];
}
