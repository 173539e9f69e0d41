import { Ajv2020 } from 'ajv/dist/2020.js';
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { lintOpenApi } from '../rest-adapter/spectral.ts';
import { useTestApp } from './helpers/app.ts';

/**
 * The served OpenAPI document as a contract: for every operation, requests generated from it (fast-check, fixed
 * seed) are answered with a declared status and a body of the declared schema, and invalid ones (bad ids, wrong
 * types, limits out of range, unknown enum values, missing fields) with a declared 4xx `{detail, code}`, never a 5xx.
 */
type Schema = Record<string, any>;
const app = useTestApp();
let document: any;
let token: string;
const ajv = new Ajv2020({ strict: false })
  .addFormat('uuid', /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i)
  .addFormat('date-time', (value: string) => !Number.isNaN(Date.parse(value)))
  .addFormat('binary', () => true);
const validators = new Map<Schema, ReturnType<typeof ajv.compile>>();

// Operations that end the session others rely on, or read sources on the Internet (a 502 offline).
const SKIPPED =
  /^(POST \/auth\/(logout|change-password|login)|GET \/sso\/(login|link)|POST \/sso\/callback|POST \/tests\/\{id\}\/evidence|POST .*sync.*)$/;

const resolve = (schema: Schema): Schema => (schema?.$ref ? resolve(document.components.schemas[schema.$ref.split('/').pop()]) : schema);

/** Values a JSON Schema admits (shallowly: enough for ids, enums, bounded integers, objects of these). */
function valid(raw: Schema, depth = 0): fc.Arbitrary<unknown> {
  const schema = resolve(raw);
  if (!schema || depth > 3) return fc.constant(undefined);
  if (schema.anyOf) return fc.oneof(...schema.anyOf.map((part: Schema) => valid(part, depth)));
  if (schema.allOf) return valid(schema.allOf[0], depth);
  if (schema.enum) return fc.constantFrom(...schema.enum);
  const types: string[] = [schema.type ?? []].flat();
  const type = types.find((candidate) => candidate !== 'null') ?? 'string';
  const withNull = (arbitrary: fc.Arbitrary<unknown>) => (types.includes('null') ? fc.oneof(arbitrary, fc.constant(null)) : arbitrary);
  switch (type) {
    case 'integer':
      return withNull(fc.integer({ min: schema.minimum ?? 0, max: schema.maximum ?? 100 }));
    case 'number':
      return withNull(fc.double({ min: schema.minimum ?? 0, max: schema.maximum ?? 100, noNaN: true }));
    case 'boolean':
      return withNull(fc.boolean());
    case 'array':
      return withNull(fc.array(valid(schema.items ?? {}, depth + 1), { maxLength: 2 }));
    case 'object': {
      const properties = Object.entries<Schema>(schema.properties ?? {});
      const required: string[] = schema.required ?? [];
      const shape: Record<string, fc.Arbitrary<unknown>> = Object.fromEntries(
        properties.map(([name, property]) => [name, valid(property, depth + 1)]),
      );
      return withNull(fc.record(shape, { requiredKeys: required.filter((name) => name in shape) }));
    }
    default:
      if (schema.format === 'uuid') return withNull(fc.uuid());
      if (schema.format === 'date-time')
        return withNull(
          fc.date({ min: new Date('2020-01-01'), max: new Date('2030-01-01'), noInvalidDate: true }).map((date) => date.toISOString()),
        );
      return withNull(fc.stringMatching(/^[a-z][a-z0-9]{0,11}$/));
  }
}

/** A value the schema refuses, with what makes it wrong. */
function invalid(raw: Schema): fc.Arbitrary<unknown> | null {
  const schema = resolve(raw);
  if (!schema) return null;
  if (schema.enum) return fc.constant('not_a_declared_value');
  const types: string[] = [schema.type ?? []].flat();
  if (schema.format === 'uuid') return fc.constantFrom('not-a-uuid', '1234', 'zzzzzzzz-zzzz-zzzz-zzzz-zzzzzzzzzzzz');
  if (types.includes('integer'))
    return schema.maximum !== undefined ? fc.constantFrom(schema.maximum + 1, -1, 'ten') : fc.constantFrom('ten', 1.5);
  if (types.includes('boolean')) return fc.constant('maybe');
  return null;
}

