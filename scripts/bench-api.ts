/**
 * Violet's REST API and GraphQL against a raw baseline (scripts/bench-api/raw-baseline.ts: `node:http` + `pg`, the same
 * token check and queries, byte-identical answers) on the large dataset (`npm run seed:large`). Starts the production
 * build (`node dist/src/main.js`) and the baseline as child processes, checks that the three reads answer the same
 * bytes on both, then for ROUNDS rounds interleaves, per request kind, a fixed time at a fixed concurrency against
 * Violet REST, Violet GraphQL (the REST row's own document, unaliased) and the baseline. Prints req/s, the server's
 * CPU per request (/proc/PID/stat), single-client latency of GET /tests?limit=50, RSS and Violet's start to healthy.
 *
 *   npm run bench:api                              # scale 1 (seeded when missing), 9 rounds of 3 s per kind and target
 *   npm run bench:api -- --scale=0.1 --rounds=3 --seconds=2
 *   npm run bench:api -- --profile                 # instead: a CPU profile of Violet answering GET /tests/{id}
 *   npm run bench:api -- --profile --profile-request='GET /techniques'
 *   npm run bench:api -- --compare=node_modules/.cache/violet-before   # instead: that copy of dist/ against dist/
 *
 * Options: --scale, --rounds, --seconds, --concurrency (4), --latency-requests (200), --starts (3 starts of Violet for
 * the start time), --log-level (Violet's LOG_LEVEL, default warn: no log line per request), --profile-seconds (20),
 * --profile-request (one of the request kinds below, default GET /tests/{id}; its REST form, or with --profile-graphql
 * its GraphQL form), --profile-frames (how many frames to list, 20), --profile-dir (a new or empty directory to keep the .cpuprofile files in,
 * for DevTools or a flame graph; the load starts at the microsecond printed, in the profile's clock), --compare (a copy of `dist/` made before a change, inside the project so that its dependencies
 * resolve: the three reads on both builds side by side, alternating, for --rounds rounds; CPU per request of each;
 * --compare-graphql: their GraphQL form instead of the REST one).
 * Environment: DATABASE_URL (default postgresql://postgres@127.0.0.1:5432/violet_bench, violet_bench_0_1 at scale 0.1 …).
 * The write (PATCH /tests/{id}, a new name for draft or rejected tests) changes those tests in the benchmark database.
 */
import { spawnSync } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { techniqueRoutes } from '../src/modules/techniques/routes.ts';
import { testsRoutes } from '../src/modules/test-runs/routes.ts';
import type { Route } from '../rest-adapter/types.ts';
import { median, percentile, residentMemory, runPhase, send, targetAgent, type Answer, type Call, type Target } from './bench-api/load.ts';
import { bundleBaseline, killAll, startServer, stopServer, topSelfFrames, violetEntry, type Server } from './bench-api/processes.ts';
import { SERVICE_NODE_FLAGS } from './service-flags.mjs';

const { values: options } = parseArgs({
  options: {
    scale: { type: 'string', default: '1' },
    rounds: { type: 'string', default: '9' },
    seconds: { type: 'string', default: '3' },
    concurrency: { type: 'string', default: '4' },
    'latency-requests': { type: 'string', default: '200' },
    starts: { type: 'string', default: '3' },
    'log-level': { type: 'string', default: 'warn' },
    profile: { type: 'boolean', default: false },
    'profile-seconds': { type: 'string', default: '20' },
    'profile-request': { type: 'string', default: 'GET /tests/{id}' },
    'profile-graphql': { type: 'boolean', default: false },
    'profile-frames': { type: 'string', default: '20' },
    'profile-dir': { type: 'string' },
    compare: { type: 'string' },
    'compare-graphql': { type: 'boolean', default: false },
  },
});
const scale = Number(options.scale);
const rounds = Number(options.rounds);
const seconds = Number(options.seconds);
const concurrency = Number(options.concurrency);
const PASSWORD = process.env.BENCH_PASSWORD ?? 'violet-bench-password';
const JWT_SECRET = 'bench-api secret shared by Violet and the baseline';
const ROTATION = 500;

