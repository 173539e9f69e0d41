import { parse, type GraphQLObjectType, type OperationDefinitionNode } from 'graphql';
import pg from 'pg';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { useTestApp, type TestApp } from '../../test/helpers/app.ts';
import { countQueries } from '../../test/helpers/queries.ts';
import { accessKind, type Principal } from '../auth/access.ts';
import { CatalogCache, FLIGHT_WAIT_MS } from './catalog-cache.ts';
import { schema } from './schema.ts';

/** The statements that read technique rows (the list, a detail, sub-techniques). */
const TECHNIQUE_READ = /FROM "public"\."techniques"|FROM techniques/;
const VERSION_READ = /FROM catalog_versions/;

const LIST = 'query { techniques { id ttpId name reviewRequired statusGlobal } }';

async function seedTechniques(app: TestApp, admin: string, prefix: string, count: number): Promise<void> {
  for (let n = 1; n <= count; n++) {
    const created = await app.api('POST', '/techniques', {
      token: admin,
      body: { ttp_id: `${prefix}${n}`, name: `Technique ${prefix}${n}`, tactic: 'Execution', platforms: ['Linux'] },
    });
    expect(created.status).toBe(201);
  }
}

/** How many technique reads and version reads the server makes while `work` runs. */
async function readsDuring(work: () => Promise<unknown>): Promise<{ techniques: number; versions: number }> {
  let versions = 0;
  const techniques = await countQueries(async () => {
    versions = await countQueries(work, VERSION_READ);
  }, TECHNIQUE_READ);
  return { techniques, versions };
}

const nameOf = (body: Array<{ ttp_id: string; name: string }>, ttpId: string) => body.find((row) => row.ttp_id === ttpId)?.name;

