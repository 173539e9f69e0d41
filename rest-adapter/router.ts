import express, { type ErrorRequestHandler, type Request } from 'express';
import type { GraphQLSchema } from 'graphql';
import { DomainError, NotFoundError, RequestError } from '../src/errors.ts';
import { domainErrorFrom } from '../src/db/errors.ts';
import type { Services } from '../src/services.ts';
import { routeHandler, type ContextFactory } from './handler.ts';
import { buildOpenApiDocument } from './openapi.ts';
import { routes } from './routes.ts';

const JSON_LIMIT = '1mb';

/** The /api/v1 router: every row of the route table, the OpenAPI document and the error mapping. */
export function restRouter(schema: GraphQLSchema, services: Services, contextFor: ContextFactory) {
  const router = express.Router();
  router.use(express.json({ limit: JSON_LIMIT }));
  router.use(express.urlencoded({ extended: false, limit: JSON_LIMIT }));

  const openApi = buildOpenApiDocument(routes, schema);
  router.get('/openapi.json', (_req, res) => void res.json(openApi));

  for (const route of routes) {
    router[route.method.toLowerCase() as 'get'](route.path, routeHandler(schema, route, contextFor));
  }
  router.use((req: Request) => {
    throw new NotFoundError('Route', `${req.method} ${req.baseUrl}${req.path}`);
  });
  router.use(restErrorHandler(services));
  return router;
}

function restErrorHandler(services: Services): ErrorRequestHandler {
  return (error, req, res, _next) => {
    const domain = domainErrorFrom(error) ?? bodyParserError(error);
    if (domain) {
      if ('retryAfterSeconds' in domain) res.setHeader('Retry-After', String(domain.retryAfterSeconds));
      res.status(domain.status).json(domain.restBody());
      return;
    }
    const requestId = String(req.id ?? '');
    services.log.error({ err: error, requestId, method: req.method, url: req.originalUrl }, 'unexpected error');
    res.status(500).json({ detail: 'Internal server error', code: 'INTERNAL_SERVER_ERROR', request_id: requestId });
  };
}

/** Malformed JSON, oversized bodies and the like, as raised by Express' body parsers. */
function bodyParserError(error: unknown): DomainError | null {
  const status = (error as { status?: number; type?: string }).status;
  if (!status || status < 400 || status >= 500) return null;
  const type = (error as { type?: string }).type;
  const message = type === 'entity.parse.failed' ? 'The request body is not valid JSON' : (error as Error).message;
  return new RequestError(status, type === 'entity.too.large' ? 'PAYLOAD_TOO_LARGE' : 'BAD_REQUEST', message);
}