function databaseUrl(): string {
  if (process.env.DATABASE_URL) return process.env.DATABASE_URL;
  const suffix = scale === 1 ? '' : `_${String(scale).replace('.', '_')}`;
  return `postgresql://postgres@127.0.0.1:5432/violet_bench${suffix}`;
}

/** The seeded database: checks PostgreSQL answers, seeds at --scale when the database is missing or empty. */
async function ensureDataset(url: string): Promise<void> {
  const server = new URL(url);
  server.pathname = '/postgres';
  const admin = new pg.Client({ connectionString: server.toString(), connectionTimeoutMillis: 5_000 });
  try {
    await admin.connect();
  } catch (error) {
    throw new Error(`PostgreSQL does not answer at ${server.host} (${(error as Error).message}): start it or set DATABASE_URL`);
  }
  const name = decodeURIComponent(new URL(url).pathname.slice(1));
  const exists = (await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [name])).rowCount;
  await admin.end();
  let tests = 0;
  if (exists) {
    const client = new pg.Client(url);
    await client.connect();
    tests = Number((await client.query('SELECT count(*) FROM tests').catch(() => ({ rows: [{ count: 0 }] }))).rows[0].count);
    await client.end();
  }
  if (tests > 0) {
    if (Math.abs(tests - 100_000 * scale) > 20_000 * scale)
      console.log(`note: ${name} holds ${tests} tests, not those of --scale=${scale}`);
    return;
  }
  console.log(`${name} is missing or empty: seeding at --scale=${scale}`);
  const seeded = spawnSync(process.execPath, ['--import', 'tsx', 'scripts/seed-large.ts', `--scale=${scale}`], {
    stdio: 'inherit',
    env: { ...process.env, DATABASE_URL: url },
  });
  if (seeded.status !== 0) throw new Error('seeding failed');
}

const row = (rows: Route[], method: string, path: string) => {
  const found = rows.find((candidate) => candidate.method === method && candidate.path === path);
  if (!found || !('document' in found)) throw new Error(`no GraphQL row for ${method} ${path}`);
  return found.document;
};
const graphql = (document: string, variables: Record<string, unknown>): Call => ({
  method: 'POST',
  path: '/graphql',
  body: JSON.stringify({ query: document, variables }),
});

interface Kind {
  name: string;
  rest: (n: number) => Call;
  graphql: (n: number) => Call;
  /** Undefined: the baseline does not do this one (the write). */
  raw?: (n: number) => Call;
}

function requestKinds(testIds: string[], writableIds: string[]): Kind[] {
  const techniques = row(techniqueRoutes, 'GET', '/techniques');
  const tests = row(testsRoutes, 'GET', '/tests');
  const test = row(testsRoutes, 'GET', '/tests/:id');
  const update = row(testsRoutes, 'PATCH', '/tests/:id');
  const get = (path: string): Call => ({ method: 'GET', path });
  const idOf = (n: number) => testIds[n % testIds.length];
  const writableOf = (n: number) => writableIds[n % writableIds.length];
  const name = (n: number) => `Benchmark write ${n} ${Date.now()}`;
  return [
    {
      name: 'GET /techniques',
      rest: () => get('/api/v1/techniques'),
      graphql: () => graphql(techniques, {}),
      raw: () => get('/api/v1/techniques'),
    },
    {
      name: 'GET /tests?limit=50',
      rest: () => get('/api/v1/tests?limit=50'),
      graphql: () => graphql(tests, { limit: 50 }),
      raw: () => get('/api/v1/tests?limit=50'),
    },
    {
      name: 'GET /tests/{id}',
      rest: (n) => get(`/api/v1/tests/${idOf(n)}`),
      graphql: (n) => graphql(test, { id: idOf(n) }),
      raw: (n) => get(`/api/v1/tests/${idOf(n)}`),
    },
    {
      name: 'PATCH /tests/{id}',
      rest: (n) => ({ method: 'PATCH', path: `/api/v1/tests/${writableOf(n)}`, body: JSON.stringify({ name: name(n) }) }),
      graphql: (n) => graphql(update, { id: writableOf(n), input: { name: name(n) } }),
    },
  ];
}

