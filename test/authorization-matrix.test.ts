import { randomUUID } from 'node:crypto';
import { isNonNullType, type GraphQLField, type GraphQLObjectType } from 'graphql';
import { beforeAll, describe, expect, it } from 'vitest';
import { requestTypeOf } from '../rest-adapter/body.ts';
import { routes } from '../rest-adapter/routes.ts';
import type { Route } from '../rest-adapter/types.ts';
import { ALL_ROLES, type Role } from '../src/auth/roles.ts';
import { schema } from '../src/graphql/schema.ts';
import { useTestApp } from './helpers/app.ts';
import { operationOn, sampleInput } from './helpers/graphql-inputs.ts';

/** The root fields the spec lets anyone call; every other field must refuse anonymous callers. */
const PUBLIC_FIELDS = new Set(['Mutation.login', 'Query.health', 'Query.ssoSignIn', 'Mutation.receiveTrackerWebhook']);

/** Rows that end the caller's session: they get a token of their own so later rows keep theirs. */
const SESSION_ENDING = new Set(['POST /auth/logout']);

type Caller = Role | 'anonymous';
type Outcome = 'allowed' | 'unauthenticated' | 'forbidden';

const CALLERS: readonly Caller[] = ['anonymous', ...ALL_ROLES];
const keyOf = (route: Pick<Route, 'method' | 'path'>) => `${route.method} ${route.path}`;

function expectedOutcome(route: Route, caller: Caller): Outcome {
  if (route.roles === 'public') return 'allowed';
  if (caller === 'anonymous') return 'unauthenticated';
  if (route.roles === 'signed-in') return 'allowed';
  return route.roles.includes(caller) ? 'allowed' : 'forbidden';
}

/** Path parameters become a random UUID, technique keys an id that exists nowhere. */
const concretePath = (path: string) => path.replace(/:(\w+)/g, (_match, name: string) => (name === 'ttp_id' ? 'T0000' : randomUUID()));

const tokens = new Map<Role, string>();
const tested = new Set<string>();

async function freshToken(role: Role): Promise<string> {
  const user = await app.createUser({ role });
  return app.login(user.username);
}

async function call(route: Route, caller: Caller): Promise<{ status: number; body: any }> {
  const token = caller === 'anonymous' ? undefined : SESSION_ENDING.has(keyOf(route)) ? await freshToken(caller) : tokens.get(caller);
  // An empty body of the type the row reads (none for multipart, whose handler checks access before reading).
  const type = route.method === 'GET' ? null : requestTypeOf(route);
  const body = type === 'application/json' ? { body: {} } : type === 'application/x-www-form-urlencoded' ? { form: {} } : {};
  return app.api(route.method, concretePath(route.path), { token, ...body });
}

function outcomeOf(response: { status: number; body: any }): Outcome | `error ${number}` {
  // 502: the caller was let through and the service then failed to reach a knowledge source (none is reachable here).
  if (response.status >= 500 && response.status !== 502) return `error ${response.status}`;
  if (response.status === 401) return 'unauthenticated';
  if (response.status === 403) return 'forbidden';
  return 'allowed';
}

/** Knowledge sources point nowhere: syncs the matrix triggers fail fast (502) instead of reaching the internet. */
const UNREACHABLE_SOURCES = Object.fromEntries(
  ['ATTACK_ENTERPRISE', 'D3FEND', 'NIST_800_53', 'CSA_CCM', 'ATOMIC_RED_TEAM', 'SIGMA'].map((kind) => [
    `${kind}_SOURCE`,
    `/nonexistent/${kind.toLowerCase()}`,
  ]),
);

const app = useTestApp(UNREACHABLE_SOURCES);

beforeAll(async () => {
  for (const role of ALL_ROLES) tokens.set(role, await freshToken(role));
});

describe('REST authorization matrix', () => {
  describe.each(routes.map((route) => [keyOf(route), route] as const))('%s', (key, route) => {
    const expected = Object.fromEntries(CALLERS.map((caller) => [caller, expectedOutcome(route, caller)]));
    const refused = CALLERS.filter((caller) => expected[caller] !== 'allowed');
    it(`answers each caller as its "Who" column says (refused: ${refused.join(', ') || 'nobody'})`, async () => {
      const actual: Record<string, string> = {};
      for (const caller of CALLERS) actual[caller] = outcomeOf(await call(route, caller));
      tested.add(key);
      expect(actual).toEqual(expected);
    });
  });

  it('tested every row of the route table, and each method and path once', () => {
    const table = routes.map(keyOf);
    expect(new Set(table).size).toBe(table.length);
    expect([...tested].sort()).toEqual([...table].sort());
  });
});

/** An operation on `field` with valid variables for its required arguments, so only authorisation can refuse it. */
function anonymousOperation(kind: 'query' | 'mutation', field: GraphQLField<unknown, unknown>): [string, Record<string, unknown>] {
  const required = field.args.filter((arg) => isNonNullType(arg.type) && arg.defaultValue === undefined);
  return [operationOn(kind, field, required), Object.fromEntries(required.map((arg) => [arg.name, sampleInput(arg.type)]))];
}

const rootFields = (kind: 'query' | 'mutation', type: GraphQLObjectType | null | undefined) =>
  Object.values(type?.getFields() ?? {}).map((field) => [`${type!.name}.${field.name}`, kind, field] as const);

describe('GraphQL denies anonymous callers by default', () => {
  const fields = [...rootFields('query', schema.getQueryType()), ...rootFields('mutation', schema.getMutationType())];

  it.each(fields.filter(([name]) => !PUBLIC_FIELDS.has(name)))('%s refuses an anonymous caller', async (_name, kind, field) => {
    const result = await app.graphql(...anonymousOperation(kind, field));
    expect(result.errors?.map((error) => error.extensions?.code)).toEqual(['NOT_AUTHENTICATED']);
    expect(result.data?.[field.name] ?? null).toBeNull();
  });

  it.each(fields.filter(([name]) => PUBLIC_FIELDS.has(name)))('%s is public', async (_name, kind, field) => {
    const result = await app.graphql(...anonymousOperation(kind, field));
    expect(result.errors?.map((error) => error.extensions?.code) ?? []).not.toContain('NOT_AUTHENTICATED');
  });

  it('every documented public field exists', () => {
    expect([...PUBLIC_FIELDS].filter((name) => !fields.some(([field]) => field === name))).toEqual([]);
  });
});