interface Operation {
  method: string;
  path: string;
  spec: any;
}

const operations = (): Operation[] =>
  Object.entries<any>(document.paths).flatMap(([path, item]) =>
    Object.entries<any>(item).map(([method, spec]) => ({ method: method.toUpperCase(), path, spec })),
  );

const label = (operation: Operation) => `${operation.method} ${operation.path}`;

async function call(operation: Operation, pathValues: Record<string, unknown>, query: Record<string, unknown>, body?: unknown) {
  const path = operation.path.replace(/\{(\w+)\}/g, (_, name) => encodeURIComponent(String(pathValues[name])));
  const search = new URLSearchParams(
    Object.entries(query)
      .filter(([, value]) => value !== undefined && value !== null)
      .map(([name, value]) => [name, Array.isArray(value) ? value.join(',') : String(value)]),
  ).toString();
  const send = () => app.api(operation.method, `${path}${search ? `?${search}` : ''}`, { token, ...(body !== undefined ? { body } : {}) });
  // A kept-alive connection the server closed while idle fails once; the request itself was not sent.
  return send().catch(send);
}

/** The declared schema of an answer, or why the answer is not declared. */
function check(operation: Operation, status: number, body: unknown, contentType: string | null): string | null {
  if (status >= 500) return `${label(operation)} answered ${status}: ${JSON.stringify(body)}`;
  const declared = operation.spec.responses[String(status)];
  if (!declared) return `${label(operation)} answered an undeclared ${status}: ${JSON.stringify(body)}`;
  const response = declared.$ref ? document.components.responses[declared.$ref.split('/').pop()] : declared;
  const media = contentType?.split(';')[0] ?? null;
  if (!response.content) return null;
  if (media && !response.content[media]) return `${label(operation)} answered ${status} as undeclared ${media}`;
  const schema = media && response.content[media]?.schema;
  if (!schema || media !== 'application/json') return null;
  let validate = validators.get(schema);
  if (!validate) validators.set(schema, (validate = ajv.compile({ ...schema, components: document.components })));
  return validate(body)
    ? null
    : `${label(operation)} ${status} does not match its schema: ${ajv.errorsText(validate.errors)} in ${JSON.stringify(body).slice(0, 300)}`;
}

beforeAll(async () => {
  document = (await app.api('GET', '/openapi.json')).body;
  token = await app.tokenFor('admin');
  // With an address of its own, `to: null` of the test e-mail means "to me" rather than a missing address.
  const me = (await app.api('GET', '/auth/me', { token })).body;
  await app.services.prisma.user.update({ where: { id: me.id }, data: { email: 'contract@example.com' } });
});