const okRest = (answer: Answer) => answer.status === 200;
const okGraphql = (answer: Answer) => answer.status === 200 && !answer.body.startsWith('{"errors"') && !answer.body.includes(',"errors":');

/**
 * The three reads answer the same bytes on Violet REST and the baseline, or on the two builds of `--compare` (a running
 * timer may tick between them, and a loaded machine may get a 503: up to five attempts). Problems name each target.
 */
async function checkIdentity(violet: Target, raw: Target, kinds: Kind[]): Promise<Map<string, string>> {
  const [first, second] = [violet.name, raw.name];
  const width = Math.max(first.length, second.length) + 1;
  const verdicts = new Map<string, string>();
  for (const kind of kinds.filter((candidate) => candidate.raw)) {
    const count = kind.name === 'GET /tests/{id}' ? ROTATION : 1;
    let problem: string | undefined;
    for (let n = 0; n < count && !problem; n++) {
      for (let attempt = 0; attempt < 5; attempt++) {
        // One after the other: a running timer's elapsed_seconds is read at answer time, so the closer the better.
        const a = await send(violet, kind.rest(n));
        const b = await send(raw, kind.raw!(n));
        if (a.status === 200 && a.status === b.status && a.body === b.body) {
          problem = undefined;
          break;
        }
        let at = 0;
        while (at < a.body.length && a.body[at] === b.body[at]) at++;
        problem =
          `${kind.rest(n).path}: ${first} ${a.status} (${a.body.length} bytes), ${second} ${b.status} (${b.body.length} bytes); first difference at byte ${at}:\n` +
          `  ${`${first}:`.padEnd(width)} …${a.body.slice(Math.max(0, at - 80), at + 80)}\n  ${`${second}:`.padEnd(width)} …${b.body.slice(Math.max(0, at - 80), at + 80)}`;
        if (a.status === 503 || b.status === 503) await new Promise((resolve) => setTimeout(resolve, 2_000));
      }
    }
    const answer = await send(violet, kind.rest(0));
    verdicts.set(kind.name, problem ?? `identical (${count === 1 ? `${answer.body.length} bytes` : `${count} tests`})`);
    if (problem) throw new Error(`${second} does not answer like ${first}: ${problem}`);
  }
  return verdicts;
}

async function signIn(base: URL): Promise<string> {
  const response = await fetch(new URL('/api/v1/auth/login', base), {
    method: 'POST',
    body: new URLSearchParams({ username: 'admin_01', password: PASSWORD }),
  });
  if (response.status !== 200) throw new Error(`sign-in answered ${response.status}: ${await response.text()}`);
  return ((await response.json()) as { access_token: string }).access_token;
}

const MiB = 1024 * 1024;
const fixed = (value: number, digits = 2) => (Number.isFinite(value) ? value.toFixed(digits) : '–');
const summary = (values: number[], digits = 2) =>
  `${fixed(median(values), digits)} (${fixed(Math.min(...values), digits)}–${fixed(Math.max(...values), digits)})`;