describe('catalog answers kept for the catalog version', () => {
  const app = useTestApp();
  let admin: string;
  let viewer: string;

  beforeAll(async () => {
    admin = await app.tokenFor('admin');
    viewer = await app.tokenFor('viewer');
    await seedTechniques(app, admin, 'T91', 3);
  });

  it('a second identical REST read reads only the version, and answers the same bytes', async () => {
    const first = await app.api('GET', '/techniques', { token: viewer });
    expect(first.status).toBe(200);
    let second: Awaited<ReturnType<TestApp['api']>> | undefined;
    const reads = await readsDuring(async () => {
      second = await app.api('GET', '/techniques', { token: viewer });
    });
    expect(reads).toEqual({ techniques: 0, versions: 1 });
    expect(second!.status).toBe(200);
    expect(second!.headers.get('content-type')).toBe(first.headers.get('content-type'));
    expect(JSON.stringify(second!.body)).toBe(JSON.stringify(first.body));
    // Byte for byte: an answer computed (a filter not asked before) and the same answer kept.
    const raw = () =>
      fetch(`${app.url}/api/v1/techniques?platform=linux`, { headers: { authorization: `Bearer ${viewer}` } }).then((r) => r.text());
    const computed = await raw();
    expect(JSON.parse(computed)).toHaveLength(3);
    expect(await raw()).toBe(computed);
    // Other variables are another answer.
    const filtered = await readsDuring(() => app.api('GET', '/techniques?search=T912', { token: viewer }));
    expect(filtered.techniques).toBeGreaterThan(0);
  });

  it('a change through the service is in the next answer', async () => {
    await app.api('GET', '/techniques', { token: viewer });
    const lead = await app.tokenFor('red_lead');
    expect((await app.api('PATCH', '/techniques/T911/review', { token: lead, body: { review_required: true } })).status).toBe(200);
    const after = await app.api('GET', '/techniques', { token: viewer });
    expect(after.body.find((row: { ttp_id: string }) => row.ttp_id === 'T911')).toMatchObject({ review_required: true });
  });

  it('a change written by hand is in the next answer, and not before its commit', async () => {
    expect(nameOf((await app.api('GET', '/techniques', { token: viewer })).body, 'T912')).toBe('Technique T912');
    const client = new pg.Client(app.services.config.DATABASE_URL);
    await client.connect();
    try {
      await client.query('BEGIN');
      await client.query(`UPDATE techniques SET name = 'Renamed by hand' WHERE ttp_id = 'T912'`);
      // Uncommitted: not seen, and the answer computed meanwhile is kept under the version before the change.
      expect(nameOf((await app.api('GET', '/techniques', { token: viewer })).body, 'T912')).toBe('Technique T912');
      await client.query('COMMIT');
      expect(nameOf((await app.api('GET', '/techniques', { token: viewer })).body, 'T912')).toBe('Renamed by hand');
      // A row deleted by hand.
      await client.query(`DELETE FROM techniques WHERE ttp_id = 'T913'`);
      expect(nameOf((await app.api('GET', '/techniques', { token: viewer })).body, 'T913')).toBeUndefined();
      // A tactic added by hand: the list's tactic filter reads the tactics too.
      const custom = { ttp_id: 'T914', name: 'Of a tactic unknown yet', tactic: 'Hand Tactic' };
      expect((await app.api('POST', '/techniques', { token: admin, body: custom })).status).toBe(201);
      expect((await app.api('GET', '/techniques?tactic=TA9001', { token: viewer })).body).toEqual([]);
      await client.query(`INSERT INTO tactics (id, external_id, short_name, name, matrix_order, updated_at)
                          VALUES (gen_random_uuid(), 'TA9001', 'hand-tactic', 'Hand Tactic', 99, now())`);
      expect(nameOf((await app.api('GET', '/techniques?tactic=TA9001', { token: viewer })).body, 'T914')).toBe(custom.name);
      // Emptied by TRUNCATE (no row triggers there): the tactic is unknown again.
      await client.query('TRUNCATE tactics');
      expect((await app.api('GET', '/techniques?tactic=TA9001', { token: viewer })).body).toEqual([]);
    } finally {
      await client.end();
    }
  });

  it('an answer computed while a change commits is never served for the version after it', async () => {
    const cache = app.services.catalogCache;
    const version = cache.version.bind(cache);
    // The change commits between the request's version read and its execution.
    cache.version = async () => {
      const before = await version();
      await app.services.prisma.$executeRaw`UPDATE techniques SET name = 'Renamed meanwhile' WHERE ttp_id = 'T911'`;
      return before;
    };
    try {
      expect(nameOf((await app.api('GET', '/techniques?include_deprecated=true', { token: viewer })).body, 'T911')).toBe(
        'Renamed meanwhile',
      );
    } finally {
      cache.version = version;
    }
    await app.services.prisma.$executeRaw`UPDATE techniques SET name = 'Renamed again' WHERE ttp_id = 'T911'`;
    expect(nameOf((await app.api('GET', '/techniques?include_deprecated=true', { token: viewer })).body, 'T911')).toBe('Renamed again');
  });

  it('GraphQL keeps a catalog query, per kind of caller, and executes any other', async () => {
    const first = await app.graphql(LIST, {}, viewer);
    expect(first.errors).toBeUndefined();
    const again = await readsDuring(async () => expect(await app.graphql(LIST, {}, viewer)).toEqual(first));
    expect(again).toEqual({ techniques: 0, versions: 1 });
    // The same bytes as executing gives: answered as written the first time.
    const raw = async (token: string) => {
      const response = await fetch(`${app.url}/graphql`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ query: LIST }),
      });
      return { type: response.headers.get('content-type'), body: await response.text() };
    };
    const executed = await raw(admin);
    const keptBytes = vi.spyOn(app.services.catalogCache, 'keptBytes');
    expect(await raw(admin)).toEqual(executed);
    // Sent as the bytes kept with the answer, not encoded again.
    expect(keptBytes.mock.results.map(({ value }) => Buffer.isBuffer(value))).toEqual([true]);
    keptBytes.mockRestore();
    expect(executed.body).toBe(`${JSON.stringify({ data: first.data })}\n`);
    // Another role runs its own first request (its access checks), then is answered from memory too.
    const lead = await app.tokenFor('blue_lead');
    expect((await readsDuring(() => app.graphql(LIST, {}, lead))).techniques).toBeGreaterThan(0);
    expect((await readsDuring(() => app.graphql(LIST, {}, lead))).techniques).toBe(0);
    // A field of another table makes the query an ordinary one, executed every time.
    const withTests = 'query { techniques { ttpId tests { id } } }';
    for (let n = 0; n < 2; n++) {
      const reads = await readsDuring(async () => expect((await app.graphql(withTests, {}, viewer)).errors).toBeUndefined());
      expect(reads).toEqual({ techniques: 1, versions: 0 });
    }
  });

  it('answers nobody whom the access rules refuse, whatever was kept', async () => {
    await app.api('GET', '/techniques', { token: viewer });
    await app.graphql(LIST, {}, viewer);
    expect((await app.api('GET', '/techniques')).status).toBe(401);
    expect((await app.graphql(LIST, {})).errors?.[0].extensions.code).toBe('NOT_AUTHENTICATED');
    const pending = await app.createUser({ role: 'viewer', mustChangePassword: true });
    const token = await app.login(pending.username);
    const refused = await app.api('GET', '/techniques', { token });
    expect(refused.status).toBe(403);
    expect((await app.graphql(LIST, {}, token)).errors?.[0].extensions.code).toBe(refused.body.code);
  });

  it('a burst of identical reads after a change executes the list once, over REST and over GraphQL', async () => {
    for (const [n, read] of [
      [1, () => app.api('GET', '/techniques', { token: viewer }).then((answer) => answer.body as Array<{ ttp_id: string; name: string }>)],
      [
        2,
        () =>
          app
            .graphql(LIST, {}, viewer)
            .then((answer: any) => answer.data.techniques.map((row: any) => ({ ttp_id: row.ttpId, name: row.name }))),
      ],
    ] as const) {
      await read();
      const name = `Renamed for a burst ${n}`;
      await app.services.prisma.technique.update({ where: { ttpId: 'T912' }, data: { name } });
      let answers: Array<Array<{ ttp_id: string; name: string }>> = [];
      const reads = await readsDuring(async () => {
        answers = await Promise.all(Array.from({ length: 6 }, read));
      });
      expect(reads).toEqual({ techniques: 1, versions: 6 });
      for (const answer of answers) expect(nameOf(answer, 'T912')).toBe(name);
    }
  });

  it('an error is never kept', async () => {
    for (let n = 0; n < 2; n++) {
      const missing = await readsDuring(async () =>
        expect((await app.api('GET', '/techniques/T9999', { token: viewer })).status).toBe(404),
      );
      expect(missing.techniques).toBe(1);
      const query = 'query { technique(ttpId: "T9999") { ttpId } }';
      expect((await readsDuring(() => app.graphql(query, {}, viewer))).techniques).toBe(1);
    }
  });
});

