import { beforeAll, describe, expect, it } from 'vitest';
import { routes } from './routes.ts';
import { useTestApp } from '../test/helpers/app.ts';
import { restFieldName } from './aliases.ts';
import { snakeToCamel } from '../src/naming.ts';

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
    expect(audit.limit).toMatchObject({ in: 'query', required: false, schema: { type: 'integer', minimum: 1, maximum: 100, default: 50 } });
    expect(audit.offset.schema).toMatchObject({ type: 'integer', minimum: 0 });
    expect(audit.user_id.schema).toEqual({ type: 'string', format: 'uuid' });
    expect(audit.start_date.schema).toEqual({ type: 'string', format: 'date-time' });
    expect(operation('GET', '/techniques/:ttp_id').parameters).toEqual([
      { name: 'ttp_id', in: 'path', required: true, description: 'The ttp id', schema: { type: 'string' } },
    ]);
  });

  it('describes JSON bodies from the GraphQL input type, in snake_case with the required fields', () => {
    const body = operation('POST', '/techniques').requestBody;
    expect(body.required).toBe(true);
    const ref = body.content['application/json'].schema.$ref as string;
    const input = document.components.schemas[ref.split('/').pop()!];
    expect(input.required).toEqual(['name', 'ttp_id']);
    expect(Object.keys(input.properties)).toEqual(expect.arrayContaining(['ttp_id', 'platforms', 'tactic']));
    // Optional, but null is refused: only fields whose description gives null a meaning admit it.
    expect(input.properties.platforms).toMatchObject({ type: 'array', items: { type: 'string' } });
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

  it('lists the 4xx answers of each operation with the codes of the error catalogue', () => {
    const update = operation('PATCH', '/campaigns/:id').responses;
    expect(Object.keys(update)).toEqual(expect.arrayContaining(['200', '400', '401', '403', '404', '409', '413', '415', '429']));
    expect(update['403'].content['application/json'].schema.allOf[1].properties.code.enum).toEqual(
      expect.arrayContaining(['FORBIDDEN', 'CSRF_REJECTED']),
    );
    const read = operation('GET', '/audit-logs').responses;
    expect(Object.keys(read)).not.toContain('415');
    expect(read['400'].content['application/json'].schema.allOf[1].properties.code.enum).toEqual(['VALIDATION_ERROR']);
    expect(operation('POST', '/auth/login').responses['401'].content['application/json'].schema.allOf[1].properties.code.enum).toEqual([
      'INVALID_CREDENTIALS',
    ]);
  });

  it('declares the media types of file answers', () => {
    expect(Object.keys(operation('GET', '/reports/coverage-csv').responses['200'].content)).toEqual(['text/csv']);
    expect(Object.keys(operation('GET', '/reports/generate/coverage-summary').responses['200'].content)).toEqual([
      'application/pdf',
      'application/json',
    ]);
  });
});

/** A name the REST naming gives a record id: `id`, `*_id(s)`, or a reference named by its relation (`created_by`, `assigned_to`, `retest_of`). */
const namesRecordId = (name: string) =>
  name === 'id' || /_ids?$/.test(name) || (restFieldName(`${snakeToCamel(name)}Id`) === name && name.includes('_'));

/** Ids that are not uuids, as `<operation> <where>` patterns, with the reason. */
const NOT_UUIDS: [RegExp, string][] = [
  [/[ ._](ttp_ids?|ttp_technique_id|attack_ids?)$/, 'ATT&CK ids (T1059.001)'],
  [
    /\b(stix_id|external_id|rule_external_id|d3fend_id|control_id|tactic_id)$/,
    'ids at the source: STIX, ATT&CK, Sigma, D3FEND, compliance controls',
  ],
  [/(tactic|by_tactic\[\])\.id$/, 'tactics are keyed by their ATT&CK id (TA0005)'],
  [/^\S+ \/detection-rules\S* (res|body)\S*\.technique_ids$/, "ATT&CK ids of a Sigma rule's tags"],
  [/\bentity_id$/, 'audit and notification subjects: any kind of entity, some keyed by name'],
  [/\b(tracker_account_id|assignee_account_id|name_id|idp_entity_id|sp_entity_id)$/, 'accounts at an issue tracker and SAML identities'],
  [/\b(job_id|jobs\[\]\.id)$/, 'queue job ids and scheduled job names'],
  [/\bdate_to$/, 'a date, not a reference'],
  [/ (body\S*|param)[. ]technique_ids?$/, 'a technique reference takes its uuid or its ATT&CK id (docs/decisions.md)'],
  [
    /^GET \/(threat-actors|scores\/threat-actor|countermeasures|compliance|reports\/generate\/\S+)\/\S* param (id|framework_id)$|^\S+ \/data-sources\/\{id\}\S* param id$|from-threat-actor\/\{actor_id\} param actor_id$/,
    'path ids that also take a key: group id, D3FEND id, framework key, source kind, ttp id',
  ],
];

