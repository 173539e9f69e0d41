import express, { type ErrorRequestHandler, type Request } from 'express';
import type { GraphQLSchema } from 'graphql';
import { NotFoundError } from '../src/errors.ts';
import { domainErrorFrom } from '../src/db/errors.ts';
import type { GraphqlLimits } from '../src/graphql/limits/rules.ts';
import { refuseCrossSite } from '../src/http/csrf.ts';
import { bodyParserError } from '../src/http/errors.ts';
import type { OriginPolicy } from '../src/http/origin.ts';
import type { Services } from '../src/services.ts';
import { bodyReaders } from './body.ts';
import { routeHandler, type ContextFactory } from './handler.ts';
import { buildOpenApiDocument } from './openapi.ts';
import { snakePath } from '../src/naming.ts';
import { routes } from './routes.ts';

/**
 * The /api/v1 router: every row of the route table, the OpenAPI document and the error mapping. Unsafe
 * cross-site requests are refused (`origins`) before a body is read, on every row but those that declare
 * `crossSiteAllowed`.
 */
export function restRouter(
  schema: GraphQLSchema,
  services: Services,
  contextFor: ContextFactory,
  origins: OriginPolicy,
  limits?: GraphqlLimits,
) {
  const router = express.Router();

  // Built at the first request, not at start: it walks every row's document again (a second or more of CPU).
  let openApi: ReturnType<typeof buildOpenApiDocument> | undefined;
  router.get('/openapi.json', (_req, res) => void res.json((openApi ??= buildOpenApiDocument(routes, schema))));

  const sameSiteOnly = refuseCrossSite(origins);
  for (const route of routes) {
    const guards = route.crossSiteAllowed ? [] : [sameSiteOnly];
    router[route.method.toLowerCase() as 'get'](
      route.path,
      ...guards,
      ...bodyReaders(route),
      routeHandler(schema, route, contextFor, limits),
    );
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
      res.status(domain.status).json(domain.restBody(snakePath));
      return;
    }
    const requestId = String(req.id ?? '');
    services.log.error({ err: error, requestId, method: req.method, url: req.originalUrl }, 'unexpected error');
    res.status(500).json({ detail: 'Internal server error', code: 'INTERNAL_SERVER_ERROR', request_id: requestId });
  };
}
