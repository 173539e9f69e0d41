import { beforeAll, describe, expect, it } from 'vitest';
import { routes } from './routes.ts';
import { useTestApp } from '../test/helpers/app.ts';

let document: any;

const app = useTestApp();

beforeAll(async () => {
  document = (await app.api('GET', '/openapi.json')).body;
});

const openApiPath = (path: string) => path.replace(/:([A-Za-z_]+)/g, '{$1}');
const operation = (method: string, path: string) => document.paths[openApiPath(path)]?.[method.toLowerCase()];

describe('the OpenAPI document', () => {
  it('is OpenAPI 3.1 and lists every route of the table with its method, roles and a unique operation id', () => {
    expect(document.openapi).toMatch(/^3\.1\./);
    for (const route of routes) {
      const described = operation(route.method, route.path);
      expect(described, `${route.method} ${route.path}`).toBeDefined();
      expect(described['x-roles']).toEqual(route.roles);
      expect(described.responses[String(route.status ?? 200)]).toBeDefined();
    }
    const ids = routes.map((route) => operation(route.method, route.path).operationId);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('lists the 429 of the rate limits on every route, with the budget it draws from and the IETF headers', () => {
    for (const route of routes) {
      const described = operation(route.method, route.path);
      const budget = route.expensive ? 'expensive' : route.method === 'GET' ? 'reads' : 'writes';
      expect(described['x-rate-limit-budget'], `${route.method} ${route.path}`).toBe(budget);
      expect(described.responses['429']).toEqual({ $ref: '#/components/responses/RateLimited' });
    }
    expect(Object.keys(document.components.responses.RateLimited.headers)).toEqual(['Retry-After', 'RateLimit', 'RateLimit-Policy']);
  });

  it('types query parameters from the GraphQL variables of the row', () => {
    const parameters = Object.fromEntries(operation('GET', '/techniques').parameters.map((p: any) => [p.name, p]));
    expect(parameters.review_required.schema).toEqual({ type: 'boolean' });
    expect(parameters.status.schema).toMatchObject({ type: 'string', enum: expect.arrayContaining(['validated', 'not_covered']) });
    const audit = Object.fromEntries(operation('GET', '/audit-logs').parameters.map((p: any) => [p.name, p]));
    expect(audit.limit).toMatchObject({ in: 'query', required: false, schema: { type: 'integer' } });
    expect(audit.start_date.schema).toEqual({ type: 'string', format: 'date-time' });
    expect(operation('GET', '/techniques/:ttp_id').parameters).toEqual([
      { name: 'ttp_id', in: 'path', required: true, schema: { type: 'string' } },
    ]);
  });

  it('describes JSON bodies from the GraphQL input type, in snake_case with the required fields', () => {
    const body = operation('POST', '/techniques').requestBody;
    expect(body.required).toBe(true);
    const ref = body.content['application/json'].schema.$ref as string;
    const input = document.components.schemas[ref.split('/').pop()!];
    expect(input.required).toEqual(['name', 'ttp_id']);
    expect(Object.keys(input.properties)).toEqual(expect.arrayContaining(['ttp_id', 'platforms', 'tactic']));
    expect(input.properties.platforms).toMatchObject({ type: ['array', 'null'], items: { type: 'string' } });
    const review = operation('PATCH', '/techniques/:ttp_id/review').requestBody.content['application/json'].schema;
    expect(review).toEqual({ type: 'object', properties: { review_required: { type: ['boolean', 'null'] } } });
  });

  it('describes custom rows by their declared media type and documented variables', () => {
    const login = operation('POST', '/auth/login').requestBody.content['application/x-www-form-urlencoded'].schema;
    expect(login).toMatchObject({
      properties: { username: { type: 'string' }, password: { type: 'string' } },
      required: ['username', 'password'],
    });
    expect(operation('POST', '/auth/logout').requestBody).toBeUndefined();
  });

  it('describes responses from the selection set: aliases as names, types from the schema', () => {
    const technique = operation('GET', '/techniques/:ttp_id').responses['200'].content['application/json'].schema;
    expect(technique.properties).toMatchObject({
      ttp_id: { type: 'string' },
      review_required: { type: 'boolean' },
      tactic: { type: ['string', 'null'] },
      created_at: { type: 'string', format: 'date-time' },
    });
    const auditPage = operation('GET', '/audit-logs').responses['200'].content['application/json'].schema;
    expect(auditPage.required).toEqual(['items', 'total', 'offset', 'limit']);
    expect(auditPage.properties.items.items.properties).toHaveProperty('entity_type');
    const unread = operation('GET', '/notifications/unread-count').responses['200'].content['application/json'].schema;
    expect(unread).toEqual({ type: 'object', properties: { unread_count: { type: 'integer' } }, required: ['unread_count'] });
    expect(operation('GET', '/audit-logs/actions').responses['200'].content['application/json'].schema).toEqual({
      type: 'array',
      items: { type: 'string' },
    });
  });
});

describe('the docs page', () => {
  it('serves Swagger UI whose assets all load from this server', async () => {
    const response = await fetch(`${app.url}/api/v1/docs`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-security-policy')).toContain("default-src 'self'");
    const html = await response.text();
    const assets = [...html.matchAll(/(?:src|href)="([^"]+)"/g)].map(([, url]) => url);
    expect(assets.length).toBeGreaterThanOrEqual(2);
    for (const asset of assets) {
      expect(asset, 'a local path, no CDN').toMatch(/^\/[^/]/);
      const loaded = await fetch(`${app.url}${asset}`);
      expect(loaded.status, asset).toBe(200);
      expect((await loaded.arrayBuffer()).byteLength).toBeGreaterThan(1000);
    }
    expect(html).toContain('/api/v1/openapi.json');
  });
});