async function main(): Promise<void> {
  if (spawnSync(process.execPath, ['scripts/ensure-build.mjs'], { stdio: 'inherit' }).status !== 0) process.exit(1);
  const url = databaseUrl();
  await ensureDataset(url);
  const baselineScript = await bundleBaseline();
  const dataDir = await mkdtemp(join(tmpdir(), 'violet-bench-api-'));
  const env: NodeJS.ProcessEnv = { ...process.env, NODE_ENV: 'production', DATABASE_URL: url, JWT_SECRET, DATA_DIR: dataDir };
  for (const name of ['REDIS_URL', 'DATABASE_POOL_SIZE']) delete env[name];
  const violetEnv = { ...env, LOG_LEVEL: options['log-level'], SOURCE_SYNC_SCHEDULES: 'false', RATE_LIMIT_ENABLED: 'false' };
  const servers: Server[] = [];
  try {
    console.log(
      `node ${process.version}, ${cpus().length} cores (${cpus()[0]?.model}), load average ${loadavg()
        .map((value) => value.toFixed(1))
        .join(' ')}; database ${new URL(url).pathname.slice(1)}`,
    );
    if (options.profile) return await profile(violetEnv, dataDir);
    if (options.compare) return await compare(violetEnv, dataDir, options.compare);

    const startTimes: number[] = [];
    let violet: Server | undefined;
    for (let start = 0; start < Number(options.starts); start++) {
      if (violet) await stopServer(violet);
      violet = await startServer('Violet', violetEntry, violetEnv, SERVICE_NODE_FLAGS);
      startTimes.push(violet.startMs);
    }
    servers.push(violet!);
    const raw = await startServer('baseline', baselineScript, env);
    servers.push(raw);
    console.log(
      `Violet start to healthy: ${startTimes.map((ms) => `${(ms / 1000).toFixed(2)} s`).join(', ')}; baseline ${(raw.startMs / 1000).toFixed(2)} s`,
    );
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    const idle = { violet: await residentMemory(violet!.child.pid!), raw: await residentMemory(raw.child.pid!) };

    const token = await signIn(violet!.base);
    const target = (server: Server, name: string): Target => ({
      name,
      base: server.base,
      pid: server.child.pid!,
      agent: targetAgent(concurrency),
      token,
    });
    const targets = { rest: target(violet!, 'Violet REST'), graphql: target(violet!, 'Violet GraphQL'), raw: target(raw, 'baseline') };

    const { testIds, writableIds } = await benchmarkIds(url);
    const kinds = requestKinds(testIds, writableIds);

    const identity = await checkIdentity(targets.rest, targets.raw, kinds);
    for (const [kind, verdict] of identity) console.log(`byte identity, ${kind}: ${verdict}`);

    console.log('warming up');
    for (const kind of kinds) {
      await runPhase(targets.rest, kind.rest, okRest, { seconds: 1, concurrency });
      await runPhase(targets.graphql, kind.graphql, okGraphql, { seconds: 1, concurrency });
      if (kind.raw) await runPhase(targets.raw, kind.raw, okRest, { seconds: 1, concurrency });
    }

    type Figures = { rps: number; cpu: number };
    const results = new Map<string, { rest: Figures[]; graphql: Figures[]; raw: Figures[] }>();
    const latency = { rest: [] as number[][], graphql: [] as number[][], raw: [] as number[][] };
    const failures = new Map<string, number>();
    for (let round = 1; round <= rounds; round++) {
      const lines: string[] = [];
      for (const kind of kinds) {
        const order = (['rest', 'graphql', 'raw'] as const).filter((which) => which !== 'raw' || kind.raw);
        // Rotate who goes first, so that no target always follows the same one.
        const rotated = [...order.slice(round % order.length), ...order.slice(0, round % order.length)];
        const figures: Partial<Record<'rest' | 'graphql' | 'raw', Figures>> = {};
        for (const which of rotated) {
          const next = which === 'rest' ? kind.rest : which === 'graphql' ? kind.graphql : kind.raw!;
          const result = await runPhase(targets[which], next, which === 'graphql' ? okGraphql : okRest, { seconds, concurrency });
          if (result.failures) {
            const key = `${targets[which].name} ${kind.name}`;
            failures.set(key, (failures.get(key) ?? 0) + result.failures);
            console.log(`  ${targets[which].name}, ${kind.name}: ${result.failures} failed, e.g. ${result.firstFailure}`);
          }
          figures[which] = { rps: result.requests / result.seconds, cpu: result.cpuMsPerRequest };
        }
        const entry = results.get(kind.name) ?? { rest: [], graphql: [], raw: [] };
        for (const which of rotated) entry[which].push(figures[which]!);
        results.set(kind.name, entry);
        const { rest, graphql: gql, raw: base } = figures;
        lines.push(
          `  ${kind.name.padEnd(20)} req/s REST ${fixed(rest!.rps, 0)}, GraphQL ${fixed(gql!.rps, 0)}` +
            (base ? `, raw ${fixed(base.rps, 0)} (REST/raw ${fixed(rest!.rps / base.rps)})` : '') +
            `; CPU ms/req REST ${fixed(rest!.cpu)}, GraphQL ${fixed(gql!.cpu)}${base ? `, raw ${fixed(base.cpu)}` : ''}`,
        );
      }
      const listKind = kinds[1];
      for (const which of ['rest', 'graphql', 'raw'] as const) {
        const next = which === 'rest' ? listKind.rest : which === 'graphql' ? listKind.graphql : listKind.raw!;
        const maxRequests = Number(options['latency-requests']);
        const result = await runPhase(targets[which], next, which === 'graphql' ? okGraphql : okRest, {
          seconds: 600,
          concurrency: 1,
          maxRequests,
        });
        latency[which].push([percentile(result.latencies, 50), percentile(result.latencies, 95)]);
      }
      lines.push(
        `  single client, GET /tests?limit=50: p50/p95 ms REST ${latency.rest
          .at(-1)!
          .map((v) => fixed(v, 1))
          .join('/')}, GraphQL ${latency.graphql
          .at(-1)!
          .map((v) => fixed(v, 1))
          .join('/')}, raw ${latency.raw
          .at(-1)!
          .map((v) => fixed(v, 1))
          .join('/')}`,
      );
      console.log(`round ${round}/${rounds} (load average ${loadavg()[0].toFixed(1)})\n${lines.join('\n')}`);
    }

    const peak = { violet: await residentMemory(violet!.child.pid!), raw: await residentMemory(raw.child.pid!) };
    const out: string[] = [];
    out.push(
      `| Request (${concurrency} clients, ${seconds} s each) | REST / raw req/s | GraphQL / REST req/s | CPU ms/req REST | CPU ms/req GraphQL | CPU ms/req raw | CPU REST / raw | CPU GraphQL / REST | req/s REST | req/s raw |`,
    );
    out.push('|---|---|---|---|---|---|---|---|---|---|');
    for (const [name, { rest, graphql: gql, raw: base }] of results) {
      const pairs = (a: Figures[], b: Figures[], value: (x: Figures, y: Figures) => number) => a.map((x, i) => value(x, b[i]));
      out.push(
        `| ${name} | ${base.length ? summary(pairs(rest, base, (x, y) => x.rps / y.rps)) : 'n/a (no baseline)'} | ${summary(pairs(gql, rest, (x, y) => x.rps / y.rps))} | ` +
          `${summary(rest.map((x) => x.cpu))} | ${summary(gql.map((x) => x.cpu))} | ${base.length ? summary(base.map((x) => x.cpu)) : 'n/a'} | ` +
          `${base.length ? summary(pairs(rest, base, (x, y) => x.cpu / y.cpu)) : 'n/a'} | ${summary(pairs(gql, rest, (x, y) => x.cpu / y.cpu))} | ` +
          `${summary(
            rest.map((x) => x.rps),
            0,
          )} | ${
            base.length
              ? summary(
                  base.map((x) => x.rps),
                  0,
                )
              : 'n/a'
          } |`,
      );
    }
    const ms = (values: number[][], index: number) =>
      summary(
        values.map((pair) => pair[index]),
        1,
      );
    out.push('');
    out.push(`| Single client, GET /tests?limit=50 (${options['latency-requests']} requests a round) | p50 ms | p95 ms |`);
    out.push('|---|---|---|');
    for (const [which, label] of [
      ['rest', 'Violet REST'],
      ['graphql', 'Violet GraphQL'],
      ['raw', 'raw baseline'],
    ] as const) {
      out.push(`| ${label} | ${ms(latency[which], 0)} | ${ms(latency[which], 1)} |`);
    }
    const mib = (bytes: number) => `${(bytes / MiB).toFixed(0)} MiB`;
    out.push('');
    out.push('| Process | RSS idle (3 s after start) | RSS peak | RSS after the rounds |');
    out.push('|---|---|---|---|');
    out.push(`| Violet | ${mib(idle.violet.rss)} | ${mib(peak.violet.peak)} | ${mib(peak.violet.rss)} |`);
    out.push(`| raw baseline | ${mib(idle.raw.rss)} | ${mib(peak.raw.peak)} | ${mib(peak.raw.rss)} |`);
    out.push('');
    out.push(
      `Violet start to healthy (${startTimes.length} starts, migrations already applied): ${summary(startTimes.map((v) => v / 1000))} s.`,
    );
    const failed = [...failures].map(([key, count]) => `${key} × ${count}`).join(', ') || 'none';
    out.push(
      `Failed requests: ${failed}. Medians (range) over ${rounds} rounds; load average at the end ${loadavg()
        .map((v) => v.toFixed(1))
        .join(' ')}.`,
    );
    console.log(`\n${out.join('\n')}`);
    if (failures.size) process.exitCode = 1;
  } finally {
    for (const server of servers) await stopServer(server).catch(() => undefined);
    killAll();
    await rm(dataDir, { recursive: true, force: true });
  }
}

