import { randomUUID } from 'node:crypto';
import { getNamedType, isInputObjectType, isNonNullType, type GraphQLArgument, type GraphQLField, type GraphQLObjectType } from 'graphql';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildOpenApiDocument } from '../../rest-adapter/openapi.ts';
import { routes } from '../../rest-adapter/routes.ts';
import { schema } from './schema.ts';
import { useTestApp } from '../../test/helpers/app.ts';
import { operationOn, sampleInput } from '../../test/helpers/graphql-inputs.ts';

/**
 * Every input of every REST row and GraphQL root field, fed a corpus of hostile values as an admin (so the
 * input reaches the deepest code): nothing may answer 5xx, and every refusal is a JSON error body. The inputs
 * come from the OpenAPI document, which is generated from the route table, and from the schema itself.
 */

const deep = (levels: number, leaf: unknown = 1): unknown => {
  let value = leaf;
  for (let level = 0; level < levels; level += 1) value = [value];
  return value;
};

/** Values sent in JSON bodies and GraphQL variables (JSON.stringify writes a lone surrogate as `\ud800`). */
const JSON_CORPUS: readonly unknown[] = [
  'not-a-uuid',
  '00000000-0000-0000-0000-00000000000g',
  "1' OR '1'='1",
  'nul\u0000byte',
  '\ud800',
  'tail\udfff',
  'x'.repeat(10_240),
  '%',
  '_',
  '\\',
  'trailing\\',
  '\u202egnp.exe',
  '😀👍🏽',
  'e\u0301\u0301\u0301',
  '',
  -1,
  1e308,
  2 ** 53 + 1,
  3.5,
  true,
  null,
  {},
  { $gt: '' },
  [],
  ['a', 'b'],
  deep(100),
];

/** Values sent as path and query parameters (already percent-encoded where raw bytes matter). */
const URL_CORPUS: readonly string[] = [
  'not-a-uuid',
  '00000000-0000-0000-0000-00000000000g',
  encodeURIComponent("1' OR '1'='1"),
  '%00',
  'a%00b',
  '%ED%A0%80', // a lone surrogate, as CESU-8 bytes
  '%C0%AF', // overlong UTF-8
  '%',
  '%25',
  '_',
  '%5C',
  'trailing%5C',
  'x'.repeat(10_240),
  encodeURIComponent('\u202egnp.exe'),
  encodeURIComponent('😀'),
  '-1',
  '99999999999999999999999',
  '1e308',
  'true',
  '..%2F..%2Fetc%2Fpasswd',
];

interface Operation {
  method: string;
  path: string;
  pathParams: string[];
  queryParams: string[];
  bodyFields: string[];
  bodyType: string | null;
}

const document = buildOpenApiDocument(routes, schema) as any;

function bodyOf(requestBody: any): { type: string | null; fields: string[] } {
  const [type, media] = Object.entries<any>(requestBody?.content ?? {})[0] ?? [null, null];
  let shape = media?.schema;
  if (shape?.$ref) shape = document.components.schemas[shape.$ref.split('/').pop()];
  return { type, fields: Object.keys(shape?.properties ?? {}) };
}

const operations: Operation[] = Object.entries<any>(document.paths).flatMap(([path, methods]) =>
  Object.entries<any>(methods).map(([method, operation]) => {
    const parameters: any[] = operation.parameters ?? [];
    const body = bodyOf(operation.requestBody);
    return {
      method: method.toUpperCase(),
      path,
      pathParams: parameters.filter((parameter) => parameter.in === 'path').map((parameter) => parameter.name),
      queryParams: parameters.filter((parameter) => parameter.in === 'query').map((parameter) => parameter.name),
      bodyFields: body.fields,
      bodyType: body.type,
    };
  }),
);

/** Rows that end the caller's session get a throwaway token, so the others keep theirs. */
const SESSION_ENDING = new Set(['POST /auth/logout']);

/** Knowledge sources point nowhere: a sync the corpus triggers fails fast (502) instead of reaching the network. */
const UNREACHABLE_SOURCES = Object.fromEntries(
  ['ATTACK_ENTERPRISE', 'D3FEND', 'NIST_800_53', 'CSA_CCM', 'ATOMIC_RED_TEAM', 'SIGMA'].map((kind) => [
    `${kind}_SOURCE`,
    `/nonexistent/${kind.toLowerCase()}`,
  ]),
);

let adminToken: string;

const app = useTestApp(UNREACHABLE_SOURCES);

