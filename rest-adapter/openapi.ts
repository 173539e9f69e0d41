import { isCustom, type Route } from './types.ts';
import { ROLE_ABBREVIATIONS } from '../src/auth/roles.ts';

const toOpenApiPath = (path: string) => path.replace(/:([A-Za-z_]+)/g, '{$1}');

function whoText(roles: Route['roles']): string {
  if (roles === 'public') return 'Public';
  if (roles === 'signed-in') return 'Any signed-in user';
  return roles.map((role) => ROLE_ABBREVIATIONS[role]).join(', ');
}

/** The OpenAPI 3.1 document, generated from the route table. */
export function buildOpenApiDocument(routes: readonly Route[]) {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const route of routes) {
    const openApiPath = toOpenApiPath(route.path);
    const pathParameters = [...route.path.matchAll(/:([A-Za-z_]+)/g)].map(([, name]) => ({
      name,
      in: 'path',
      required: true,
      schema: { type: 'string' },
    }));
    const queryParameters = isCustom(route)
      ? []
      : Object.values(route.variables ?? {})
          .filter((source) => source.from === 'query')
          .map((source) => ({ name: source.name, in: 'query', required: false, schema: { type: 'string' } }));
    const status = String(route.status ?? 200);
    paths[openApiPath] ??= {};
    paths[openApiPath][route.method.toLowerCase()] = {
      summary: route.summary,
      tags: [route.tag],
      'x-roles': route.roles,
      description: `Who: ${whoText(route.roles)}`,
      security: route.roles === 'public' ? [] : [{ bearer: [] }, { cookie: [] }],
      parameters: [...pathParameters, ...queryParameters],
      responses: {
        [status]: { description: status === '204' ? 'No content' : 'Success' },
        default: { description: 'Error', content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } } },
      },
    };
  }
  return {
    openapi: '3.1.0',
    info: { title: 'Violet API', version: '1.0.0', description: 'Purple-team coverage platform. GraphQL at /graphql; this REST layer runs the same resolvers.' },
    servers: [{ url: '/api/v1' }],
    paths,
    components: {
      securitySchemes: {
        bearer: { type: 'http', scheme: 'bearer', description: 'Session token (JWT) or API key (svc_…)' },
        cookie: { type: 'apiKey', in: 'cookie', name: 'svc_token' },
      },
      schemas: {
        Error: {
          type: 'object',
          required: ['detail', 'code'],
          properties: { detail: { oneOf: [{ type: 'string' }, { type: 'object' }] }, code: { type: 'string' } },
        },
      },
    },
  };
}