/** The ids of the tests read in rotation and of the tests the write renames. */
async function benchmarkIds(url: string): Promise<{ testIds: string[]; writableIds: string[] }> {
  const db = new pg.Client(url);
  await db.connect();
  try {
    const testIds = (await db.query<{ id: string }>(`SELECT id FROM tests ORDER BY md5(id::text) LIMIT ${ROTATION}`)).rows.map((r) => r.id);
    const writableIds = (
      await db.query<{ id: string }>(`SELECT id FROM tests WHERE state IN ('draft', 'rejected') ORDER BY md5(id::text) LIMIT 200`)
    ).rows.map((r) => r.id);
    return { testIds, writableIds };
  } finally {
    await db.end();
  }
}

/**
 * Both builds on the same core (the last), with every thread: on a shared host one core can run slower than another
 * for minutes, and a build that happened to run on it would be charged for it (two copies of one build measured
 * 0.68 of each other's CPU so). Without `taskset` the builds run where the scheduler puts them.
 */
function pinToOneCore(pids: number[]): void {
  const core = String(cpus().length - 1);
  for (const pid of pids) {
    const pinned = spawnSync('taskset', ['--all-tasks', '--cpu-list', '--pid', core, String(pid)], { stdio: 'ignore' });
    if (pinned.status !== 0) {
      console.log('taskset is not available: the two builds run on whichever cores the scheduler gives them');
      return;
    }
  }
  console.log(`both builds run on core ${core}`);
}