describe('CATALOG_CACHE_MB=0', () => {
  const app = useTestApp({ CATALOG_CACHE_MB: '0' });

  it('reads the catalog on every request, and not its version', async () => {
    const viewer = await app.tokenFor('viewer');
    await app.api('GET', '/techniques', { token: viewer });
    const reads = await readsDuring(async () => {
      for (let n = 0; n < 2; n++) expect((await app.api('GET', '/techniques', { token: viewer })).status).toBe(200);
    });
    expect(reads).toEqual({ techniques: 2, versions: 0 });
  });
});

describe('CatalogCache', () => {
  const operationOf = (source: string) => {
    const document = parse(source);
    return { document, operation: document.definitions.find((d) => d.kind === 'OperationDefinition') as OperationDefinitionNode };
  };
  const reads = (source: string) => {
    const { document, operation } = operationOf(source);
    return new CatalogCache(1000, async () => 'v').reads(schema, document, operation);
  };

  it('takes a query for a catalog read only when every field it selects is one, fragments included', () => {
    expect(reads('{ techniques { ttpId name parent { ttpId } subTechniques { ttpId __typename } } }')).toBe(true);
    expect(reads('query Q { technique(ttpId: "T1") { ...F ... on Technique { url } } } fragment F on Technique { name }')).toBe(true);
    expect(reads('{ __typename techniques { ttpId } }')).toBe(true);
    expect(reads('{ techniques { ttpId mitigations { id } } }')).toBe(false);
    expect(reads('{ techniques { ...F } } fragment F on Technique { tests { id } }')).toBe(false);
    expect(reads('{ techniques { ttpId } me { id } }')).toBe(false);
    expect(reads('{ __schema { types { name } } }')).toBe(false);
    expect(reads('mutation { reviewTechnique(ttpId: "T1") { ttpId } }')).toBe(false);
  });

  it('keeps answers within its budget, oldest out, and none larger than a quarter of it', () => {
    const cache = new CatalogCache(1000, async () => 'v');
    for (const key of ['a', 'b', 'c', 'd']) cache.set(key, 'v1', key.toUpperCase(), 250);
    expect([cache.get('a', 'v1'), cache.get('a', 'v2'), cache.get('d', 'v1')]).toEqual(['A', undefined, 'D']);
    // 'a' and 'd' were just read: 'b' is the least recently used.
    cache.set('e', 'v1', 'E', 100);
    expect([cache.get('b', 'v1'), cache.get('a', 'v1'), cache.get('e', 'v1')]).toEqual([undefined, 'A', 'E']);
    cache.set('f', 'v1', 'F', 251);
    expect([cache.get('f', 'v1'), cache.get('c', 'v1')]).toEqual([undefined, 'C']);
  });

  it("keeps a GraphQL answer's bytes with it, counted in its size, and drops them with it", () => {
    const data = { techniques: [{ name: 'Phishing – spearphishing' }] };
    const size = (json: string) => 4 * json.length;
    const cache = new CatalogCache(10_000, async () => 'v');
    const json = cache.serialize(data);
    expect(cache.keptBytes(json)).toBeUndefined();
    cache.set('graphql', 'v1', data, size(json));
    expect(cache.keptBytes(json)).toEqual(Buffer.from(json));
    expect(cache.keptBytes(`${json} `)).toBeUndefined();
    // Pushed out by newer answers, it takes its bytes along.
    for (const key of ['x', 'y', 'z', 'w']) cache.set(key, 'v1', key, 2_500);
    expect(cache.get('graphql', 'v1')).toBeUndefined();
    expect(cache.keptBytes(json)).toBeUndefined();
    // The bytes count: an answer that fits its share of the budget without them, but not with them, is not kept.
    const tight = new CatalogCache(4 * size(json), async () => 'v');
    tight.serialize(data);
    tight.set('graphql', 'v1', data, size(json));
    expect(tight.get('graphql', 'v1')).toBeUndefined();
    expect(tight.keptBytes(json)).toBeUndefined();
  });

  it('judges each fragment once: fragments spreading each other twice over cost their size, not 2^depth', () => {
    const depth = 40;
    const chain = Array.from({ length: depth }, (_, n) => `fragment F${n} on Technique { ...F${n + 1} ...F${n + 1} }`);
    const source = `query { technique(ttpId: "T1") { ...F0 } } ${chain.join(' ')} fragment F${depth} on Technique { id }`;
    expect(reads(source)).toBe(true);
    expect(reads(source.replace(`F${depth} on Technique { id }`, `F${depth} on Technique { tests { id } }`))).toBe(false);
  });

  it('names only fields the Technique type has', () => {
    const technique = schema.getType('Technique') as GraphQLObjectType;
    const names = technique.extensions.catalogFields as string[];
    expect(names.length).toBeGreaterThan(10);
    expect(names.filter((name) => !technique.getFields()[name])).toEqual([]);
    const roots = Object.values(schema.getQueryType()!.getFields()).filter((field) => field.extensions.catalog);
    expect(roots.map((field) => field.name).sort()).toEqual(['technique', 'techniques']);
  });

  it('tells kinds of caller apart by everything an access rule reads', () => {
    const viewer: Principal = { userId: 'u1', username: 'v', role: 'viewer', mustChangePassword: false, via: 'token' };
    const kinds = [
      viewer,
      { ...viewer, userId: 'u2' },
      { ...viewer, role: 'admin' as const },
      { ...viewer, mustChangePassword: true },
      { ...viewer, via: 'api_key' as const, keyScope: 'read' as const },
      { ...viewer, via: 'api_key' as const, keyScope: 'write' as const },
    ].map(accessKind);
    expect(kinds[0]).toBe(kinds[1]);
    expect(new Set(kinds.slice(1)).size).toBe(5);
    expect(accessKind(null)).toBeNull();
  });

  it('keeps nothing while the version cannot be read', async () => {
    const cache = new CatalogCache(1000, async () => {
      throw new Error('database unreachable');
    });
    expect(await cache.version()).toBeNull();
  });

  it('lets the same reads wait for the first to compute its answer, and go on when it keeps none or takes too long', async () => {
    const cache = new CatalogCache(1000, async () => 'v1');
    const { document, operation } = operationOf(LIST);
    const viewer: Principal = { userId: 'u1', username: 'v', role: 'viewer', mustChangePassword: false, via: 'token' };
    const find = () => cache.find(viewer, schema, document, operation, () => ['rest', '/techniques']);
    /** Past its reading of the version: waiting, if it waits. */
    const underway = () => new Promise((resolve) => setImmediate(resolve));
    const first = (await find())!;
    expect(first.answer).toBeUndefined();
    // Kept by the first: the one waiting gets it.
    const waiting = find();
    await underway();
    cache.set(first.key, first.version, '[]', 2);
    first.settle();
    expect((await waiting)!.answer).toBe('[]');

    // The first ends with an error (nothing kept): the one waiting computes on its own, without making others wait.
    const other = () => cache.find(viewer, schema, document, operation, () => ['rest', '/techniques?tactic=x']);
    const failing = (await other())!;
    const after = other();
    await underway();
    failing.settle();
    const own = (await after)!;
    expect(own.answer).toBeUndefined();
    own.settle();
    const next = (await other())!;
    expect(next.answer).toBeUndefined();
    next.settle();

    // A first that never settles holds the others FLIGHT_WAIT_MS at most.
    vi.useFakeTimers();
    try {
      const stuck = () => cache.find(viewer, schema, document, operation, () => ['rest', '/techniques?tactic=y']);
      expect((await stuck())!.answer).toBeUndefined();
      let released = false;
      const held = stuck().then((found) => {
        released = true;
        return found;
      });
      await vi.advanceTimersByTimeAsync(FLIGHT_WAIT_MS - 10);
      expect(released).toBe(false);
      await vi.advanceTimersByTimeAsync(20);
      expect((await held)!.answer).toBeUndefined();
    } finally {
      vi.useRealTimers();
    }
  });
});