beforeAll(async () => {
  adminToken = await app.tokenFor('admin');
});

interface Answer {
  request: string;
  status: number;
  body: any;
}

/** Runs `jobs` with at most `width` in flight. */
async function inBatches<T>(jobs: (() => Promise<T>)[], width = 8): Promise<T[]> {
  const results: T[] = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: width }, async () => {
      while (next < jobs.length) {
        const index = next++;
        results[index] = await jobs[index]();
      }
    }),
  );
  return results;
}

async function send(method: string, url: string, token: string, body?: { type: string; text: string }): Promise<Answer> {
  const headers: Record<string, string> = { authorization: `Bearer ${token}` };
  if (body) headers['content-type'] = body.type;
  const response = await fetch(`${app.url}/api/v1${url}`, { method, headers, body: body?.text });
  const text = await response.text();
  let parsed: unknown = text;
  try {
    parsed = JSON.parse(text);
  } catch {
    // kept as text: the assertion names it
  }
  return { request: `${method} ${url.slice(0, 120)}${body ? ` ${body.text.slice(0, 80)}` : ''}`, status: response.status, body: parsed };
}

const concrete = (path: string, params: Record<string, string>) =>
  path.replace(/\{(\w+)\}/g, (_match, name: string) => params[name] ?? randomUUID());
const pathDefaults = (names: string[]) => Object.fromEntries(names.map((name) => [name, name === 'ttp_id' ? 'T1059' : randomUUID()]));

/** Percent-encodes text, writing an unpaired surrogate as its (invalid) CESU-8 bytes instead of failing. */
const encodeRaw = (text: string) =>
  text
    .split(/([\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff])/)
    .map((part) => (/^[\ud800-\udfff]$/.test(part) ? '%ED%A0%80' : encodeURIComponent(part)))
    .join('');

function encodeBody(type: string | null, fields: Record<string, unknown>): { type: string; text: string } {
  if (type === 'application/x-www-form-urlencoded') {
    const text = Object.entries(fields)
      .map(
        ([key, value]) =>
          `${encodeURIComponent(key)}=${typeof value === 'string' ? encodeRaw(value) : encodeURIComponent(JSON.stringify(value))}`,
      )
      .join('&');
    return { type, text };
  }
  return { type: 'application/json', text: JSON.stringify(fields) };
}

/** Every hostile request for one operation: each path parameter, query parameter and body field × the corpus. */
async function attack(operation: Operation): Promise<Answer[]> {
  const key = `${operation.method} ${operation.path}`;
  const token = SESSION_ENDING.has(key) ? await app.login((await app.createUser({ role: 'admin' })).username) : adminToken;
  const jobs: (() => Promise<Answer>)[] = [];
  const defaults = pathDefaults(operation.pathParams);
  const jsonBody = operation.bodyType && operation.bodyType !== 'multipart/form-data';
  for (const name of operation.pathParams) {
    for (const value of URL_CORPUS)
      jobs.push(() => send(operation.method, concrete(operation.path, { ...defaults, [name]: value }), token));
  }
  for (const name of operation.queryParams) {
    for (const value of URL_CORPUS)
      jobs.push(() => send(operation.method, `${concrete(operation.path, defaults)}?${name}=${value}`, token));
    jobs.push(() => send(operation.method, `${concrete(operation.path, defaults)}?${name}=a&${name}=b`, token));
    jobs.push(() => send(operation.method, `${concrete(operation.path, defaults)}?${name}[x]=1`, token));
  }
  if (jsonBody) {
    for (const field of operation.bodyFields) {
      for (const value of JSON_CORPUS)
        jobs.push(() =>
          send(operation.method, concrete(operation.path, defaults), token, encodeBody(operation.bodyType, { [field]: value })),
        );
    }
    const raw =
      (text: string, type = 'application/json') =>
      () =>
        send(operation.method, concrete(operation.path, defaults), token, { type, text });
    jobs.push(raw(`${'['.repeat(10_000)}${']'.repeat(10_000)}`));
    jobs.push(raw(`{"a":${'['.repeat(10_000)}${']'.repeat(10_000)}}`));
    jobs.push(raw('[]'), raw('"text"'), raw('null'), raw('{"a":'), raw('{"\\u0000":1}'), raw('{"__proto__":{"isAdmin":true}}'));
  }
  return inBatches(jobs);
}