/**
 * Two builds of Violet side by side on the same database: `directory` (a copy of dist/ made before a change) and
 * dist/. Both must answer the three reads byte for byte alike; then each round measures each read on both, the
 * order alternating, and prints the CPU per request of each and after ÷ before. Two copies of one build measured so
 * show what the machine's noise alone gives.
 */
async function compare(violetEnv: NodeJS.ProcessEnv, dataDir: string, directory: string): Promise<void> {
  const builds = [
    { name: 'before', entry: join(resolve(directory), 'src', 'main.js') },
    { name: 'after', entry: violetEntry },
  ];
  const servers: Server[] = [];
  try {
    for (const build of builds) {
      const env = { ...violetEnv, DATA_DIR: join(dataDir, build.name) };
      servers.push(await startServer(`Violet ${build.name}`, build.entry, env, SERVICE_NODE_FLAGS));
    }
    pinToOneCore(servers.map((server) => server.child.pid!));
    const [before, after] = await Promise.all(
      servers.map(async (server): Promise<Target> => {
        const token = await signIn(server.base);
        return { name: server.name, base: server.base, pid: server.child.pid!, agent: targetAgent(concurrency), token };
      }),
    );
    const { testIds, writableIds } = await benchmarkIds(violetEnv.DATABASE_URL!);
    // Both builds answer the same form: the REST row, or with --compare-graphql its GraphQL document.
    const [form, ok] = options['compare-graphql'] ? (['graphql', okGraphql] as const) : (['rest', okRest] as const);
    const reads = requestKinds(testIds, writableIds)
      .filter((kind) => kind.raw)
      .map((kind) => ({ ...kind, rest: kind[form], raw: kind[form] }));
    for (const [kind, verdict] of await checkIdentity(before, after, reads)) console.log(`byte identity, ${kind}: ${verdict}`);
    for (const kind of reads) for (const target of [before, after]) await runPhase(target, kind.rest, ok, { seconds: 1, concurrency });

    const ratios = new Map<string, { before: number[]; after: number[] }>();
    for (let round = 1; round <= rounds; round++) {
      const lines: string[] = [];
      for (const kind of reads) {
        const cpu = { before: 0, after: 0 };
        const order = round % 2 ? [before, after] : [after, before];
        for (const target of order) {
          const result = await runPhase(target, kind.rest, ok, { seconds, concurrency });
          if (result.failures) throw new Error(`${target.name}, ${kind.name}: ${result.failures} failed, e.g. ${result.firstFailure}`);
          cpu[target === before ? 'before' : 'after'] = result.cpuMsPerRequest;
        }
        const entry = ratios.get(kind.name) ?? { before: [], after: [] };
        entry.before.push(cpu.before);
        entry.after.push(cpu.after);
        ratios.set(kind.name, entry);
        lines.push(
          `  ${kind.name.padEnd(20)} CPU ms/req before ${fixed(cpu.before)}, after ${fixed(cpu.after)} (after/before ${fixed(cpu.after / cpu.before)})`,
        );
      }
      console.log(`round ${round}/${rounds} (load average ${loadavg()[0].toFixed(1)})\n${lines.join('\n')}`);
    }
    console.log(
      `\n| Request (${concurrency} clients, ${seconds} s each) | CPU ms/req before | CPU ms/req after | after / before |\n|---|---|---|---|`,
    );
    for (const [name, { before: was, after: now }] of ratios) {
      console.log(`| ${name} | ${summary(was)} | ${summary(now)} | ${summary(now.map((value, n) => value / was[n]))} |`);
    }
    console.log(`Medians (range) over ${rounds} rounds, the after/before ratio taken round by round.`);
  } finally {
    for (const server of servers) await stopServer(server).catch(() => undefined);
  }
}