/** Every id-named property or parameter of the served document whose schema is not a uuid, as `<operation> <where>`. */
function idsWithoutUuidFormat(): string[] {
  const found: string[] = [];
  const resolve = (schema: any): any => (schema?.$ref ? document.components.schemas[schema.$ref.split('/').pop()] : schema);
  const leaves = (schema: any): any[] => {
    const resolved = resolve(schema);
    if (!resolved || resolved.properties) return [];
    if (resolved.anyOf) return resolved.anyOf.flatMap(leaves);
    if (resolved.items) return leaves(resolved.items);
    return resolved.type === 'null' ? [] : [resolved];
  };
  const walk = (schema: any, where: string, at: string, seen: Set<unknown>) => {
    const resolved = resolve(schema);
    if (!resolved || typeof resolved !== 'object' || seen.has(resolved)) return;
    seen.add(resolved);
    for (const inner of resolved.anyOf ?? []) walk(inner, where, at, seen);
    if (resolved.items) walk(resolved.items, `${where}[]`, at, seen);
    for (const [name, property] of Object.entries<any>(resolved.properties ?? {})) {
      if (namesRecordId(name) && leaves(property).some((leaf) => leaf.format !== 'uuid')) found.push(`${at} ${where}.${name}`);
      walk(property, `${where}.${name}`, at, seen);
    }
  };
  for (const [path, operations] of Object.entries<any>(document.paths)) {
    for (const [method, described] of Object.entries<any>(operations)) {
      const at = `${method.toUpperCase()} ${path}`;
      for (const parameter of described.parameters ?? [])
        if (namesRecordId(parameter.name) && parameter.schema.format !== 'uuid') found.push(`${at} param ${parameter.name}`);
      for (const media of Object.values<any>(described.requestBody?.content ?? {})) walk(media.schema, 'body', at, new Set());
      for (const media of Object.values<any>(described.responses[Object.keys(described.responses)[0]].content ?? {}))
        walk(media.schema, 'res', at, new Set());
    }
  }
  return found;
}

describe('ids in the OpenAPI document', () => {
  it('declares format uuid on every record id: parameters, bodies and answers at every depth', () => {
    const unexplained = idsWithoutUuidFormat().filter((location) => !NOT_UUIDS.some(([pattern]) => pattern.test(location)));
    expect(unexplained).toEqual([]);
  });

  it('marks nested records, references and lists of ids, and leaves outside ids alone', () => {
    const answer = (method: string, path: string) =>
      operation(method, path).responses[Object.keys(operation(method, path).responses)[0]].content['application/json'].schema;
    const validation = answer('POST', '/detection-lifecycle/validations').properties;
    expect(validation.technique.properties.id).toMatchObject({ type: 'string', format: 'uuid' });
    expect(validation.technique.properties.ttp_id).toEqual(expect.not.objectContaining({ format: 'uuid' }));
    const execution = answer('GET', '/executions/:id').properties;
    expect(execution.created_by).toMatchObject({ format: 'uuid' });
    const change = answer('POST', '/detection-lifecycle/infrastructure-changes').properties;
    expect(change.technique_ids).toMatchObject({ type: 'array', items: { type: 'string', format: 'uuid' } });
    const alert = answer('GET', '/alerts/:id').properties;
    expect(alert.subject).toEqual(expect.not.objectContaining({ format: 'uuid' }));
    expect(operation('GET', '/evidence/:id/download').parameters[0].schema).toEqual({ type: 'string', format: 'uuid' });
    expect(operation('GET', '/threat-actors/:id').parameters[0].schema).toEqual({ type: 'string' });
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
