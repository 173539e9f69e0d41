import {
  getNamedType,
  getNullableType,
  isEnumType,
  isInputObjectType,
  isListType,
  isNonNullType,
  isScalarType,
  type GraphQLInputType,
} from 'graphql';
import { describe, expect, it } from 'vitest';
import type { Role } from '../src/auth/roles.ts';
import { schema } from '../src/graphql/schema.ts';
import { camelToSnake } from '../src/naming.ts';
import { useTestApp } from '../test/helpers/app.ts';
import { prepareOperation } from './handler.ts';
import { routes } from './routes.ts';
import { documentedSourcesOf } from './sources.ts';
import { isCustom, type GraphqlRoute } from './types.ts';

/**
 * Every row that reads a body or a query, sent a request that misses a required field and one that gives a field a
 * value of the wrong type: each answers 400 `{detail, code}` in REST words, never GraphQL's or zod's vocabulary.
 */
const app = useTestApp();

const FOREIGN_WORDS = [
  /"\w+!"/, // GraphQL type syntax: "String!"
  /\bInt cannot\b/,
  /cannot represent/,
  /Variable "\$/,
  /was not provided/,
  /Expected (?:type|value|non-nullable)/,
  /Invalid input/,
  /Invalid option/,
  /expected \w+, received/,
  /Too (?:small|big)/,
  /Unrecognized key/,
];

/** A value of the wrong type for an input of `type`, or undefined when every JSON value is acceptable. */
function wrongValue(type: GraphQLInputType): unknown {
  const inner = getNullableType(type);
  if (isListType(inner)) return [wrongValue(inner.ofType) ?? { not: 'a list item' }];
  if (isInputObjectType(inner)) return 5;
  if (isEnumType(inner)) return 'not_a_value';
  if (isScalarType(inner)) {
    if (['Int', 'Float', 'Boolean'].includes(inner.name)) return 'not a number';
    if (inner.name === 'JSON') return undefined;
    return { not: 'a string' };
  }
  return undefined;
}

/** A query parameter's text of the wrong type, or undefined when any text is acceptable. */
function wrongText(type: GraphQLInputType): string | undefined {
  const named = getNamedType(type);
  if (isEnumType(named)) return 'not_a_value';
  return ({ Int: '1.5', Float: 'many', Boolean: 'perhaps', UUID: 'not-a-uuid', DateTime: 'yesterday' } as Record<string, string>)[
    named.name
  ];
}

interface Probe {
  label: string;
  path: string;
  query: Record<string, string>;
  body?: unknown;
}

function probesOf(route: GraphqlRoute): { missing: Probe[]; wrong: Probe[] } {
  const label = `${route.method} ${route.path}`;
  const { variableTypes } = prepareOperation(schema, route.document, label);
  const sources = [...documentedSourcesOf(route, variableTypes)];
  const path = route.path.replace(/:(\w+)/g, (_, name: string) => {
    const variable = sources.find(([, source]) => source.from === 'path' && source.name === name)?.[0];
    const type = variable ? getNamedType(variableTypes.get(variable)!).name : 'String';
    return type === 'Int' ? '1' : type === 'String' ? 'T1003' : '00000000-0000-4000-8000-000000000000';
  });
  const whole = sources.find(([, source]) => source.from === 'body' && !source.name);
  const named = sources.filter(([, source]) => source.from === 'body' && source.name);
  const queried = sources.filter(([, source]) => source.from === 'query');
  const missing: Probe[] = [];
  const wrong: Probe[] = [];

  if (whole) {
    const input = getNullableType(variableTypes.get(whole[0])!);
    const fields = isInputObjectType(input) ? Object.values(input.getFields()) : [];
    const required = fields.find((field) => isNonNullType(field.type) && field.defaultValue === undefined);
    if (required) missing.push({ label: `${label} without ${camelToSnake(required.name)}`, path, query: {}, body: {} });
    const typed = fields.find((field) => wrongValue(field.type) !== undefined);
    if (typed) {
      const key = camelToSnake(typed.name);
      wrong.push({ label: `${label} with a wrong ${key}`, path, query: {}, body: { [key]: wrongValue(typed.type) } });
    }
  }
  const requiredNamed = named.find(([variable]) => isNonNullType(variableTypes.get(variable)!));
  if (requiredNamed) missing.push({ label: `${label} without ${requiredNamed[1].name}`, path, query: {}, body: {} });
  const typedNamed = named.find(([variable]) => wrongValue(variableTypes.get(variable)!) !== undefined);
  if (typedNamed) {
    const [variable, source] = typedNamed;
    wrong.push({
      label: `${label} with a wrong ${source.name}`,
      path,
      query: {},
      body: { [source.name!]: wrongValue(variableTypes.get(variable)!) },
    });
  }
  const requiredQuery = queried.find(([variable]) => isNonNullType(variableTypes.get(variable)!));
  if (requiredQuery) missing.push({ label: `${label} without ${requiredQuery[1].name}`, path, query: {} });
  const typedQuery = queried.find(([variable]) => wrongText(variableTypes.get(variable)!) !== undefined);
  if (typedQuery) {
    const [variable, source] = typedQuery;
    wrong.push({
      label: `${label} with a wrong ${source.name}`,
      path,
      query: { [source.name!]: wrongText(variableTypes.get(variable)!)! },
    });
  }
  return { missing, wrong };
}

const graphqlRows = routes.filter((route): route is GraphqlRoute => !isCustom(route));
const probes = graphqlRows.flatMap((route) => {
  const { missing, wrong } = probesOf(route);
  return [...missing, ...wrong].map((probe) => [probe.label, route, probe] as const);
});

async function send(route: GraphqlRoute, probe: Probe) {
  const role: Role | null = route.roles === 'public' ? null : route.roles === 'signed-in' ? 'viewer' : route.roles[0];
  const search = new URLSearchParams(probe.query).toString();
  return app.api(route.method, `${probe.path}${search ? `?${search}` : ''}`, {
    token: role ? await app.tokenFor(role) : undefined,
    body: route.method === 'GET' ? undefined : (probe.body ?? {}),
  });
}

describe('REST errors speak REST', () => {
  it('the route table gives probes for the rows that read a body or a query', () => {
    expect(probes.length).toBeGreaterThan(100);
  });

  it.each(probes)('%s: 400 {detail, code} in REST words', async (_label, route, probe) => {
    const answer = await send(route, probe);
    expect(answer.status, JSON.stringify(answer.body)).toBe(400);
    expect(answer.body).toMatchObject({ detail: expect.any(String), code: expect.any(String) });
    for (const words of FOREIGN_WORDS) expect(answer.body.detail).not.toMatch(words);
  });

  it('a missing body field and a wrong type read as plain words naming the REST field', async () => {
    const token = await app.tokenFor('admin');
    const lesson = await app.api('POST', '/knowledge/lessons', { token, body: { what_happened: 'x' } });
    expect(lesson).toMatchObject({
      status: 400,
      body: { code: 'VALIDATION_ERROR', field: 'root_cause', detail: 'root_cause: is required' },
    });
    const page = await app.api('GET', '/tests?limit=1.5', { token });
    expect(page).toMatchObject({ status: 400, body: { field: 'limit', detail: 'limit: must be an integer' } });
    const minutes = await app.api('POST', '/worklogs', { token, body: { minutes: 'ten', date: '2026-01-01', description: 'x' } });
    expect(minutes).toMatchObject({ status: 400, body: { field: 'minutes', detail: 'minutes: must be an integer' } });
  });
});