/** Violet under `node --cpu-prof`, answering --profile-request (REST, --concurrency clients) for --profile-seconds: the frames with the most self time. */
async function profile(violetEnv: NodeJS.ProcessEnv, dataDir: string): Promise<void> {
  const directory = resolve(options['profile-dir'] ?? join(dataDir, 'profile'));
  const violet = await startServer('Violet', violetEntry, violetEnv, [...SERVICE_NODE_FLAGS, '--cpu-prof', `--cpu-prof-dir=${directory}`]);
  let from = Number.POSITIVE_INFINITY;
  try {
    const token = await signIn(violet.base);
    const { testIds } = await benchmarkIds(violetEnv.DATABASE_URL!);
    const form = options['profile-graphql'] ? 'GraphQL' : 'REST';
    const target: Target = { name: `Violet ${form}`, base: violet.base, pid: violet.child.pid!, agent: targetAgent(concurrency), token };
    const kinds = requestKinds(testIds, testIds);
    const single = kinds.find((kind) => kind.name === options['profile-request']);
    if (!single) throw new Error(`--profile-request must be one of ${kinds.map((kind) => kind.name).join(', ')}`);
    const [call, ok] = options['profile-graphql'] ? [single.graphql, okGraphql] : [single.rest, okRest];
    await runPhase(target, call, ok, { seconds: 3, concurrency });
    from = Number(process.hrtime.bigint() / 1000n);
    const result = await runPhase(target, call, ok, { seconds: Number(options['profile-seconds']), concurrency });
    console.log(
      `profiled ${result.requests} requests of ${single.name}, ${form} form (${fixed(result.cpuMsPerRequest)} ms CPU each, ${result.failures} failed)`,
    );
  } finally {
    await stopServer(violet);
  }
  if (options['profile-dir']) console.log(`profiles kept in ${directory}; the load started at ${from} µs`);
  const { frames, packages } = await topSelfFrames(directory, from, Number(options['profile-frames']));
  console.log('top frames by self time while under load (start-up and warm-up left out):');
  for (const line of frames) console.log(`  ${line}`);
  console.log('self time by package:');
  for (const line of packages) console.log(`  ${line}`);
}

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    killAll();
    process.exit(130);
  });
}
await main().catch((error: Error) => {
  killAll();
  console.error(`bench:api: ${error.message}`);
  process.exitCode = 1;
});