/** No 5xx (502 is a knowledge source the service could not reach), and every refusal is `{ detail, code }`. */
function faults(answers: Answer[]): string[] {
  return answers
    .filter(
      (answer) =>
        (answer.status >= 500 && answer.status !== 502) ||
        (answer.status >= 400 && !(typeof answer.body?.code === 'string' && answer.body.detail !== undefined)),
    )
    .map((answer) => `${answer.status} ${answer.request} → ${JSON.stringify(answer.body).slice(0, 160)}`);
}

describe('REST: hostile values in every parameter and body field of every route', () => {
  it('covers every row of the route table', () => {
    expect(operations.length).toBe(routes.length);
  });

  it.each(operations.map((operation) => [`${operation.method} ${operation.path}`, operation] as const))('%s', async (_key, operation) => {
    const answers = await attack(operation);
    expect(faults(answers)).toEqual([]);
  });
});

describe('literal filters', () => {
  it('LIKE metacharacters in tactic, search and platform match only themselves, and a trailing backslash is no error', async () => {
    const all = await app.api('GET', '/techniques?limit=1', { token: adminToken });
    expect(all.status).toBe(200);
    for (const query of ['tactic=%25', 'tactic=_', 'search=%25', 'search=_', 'platform=%25']) {
      const answer = await app.api('GET', `/techniques?${query}`, { token: adminToken });
      expect(answer.status, query).toBe(200);
      expect(answer.body.total ?? answer.body.length, query).toBe(0);
    }
    for (const query of ['tactic=trailing%5C', 'search=trailing%5C', 'platform=%5C']) {
      expect((await app.api('GET', `/techniques?${query}`, { token: adminToken })).status, query).toBe(200);
    }
    const tests = await app.api('GET', '/tests?platform=%25', { token: adminToken });
    expect(tests.status).toBe(200);
  });
});

// ---- GraphQL: every root field's arguments ----

const rootFields = (kind: 'query' | 'mutation', type: GraphQLObjectType | null | undefined) =>
  Object.values(type?.getFields() ?? {}).map((field) => [`${kind} ${field.name}`, kind, field] as const);

/** The variable values to try for one argument: the corpus in its place, and in each field of an input object. */
function hostileValues(arg: GraphQLArgument): unknown[] {
  const named = getNamedType(arg.type);
  const values: unknown[] = [...JSON_CORPUS];
  if (isInputObjectType(named)) {
    const base = sampleInput(arg.type) as Record<string, unknown>;
    for (const field of Object.keys(named.getFields())) {
      for (const value of JSON_CORPUS) values.push({ ...base, [field]: value });
    }
  }
  return values;
}

async function graphqlAttack(kind: 'query' | 'mutation', field: GraphQLField<unknown, unknown>, token: string): Promise<string[]> {
  const query = operationOn(kind, field);
  const jobs: (() => Promise<string | null>)[] = [];
  for (const arg of field.args) {
    const base = Object.fromEntries(
      field.args.filter((other) => other !== arg && isNonNullType(other.type)).map((other) => [other.name, sampleInput(other.type)]),
    );
    for (const value of hostileValues(arg)) {
      jobs.push(async () => {
        const response = await fetch(`${app.url}/graphql`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
          body: JSON.stringify({ query, variables: { ...base, [arg.name]: value } }),
        });
        const text = await response.text();
        let body: any;
        try {
          body = JSON.parse(text);
        } catch {
          return `${response.status} non-JSON answer for ${field.name}(${arg.name}: ${JSON.stringify(value).slice(0, 60)})`;
        }
        const internal = (body.errors ?? []).some(
          (error: any) =>
            error.extensions?.code === 'INTERNAL_SERVER_ERROR' ||
            ((error.extensions?.status ?? 0) >= 500 && error.extensions?.status !== 502),
        );
        return response.status >= 500 || internal
          ? `${response.status} ${field.name}(${arg.name}: ${JSON.stringify(value).slice(0, 60)}) → ${text.slice(0, 160)}`
          : null;
      });
    }
  }
  return (await inBatches(jobs)).filter((fault): fault is string => fault !== null);
}

describe('GraphQL: hostile values in every argument of every root field', () => {
  const fields = [...rootFields('query', schema.getQueryType()), ...rootFields('mutation', schema.getMutationType())].filter(
    ([, , field]) => field.args.length,
  );

  it.each(fields)('%s', async (name, kind, field) => {
    const token = name === 'mutation logout' ? await app.login((await app.createUser({ role: 'admin' })).username) : adminToken;
    expect(await graphqlAttack(kind, field, token)).toEqual([]);
  });
});