describe('the OpenAPI contract', () => {
  it('passes Spectral’s OpenAPI ruleset with no errors and no warnings', async () => {
    const results = await lintOpenApi(document);
    expect(results.map((result) => `${result.code} ${result.path.join('.')}: ${result.message}`)).toEqual([]);
  }, 60_000);

  it('answers generated valid requests with a declared status and body', async () => {
    const problems: string[] = [];
    const statuses = new Map<number, number>();
    for (const operation of operations()) {
      if (SKIPPED.test(label(operation))) continue;
      const parameters: any[] = operation.spec.parameters ?? [];
      const pathArbitrary = fc.record(Object.fromEntries(parameters.filter((p) => p.in === 'path').map((p) => [p.name, valid(p.schema)])));
      const queryShape: Record<string, fc.Arbitrary<unknown>> = Object.fromEntries(
        parameters.filter((p) => p.in === 'query').map((p) => [p.name, valid(p.schema)]),
      );
      const queryArbitrary = fc.record(queryShape, {
        requiredKeys: parameters.filter((p) => p.in === 'query' && p.required).map((p) => p.name as string),
      });
      const bodySchema = operation.spec.requestBody?.content?.['application/json']?.schema;
      const bodyArbitrary = bodySchema ? valid(bodySchema) : fc.constant(undefined);
      const started = Date.now();
      await fc.assert(
        fc.asyncProperty(pathArbitrary, queryArbitrary, bodyArbitrary, async (pathValues, query, body) => {
          const response = await call(operation, pathValues, query, body);
          statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
          const problem = check(operation, response.status, response.body, response.headers.get('content-type'));
          if (problem) problems.push(problem);
        }),
        { numRuns: 2, seed: 42, endOnFailure: true },
      );
      if (process.env.CONTRACT_TIMES) console.log(Date.now() - started, label(operation));
    }
    if (process.env.CONTRACT_TIMES) console.log([...statuses].sort());
    expect([...new Set(problems)]).toEqual([]);
  }, 180_000);

  it('refuses generated invalid parameters with a declared 4xx and a {detail, code} body', async () => {
    const problems: string[] = [];
    for (const operation of operations()) {
      if (SKIPPED.test(label(operation))) continue;
      const parameters: any[] = operation.spec.parameters ?? [];
      const pathValues = Object.fromEntries(
        parameters.filter((p) => p.in === 'path').map((p) => [p.name, fc.sample(valid(p.schema), { seed: 7, numRuns: 1 })[0]]),
      );
      for (const parameter of parameters) {
        const wrong = invalid(parameter.schema);
        if (!wrong) continue;
        const [value] = fc.sample(wrong, { seed: 42, numRuns: 1 });
        const response =
          parameter.in === 'path'
            ? await call(operation, { ...pathValues, [parameter.name]: value }, {})
            : await call(operation, pathValues, { [parameter.name]: value });
        const problem = check(operation, response.status, response.body, response.headers.get('content-type'));
        if (problem) problems.push(problem);
        else if (response.status < 400 || typeof response.body?.detail === 'undefined' || typeof response.body?.code !== 'string')
          problems.push(`${label(operation)} took ${parameter.name}=${JSON.stringify(value)}: ${response.status}`);
      }
      const body = operation.spec.requestBody?.content?.['application/json']?.schema;
      if (body && operation.spec.requestBody.required && resolve(body).required?.length) {
        for (const wrongBody of [{}, [], 'text', { [resolve(body).required[0]]: { nested: true } }]) {
          const response = await call(operation, pathValues, {}, wrongBody);
          const problem = check(operation, response.status, response.body, response.headers.get('content-type'));
          if (problem) problems.push(problem);
          else if (response.status < 400 || typeof response.body?.code !== 'string')
            problems.push(`${label(operation)} took the body ${JSON.stringify(wrongBody)}: ${response.status}`);
        }
      }
    }
    expect([...new Set(problems)]).toEqual([]);
  }, 120_000);

  it('takes null in every body field it declares nullable', async () => {
    const problems: string[] = [];
    for (const operation of operations()) {
      if (SKIPPED.test(label(operation))) continue;
      const body = resolve(operation.spec.requestBody?.content?.['application/json']?.schema);
      const path = operation.path.replace(/\{\w+\}/g, '00000000-0000-4000-8000-000000000000');
      for (const [name, property] of Object.entries<Schema>(body?.properties ?? {})) {
        const nullable = [property.type ?? []].flat().includes('null') || property.anyOf?.some((part: Schema) => part.type === 'null');
        if (!nullable) continue;
        const response = await app.api(operation.method, path, { token, body: { [name]: null } });
        if (response.status >= 500 || (response.status === 400 && response.body?.field === name))
          problems.push(`${label(operation)} refuses ${name}: null (${response.status} ${response.body?.detail})`);
      }
    }
    expect(problems).toEqual([]);
  }, 60_000);
});
