/**
 * Measures the analytics endpoints (campaigns, metrics, dashboard, scores, heatmap, snapshots, risk, reports) over
 * real HTTP against the large dataset of `npm run seed:large`, and reports p50/p95/max per endpoint against the
 * 100 ms p95 budget.
 *
 *   npm run bench:analytics [-- --requests=50 --warmup=5 --only=/metrics --json[=file] --markdown=file --no-explain --trace --strict]
 *
 * The app runs in this process (services + createApp, as in production) on DATABASE_URL (default
 * postgresql://postgres@127.0.0.1:5432/violet_bench) and REDIS_URL (default redis://127.0.0.1:6379 when it
 * answers; otherwise the in-process cache). Requests go one at a time as an admin. Endpoints that use the
 * result cache are measured warm (as served) and again cold, the cache being invalidated before each request
 * (for generated documents: their first rendering). POST /risk/compute, /snapshots and /dashboard/posture-snapshot
 * are measured the same way, first (the snapshots they create are deleted right after). For every endpoint over
 * budget the slowest SQL statement it ran is shown
 * with EXPLAIN (ANALYZE, BUFFERS). --json prints the whole report as JSON on stdout (the table goes to
 * stderr), --json=file writes it to a file, --markdown=file the tables as Markdown. --trace prints the statements of
 * one request per endpoint with their times. --strict exits with 1 when an endpoint is over budget.
 */
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { connect as connectTcp, type AddressInfo } from 'node:net';
import { cpus, loadavg, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { routes } from '../rest-adapter/routes.ts';
import type { Route } from '../rest-adapter/types.ts';
import { createApp } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import { createLogger } from '../src/logger.ts';
import { createServices } from '../src/composition.ts';
import type { Services } from '../src/services.ts';
import { wiring } from '../workers/wiring.ts';

const DEFAULT_DATABASE_URL = 'postgresql://postgres@127.0.0.1:5432/violet_bench';
const DEFAULT_REDIS_URL = 'redis://127.0.0.1:6379';
const BUDGET_MS = 100;
/** Endpoints with a budget of their own: the detection-operations computations over the whole dataset. */
const BUDGETS_MS: Record<string, number> = { '/alerts/evaluate': 500, '/ownership/revalidation-queue/generate': 500 };
const budgetOf = (endpoint: string) => BUDGETS_MS[endpoint.split('?')[0]] ?? BUDGET_MS;
const PREFIXES = [
  '/campaigns',
  '/metrics',
  '/dashboard',
  '/scores',
  '/heatmap',
  '/snapshots',
  '/risk',
  '/reports',
  '/detection-lifecycle',
  '/ownership',
  '/alerts',
  '/analytics',
];
const DOCUMENT_PREFIX = '/reports/generate/';

/** Every GET of the analytics issue, as the spec names them (path parameters as ':'). */
const EXPECTED_GETS = [
  '/campaigns',
  '/campaigns/:',
  '/campaigns/:/progress',
  '/campaigns/:/history',
  '/metrics/summary',
  '/metrics/by-tactic',
  '/metrics/test-pipeline',
  '/metrics/team-activity',
  '/metrics/validation-rate',
  '/metrics/recent-tests',
  '/metrics/operational',
  '/metrics/operational/trend',
  '/metrics/operational/by-team',
  '/dashboard/kpis',
  '/dashboard/executive',
  '/dashboard/coverage-by-tactic',
  '/dashboard/posture-history',
  '/dashboard/activity',
  '/scores/technique/:',
  '/scores/tactic/:',
  '/scores/threat-actor/:',
  '/scores/organization',
  '/scores/history',
  '/scores/config',
  '/heatmap',
  '/snapshots',
  '/snapshots/:',
  '/snapshots/evolution',
  '/snapshots/compare',
  '/risk/profiles',
  '/risk/matrix',
  '/risk/summary',
  '/risk/recommendations',
  '/risk/top',
  '/reports/coverage-summary',
  '/reports/coverage-csv',
  '/reports/test-results',
  '/reports/remediation-status',
  '/reports/generate/purple-campaign/:',
  '/reports/generate/coverage-summary',
  '/reports/generate/executive-summary',
  '/reports/generate/quarterly-summary',
  '/reports/generate/technique/:',
  '/detection-lifecycle/assets',
  '/detection-lifecycle/assets/:',
  '/detection-lifecycle/validations',
  '/detection-lifecycle/infrastructure-changes',
  '/detection-lifecycle/dashboard',
  '/ownership/assignments',
  '/ownership/assets',
  '/ownership/revalidation-queue',
  '/alerts',
  '/alerts/summary',
  '/alerts/:',
  '/alerts/rules',
  '/alerts/rules/:',
  '/analytics',
];
const TIMED_POSTS = [
  '/risk/compute',
  '/snapshots',
  '/dashboard/posture-snapshot',
  '/alerts/evaluate',
  '/ownership/revalidation-queue/generate',
];

/** Extra query strings measured as endpoints of their own. */
const VARIANTS: Record<string, string[]> = {
  '/heatmap': ['format=navigator'],
  '/metrics/operational/trend': ['period=1y'],
  '/scores/history': ['period=1y'],
  '/risk/top': ['limit=20'],
  '/analytics': ['period=90d', 'period=1y'],
  '/detection-lifecycle/dashboard': ['limit=200'],
};

const shape = (path: string) => path.replace(/:[A-Za-z_]+/g, ':');

// ---------------------------------------------------------------------------------------------------------------
// Options

interface Options {
  requests: number;
  warmup: number;
  only?: string;
  json: boolean | string;
  /** Writes the tables as Markdown to this file (for docs/benchmark.md). */
  markdown?: string;
  explain: boolean;
  /** Prints the SQL statements (with times) of one request per endpoint. */
  trace: boolean;
  strict: boolean;
}

function parseOptions(argv: string[]): Options {
  const value = (name: string) => argv.find((arg) => arg.startsWith(`--${name}=`))?.slice(name.length + 3);
  const json = argv.includes('--json') ? true : (value('json') ?? false);
  const options: Options = {
    requests: Number(value('requests') ?? 50),
    warmup: Number(value('warmup') ?? 5),
    only: value('only'),
    json,
    markdown: value('markdown'),
    explain: !argv.includes('--no-explain'),
    trace: argv.includes('--trace'),
    strict: argv.includes('--strict'),
  };
  if (!Number.isInteger(options.requests) || options.requests < 1) throw new Error('--requests must be a positive integer');
  if (!Number.isInteger(options.warmup) || options.warmup < 0) throw new Error('--warmup must be 0 or more');
  return options;
}

// ---------------------------------------------------------------------------------------------------------------
// SQL capture: every statement the app sends through `pg` (the Prisma adapter's driver), with its duration.

interface CapturedQuery {
  text: string;
  values: unknown[];
  ms: number;
}

const capture = { active: false, queries: [] as CapturedQuery[] };

function captureSql(): void {
  const prototype = pg.Client.prototype as unknown as { query: (...args: unknown[]) => unknown };
  const original = prototype.query;
  prototype.query = function (this: pg.Client, ...args: unknown[]) {
    if (!capture.active) return original.apply(this, args);
    const [config, values] = args as [string | { text?: string; values?: unknown[] }, unknown];
    const text = typeof config === 'string' ? config : (config?.text ?? '');
    const params = Array.isArray(values) ? values : typeof config === 'object' ? (config?.values ?? []) : [];
    const started = performance.now();
    const record = () => capture.queries.push({ text, values: params, ms: performance.now() - started });
    const callbackAt = args.findIndex((arg) => typeof arg === 'function');
    if (callbackAt >= 0) {
      const callback = args[callbackAt] as (...results: unknown[]) => void;
      args[callbackAt] = (...results: unknown[]) => {
        record();
        callback(...results);
      };
      return original.apply(this, args);
    }
    const result = original.apply(this, args) as Promise<unknown> | undefined;
    result?.then?.(record, record);
    return result;
  };
}

// ---------------------------------------------------------------------------------------------------------------
// The app

async function redisUrl(): Promise<string | undefined> {
  if (process.env.REDIS_URL) return process.env.REDIS_URL;
  const url = new URL(DEFAULT_REDIS_URL);
  const answers = await new Promise<boolean>((resolve) => {
    const socket = connectTcp({ host: url.hostname, port: Number(url.port) });
    socket.setTimeout(500);
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
    socket.once('timeout', () => {
      socket.destroy();
      resolve(false);
    });
  });
  return answers ? DEFAULT_REDIS_URL : undefined;
}

interface Bench {
  url: string;
  services: Services;
  token: string;
  /** Calls of the result cache since the last reset, and how many of them computed (missed). */
  cacheUse: { calls: number; misses: number };
  close(): Promise<void>;
}

async function startBench(databaseUrl: string, redis: string | undefined): Promise<Bench> {
  const dataDir = await mkdtemp(join(tmpdir(), 'violet-bench-'));
  const prefix = `violet-bench-${randomBytes(4).toString('hex')}`;
  const config = loadConfig({
    NODE_ENV: 'production',
    DATABASE_URL: databaseUrl,
    ...(redis ? { REDIS_URL: redis } : {}),
    REDIS_PREFIX: prefix,
    JWT_SECRET: randomBytes(32).toString('hex'),
    DATA_DIR: dataDir,
    LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn',
    PORT: '0',
    HOST: '127.0.0.1',
    RUN_WORKERS: 'off',
    SOURCE_SYNC_SCHEDULES: 'false',
  });
  const services = await createServices(config, createLogger(config.LOG_LEVEL), 'api', wiring);
  const cacheUse = { calls: 0, misses: 0 };
  const remember = services.cache.remember.bind(services.cache);
  services.cache.remember = (tag, key, ttlMs, compute) => {
    cacheUse.calls += 1;
    return remember(tag, key, ttlMs, () => {
      cacheUse.misses += 1;
      return compute();
    });
  };
  const app = await createApp(services);
  app.server.listen(0, '127.0.0.1');
  await once(app.server, 'listening');
  const admin = await services.prisma.user.findFirst({ where: { role: 'admin', isActive: true }, orderBy: { username: 'asc' } });
  if (!admin) throw new Error('the database has no active admin: run `npm run seed:large` first');
  const { token } = await services.tokens.issue(admin.id, admin.role, admin.sessionVersion);
  return {
    url: `http://127.0.0.1:${(app.server.address() as AddressInfo).port}/api/v1`,
    services,
    token,
    cacheUse,
    async close() {
      await app.close();
      await new Promise((resolve) => app.server.close(resolve));
      if (services.redis) {
        const keys = await services.redis.keys(`${prefix}:*`);
        if (keys.length) await services.redis.del(...keys);
      }
      await services.close();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

// ---------------------------------------------------------------------------------------------------------------
// Path parameters: real ids, the busiest of each kind (the worst case for detail endpoints)

interface Fixtures {
  campaign?: string;
  technique?: { id: string; ttp_id: string };
  tactic?: { short_name: string; name: string; external_id: string };
  actor?: string;
  newestSnapshot?: string;
  oldestSnapshot?: string;
  detectionAsset?: string;
  alert?: string;
  alertRule?: string;
}

async function loadFixtures(services: Services): Promise<Fixtures> {
  const one = async <T>(query: Promise<T[]>) => (await query)[0];
  const prisma = services.prisma;
  const campaign = await one(prisma.$queryRaw<{ id: string }[]>`
    SELECT campaign_id::text AS id FROM tests WHERE campaign_id IS NOT NULL GROUP BY campaign_id ORDER BY count(*) DESC LIMIT 1`);
  const technique = await one(prisma.$queryRaw<{ id: string; ttp_id: string }[]>`
    SELECT t.id::text, t.ttp_id FROM techniques t JOIN tests x ON x.technique_id = t.id GROUP BY t.id ORDER BY count(*) DESC LIMIT 1`);
  const tactic = await one(prisma.$queryRaw<{ short_name: string; name: string; external_id: string }[]>`
    SELECT a.short_name, a.name, a.external_id FROM tactics a JOIN techniques t ON a.short_name = ANY (t.tactics)
    GROUP BY a.id ORDER BY count(*) DESC LIMIT 1`);
  const actor = await one(prisma.$queryRaw<{ id: string }[]>`
    SELECT actor_id::text AS id FROM threat_actor_techniques GROUP BY actor_id ORDER BY count(*) DESC LIMIT 1`);
  const snapshots = await prisma.snapshot.findMany({ orderBy: { createdAt: 'asc' }, select: { id: true } });
  const detectionAsset = await prisma.detectionAsset.findFirst({ orderBy: { name: 'asc' }, select: { id: true } });
  const alert = await prisma.alertInstance.findFirst({ orderBy: { firedAt: 'desc' }, select: { id: true, ruleId: true } });
  return {
    detectionAsset: detectionAsset?.id,
    alert: alert?.id,
    alertRule: alert?.ruleId,
    campaign: campaign?.id,
    technique,
    tactic,
    actor: actor?.id,
    oldestSnapshot: snapshots[0]?.id,
    newestSnapshot: snapshots.at(-1)?.id,
  };
}

/** Values worth trying for one path parameter, best first; the first that answers 2xx is kept. */
function candidatesFor(path: string, parameter: string, fixtures: Fixtures): string[] {
  const segments = path.split('/');
  const before = segments[segments.indexOf(`:${parameter}`) - 1] ?? '';
  const known = (...values: (string | undefined)[]) => values.filter((value): value is string => Boolean(value));
  if (parameter === 'ttp_id') return known(fixtures.technique?.ttp_id);
  if (parameter === 'tactic' || before === 'tactic')
    return known(fixtures.tactic?.short_name, fixtures.tactic?.name, fixtures.tactic?.external_id);
  if (parameter === 'actor_id' || before === 'threat-actor' || before === 'threat-actors') return known(fixtures.actor);
  if (before === 'campaigns' || before === 'purple-campaign' || before === 'campaign') return known(fixtures.campaign);
  if (before === 'snapshots' || before === 'snapshot') return known(fixtures.newestSnapshot);
  if (before === 'technique' || before === 'techniques') return known(fixtures.technique?.id, fixtures.technique?.ttp_id);
  if (before === 'assets') return known(fixtures.detectionAsset);
  if (before === 'rules') return known(fixtures.alertRule);
  if (before === 'alerts') return known(fixtures.alert);
  return [];
}

/** Query strings required by a route (snapshot comparison needs a and b). */
function requiredQuery(route: Route, fixtures: Fixtures): string {
  if (shape(route.path) === '/snapshots/compare' && fixtures.oldestSnapshot && fixtures.newestSnapshot) {
    return `a=${fixtures.oldestSnapshot}&b=${fixtures.newestSnapshot}`;
  }
  return '';
}

// ---------------------------------------------------------------------------------------------------------------
// Measuring

interface Sample {
  status: number;
  ms: number;
  bytes: number;
  contentType: string;
  payload: ArrayBuffer;
}

type Method = 'GET' | 'POST';

async function request(bench: Bench, method: Method, path: string): Promise<Sample> {
  const started = performance.now();
  const response = await fetch(`${bench.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${bench.token}`, ...(method === 'POST' ? { 'content-type': 'application/json' } : {}) },
    body: method === 'POST' ? '{}' : undefined,
  });
  const payload = await response.arrayBuffer();
  const ms = performance.now() - started;
  return { status: response.status, ms, bytes: payload.byteLength, contentType: response.headers.get('content-type') ?? '', payload };
}

/** Nearest-rank percentile of sorted values. */
const percentile = (sorted: number[], p: number) => sorted[Math.max(0, Math.ceil((p / 100) * sorted.length) - 1)];
const round1 = (value: number) => Math.round(value * 10) / 10;

interface Measurement {
  method: Method;
  endpoint: string;
  kind: 'json' | 'document' | 'write';
  mode: 'warm' | 'cold';
  status: number;
  statuses: Record<string, number>;
  p50: number;
  p95: number;
  max: number;
  bytes: number;
  contentType: string;
  sqlPerRequest: number;
  /** The statement with the highest mean time over the samples. */
  slowestSql?: { ms: number; text: string; values: unknown[] };
  cached: boolean;
  pass: boolean;
  explain?: string;
}

interface MeasureOptions {
  method?: Method;
  /** Sees every answer (e.g. to collect the ids of what a POST created). */
  onAnswer?: (sample: Sample) => void;
}

async function measure(
  bench: Bench,
  endpoint: string,
  count: number,
  mode: 'warm' | 'cold',
  options: MeasureOptions = {},
): Promise<Omit<Measurement, 'kind' | 'cached'>> {
  const { method = 'GET', onAnswer } = options;
  const samples: Sample[] = [];
  // Statements by text: the one with the highest mean time is the endpoint's slowest (one slow sample is noise).
  const byText = new Map<string, { query: CapturedQuery; total: number; runs: number }>();
  let statements = 0;
  for (let index = 0; index < count; index += 1) {
    if (mode === 'cold') await Promise.all([bench.services.cache.invalidate('analytics'), bench.services.cache.invalidate('rendered')]);
    capture.queries = [];
    capture.active = true;
    const sample = await request(bench, method, endpoint);
    capture.active = false;
    onAnswer?.(sample);
    samples.push({ ...sample, payload: new ArrayBuffer(0) });
    statements += capture.queries.length;
    for (const query of capture.queries) {
      const seen = byText.get(query.text) ?? { query, total: 0, runs: 0 };
      seen.total += query.ms;
      seen.runs += 1;
      byText.set(query.text, seen);
    }
  }
  const heaviest = [...byText.values()].sort((a, b) => b.total / b.runs - a.total / a.runs)[0];
  const slowest = heaviest && { ...heaviest.query, ms: heaviest.total / heaviest.runs };
  const times = samples.map((sample) => sample.ms).sort((a, b) => a - b);
  const statuses: Record<string, number> = {};
  for (const sample of samples) statuses[sample.status] = (statuses[sample.status] ?? 0) + 1;
  const status = Number(Object.entries(statuses).sort((a, b) => b[1] - a[1])[0][0]);
  const p95 = round1(percentile(times, 95));
  return {
    method,
    endpoint,
    mode,
    status,
    statuses,
    p50: round1(percentile(times, 50)),
    p95,
    max: round1(times.at(-1)!),
    bytes: samples.at(-1)!.bytes,
    contentType: samples.at(-1)!.contentType.split(';')[0],
    sqlPerRequest: round1(statements / count),
    slowestSql: slowest && { ms: round1(slowest.ms), text: slowest.text, values: slowest.values },
    pass: Object.keys(statuses).every((code) => Number(code) < 400) && p95 < budgetOf(endpoint),
  };
}

interface Target {
  route: Route;
  endpoint: string;
  kind: 'json' | 'document' | 'write';
}

/** The GET endpoints to measure, each with real parameters; routes whose parameters cannot be filled are reported. */
async function targetsFrom(bench: Bench, fixtures: Fixtures, only: string | undefined): Promise<{ targets: Target[]; unfilled: string[] }> {
  const targets: Target[] = [];
  const unfilled: string[] = [];
  const gets = routes.filter(
    (route) => route.method === 'GET' && PREFIXES.some((prefix) => route.path === prefix || route.path.startsWith(`${prefix}/`)),
  );
  for (const route of gets) {
    if (only && !route.path.startsWith(only)) continue;
    const parameters = [...route.path.matchAll(/:([A-Za-z_]+)/g)].map((match) => match[1]);
    let paths = [route.path];
    for (const parameter of parameters) {
      const values = candidatesFor(route.path, parameter, fixtures);
      paths = paths.flatMap((path) => values.map((value) => path.replace(`:${parameter}`, encodeURIComponent(value))));
    }
    if (!paths.length) {
      unfilled.push(`GET ${route.path}`);
      continue;
    }
    const query = requiredQuery(route, fixtures);
    const withQuery = (path: string, extra = '') => {
      const parts = [query, extra].filter(Boolean).join('&');
      return parts ? `${path}?${parts}` : path;
    };
    // Keep the first candidate that answers 2xx (e.g. a tactic by short name or by display name).
    let chosen = paths[0];
    for (const path of paths) {
      const { status } = await request(bench, 'GET', withQuery(path));
      if (status < 300) {
        chosen = path;
        break;
      }
    }
    const kind = route.path.startsWith(DOCUMENT_PREFIX) ? 'document' : 'json';
    targets.push({ route, endpoint: withQuery(chosen), kind });
    for (const extra of VARIANTS[route.path] ?? []) targets.push({ route, endpoint: withQuery(chosen, extra), kind });
  }
  return { targets, unfilled };
}

async function explain(databaseUrl: string, query: CapturedQuery): Promise<string> {
  if (!/^\s*(SELECT|WITH)\b/i.test(query.text) || /\b(INSERT|UPDATE|DELETE)\b/i.test(query.text))
    return '(not a read-only SELECT: not explained)';
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const { rows } = await client.query<{ 'QUERY PLAN': string }>(`EXPLAIN (ANALYZE, BUFFERS) ${query.text}`, query.values as unknown[]);
    return rows.map((row) => row['QUERY PLAN']).join('\n');
  } catch (error) {
    return `(EXPLAIN failed: ${(error as Error).message})`;
  } finally {
    await client.end();
  }
}

// ---------------------------------------------------------------------------------------------------------------
// Report

function table(rows: Measurement[]): string {
  const header = ['endpoint', 'status', 'p50 ms', 'p95 ms', 'max ms', 'sql/req', 'bytes', 'result'];
  const body = rows.map((row) => [
    row.endpoint.length > 78 ? `${row.endpoint.slice(0, 75)}...` : row.endpoint,
    Object.keys(row.statuses).length > 1 ? Object.keys(row.statuses).join('/') : String(row.status),
    row.p50.toFixed(1),
    row.p95.toFixed(1),
    row.max.toFixed(1),
    row.sqlPerRequest.toFixed(1),
    String(row.bytes),
    row.status >= 400 ? 'ERROR' : row.pass ? 'PASS' : 'FAIL',
  ]);
  const widths = header.map((title, column) => Math.max(title.length, ...body.map((cells) => cells[column].length)));
  const line = (cells: string[]) =>
    cells.map((cell, column) => (column === 0 ? cell.padEnd(widths[column]) : cell.padStart(widths[column]))).join('  ');
  return [line(header), widths.map((width) => '-'.repeat(width)).join('  '), ...body.map(line)].join('\n');
}

interface Report {
  date: string;
  machine: { cpus: number; cpu?: string; memoryGb: number; node: string; postgres: string; loadBefore: number[]; loadAfter: number[] };
  cache: string;
  options: { requests: number; warmup: number; budgetMs: number };
  dataset: Record<string, number>;
  warm: Measurement[];
  cold: Measurement[];
  /** Generated documents as served. */
  documents: Measurement[];
  /** Generated documents at their first rendering (cache invalidated before every request). */
  firstRenderings: Measurement[];
  writes: Measurement[];
  notBuilt: string[];
  unfilled: string[];
  verdict: string;
}

/** The report's tables in Markdown; long ids in paths are shortened to ':id'. */
function markdownOf(report: Report): string {
  const idless = (endpoint: string) => endpoint.replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, ':id');
  const rows = (measurements: Measurement[], verdict: (row: Measurement) => string) => [
    '| endpoint | status | p50 ms | p95 ms | max ms | SQL/request | result |',
    '|---|---:|---:|---:|---:|---:|---|',
    ...measurements.map(
      (row) =>
        `| \`${row.method} ${idless(row.endpoint)}\` | ${Object.keys(row.statuses).join('/')} | ${row.p50.toFixed(1)} | ${row.p95.toFixed(1)} | ${row.max.toFixed(1)} | ${row.sqlPerRequest.toFixed(1)} | ${verdict(row)} |`,
    ),
  ];
  const budget = (row: Measurement) => (row.status >= 400 ? 'error' : row.pass ? 'pass' : '**over**');
  const load = (values: number[]) => values.map((value) => value.toFixed(1)).join(' / ');
  const section = (title: string, items: unknown[], lines: () => string[]) => (items.length ? [`#### ${title}`, '', ...lines(), ''] : []);
  return [
    `Measured ${report.date.slice(0, 16).replace('T', ' ')} UTC on ${report.machine.cpus} cores (${report.machine.cpu ?? 'unknown CPU'}, ${report.machine.memoryGb} GB), Node ${report.machine.node}, PostgreSQL ${report.machine.postgres}, cache: ${report.cache}; ${report.options.requests} requests per endpoint after ${report.options.warmup} warm-up; load average before ${load(report.machine.loadBefore)}, after ${load(report.machine.loadAfter)}.`,
    '',
    `Dataset: ${Object.entries(report.dataset)
      .map(([key, value]) => `${key} ${value.toLocaleString('en-US')}`)
      .join(', ')}.`,
    '',
    ...section('Warm (as served)', report.warm, () => rows(report.warm, budget)),
    ...section('Cached endpoints, cold (cache invalidated before every request)', report.cold, () => rows(report.cold, budget)),
    ...section('Generated documents, as served', report.documents, () => rows(report.documents, budget)),
    ...section('Generated documents, first rendering (cache invalidated before every request)', report.firstRenderings, () =>
      rows(report.firstRenderings, budget),
    ),
    ...section('Writes', report.writes, () => rows(report.writes, budget)),
    report.notBuilt.length
      ? `Not built: ${report.notBuilt.map((path) => `\`${path}\``).join(', ')}.`
      : 'Every endpoint of the list was built.',
    '',
    `Verdict: **${report.verdict}**.`,
    '',
  ].join('\n');
}

/** One more request with its SQL statements and their times. */
async function traceRequest(bench: Bench, endpoint: string): Promise<string> {
  const started = performance.now();
  capture.queries = [];
  capture.active = true;
  await request(bench, 'GET', endpoint);
  capture.active = false;
  const total = performance.now() - started;
  const sql = capture.queries.reduce((sum, query) => sum + query.ms, 0);
  const lines = capture.queries.map(
    (query) => `    ${query.ms.toFixed(1).padStart(7)} ms  ${query.text.replace(/\s+/g, ' ').trim().slice(0, 110)}`,
  );
  return `\n${endpoint}: ${total.toFixed(1)} ms, SQL ${sql.toFixed(1)} ms\n${lines.join('\n')}`;
}

/** Every measured row against the budget: answers over it and answers that are errors. */
function verdictOf(rows: Measurement[]): { over: Measurement[]; errors: Measurement[] } {
  return { over: rows.filter((row) => !row.pass && row.status < 400), errors: rows.filter((row) => row.status >= 400) };
}

const allRows = (report: Pick<Report, 'warm' | 'cold' | 'documents' | 'firstRenderings' | 'writes'>) => [
  ...report.warm,
  ...report.cold,
  ...report.documents,
  ...report.firstRenderings,
  ...report.writes,
];

function printReport(report: Report, out: (text: string) => void): void {
  const { warm: json, cold, documents, firstRenderings, writes, notBuilt, unfilled } = report;
  out(`Endpoints, warm (as served; cached ones from the result cache), budget p95 < ${BUDGET_MS} ms\n${table(json)}\n`);
  if (cold.length) out(`Cached endpoints, cold (cache invalidated before every request)\n${table(cold)}\n`);
  if (documents.length) out(`Generated documents, as served\n${table(documents)}\n`);
  if (firstRenderings.length)
    out(`Generated documents, first rendering (cache invalidated before every request)\n${table(firstRenderings)}\n`);
  if (writes.length) out(`Writes\n${table(writes)}\n`);
  if (notBuilt.length) out(`Not built (no route yet): ${notBuilt.join(', ')}`);
  if (unfilled.length) out(`Not measured (no value for a path parameter): ${unfilled.join(', ')}`);
  const { over, errors } = verdictOf(allRows(report));
  if (errors.length) out(`Errors: ${errors.map((row) => `${row.method} ${row.endpoint} → ${row.status}`).join(', ')}`);
  const clip = (text: string) =>
    text
      .split('\n')
      .map((line) => (line.length > 200 ? `${line.slice(0, 197)}...` : line))
      .join('\n');
  for (const row of over) {
    out(
      `\n${row.mode.toUpperCase()} ${row.method} ${row.endpoint}: p95 ${row.p95} ms; slowest statement (mean ${row.slowestSql?.ms} ms):\n${clip(row.slowestSql?.text.trim() ?? '')}`,
    );
    if (row.explain) out(`\n${clip(row.explain)}`);
  }
  const passed = (rows: Measurement[]) => `${rows.filter((row) => row.pass).length}/${rows.length}`;
  out(
    `\nunder ${BUDGET_MS} ms p95: warm ${passed(json)}; cold ${passed(cold)}; documents ${passed(documents)} as served, ${passed(firstRenderings)} first rendered; writes ${passed(writes)}; ${notBuilt.length} not built`,
  );
  out(
    `${report.verdict}: ${
      report.verdict === 'PASS'
        ? `every measured endpoint answers within its budget (${BUDGET_MS} ms p95; ${Object.entries(BUDGETS_MS)
            .map(([path, ms]) => `${path} ${ms} ms`)
            .join(', ')})`
        : `${over.length} over budget, ${errors.length} answering an error`
    }`,
  );
}

/**
 * Measures each POST of TIMED_POSTS that exists like a GET (warm-up, then the measured requests, empty body);
 * the snapshots they create are deleted at once, so that the reads measure the seeded dataset.
 */
async function measureWrites(bench: Bench, options: Options): Promise<Measurement[]> {
  const writes: Measurement[] = [];
  for (const path of TIMED_POSTS) {
    if (options.only && !path.startsWith(options.only)) continue;
    if (!routes.some((route) => route.method === 'POST' && route.path === path)) continue;
    const created: string[] = [];
    const onAnswer = (sample: Sample) => {
      const id = /"id"\s*:\s*"([0-9a-f-]{36})"/.exec(Buffer.from(sample.payload).toString('utf8'))?.[1];
      if (path.includes('snapshot') && id) created.push(id);
    };
    for (let index = 0; index < options.warmup; index += 1) onAnswer(await request(bench, 'POST', path));
    const result = await measure(bench, path, options.requests, 'warm', { method: 'POST', onAnswer });
    writes.push({ ...result, kind: 'write', cached: false });
    if (created.length) await bench.services.prisma.snapshot.deleteMany({ where: { id: { in: created } } });
    process.stderr.write('.');
  }
  return writes;
}

async function datasetCounts(services: Services): Promise<Record<string, number>> {
  const [counts] = await services.prisma.$queryRaw<Record<string, bigint>[]>`
    SELECT (SELECT count(*) FROM techniques) AS techniques, (SELECT count(*) FROM tests) AS tests,
           (SELECT count(*) FROM test_events) AS test_events, (SELECT count(*) FROM audit_logs) AS audit_logs,
           (SELECT count(*) FROM campaigns) AS campaigns, (SELECT count(*) FROM snapshots) AS snapshots,
           (SELECT count(*) FROM threat_actor_techniques) AS actor_techniques, (SELECT count(*) FROM users) AS users`;
  return Object.fromEntries(Object.entries(counts).map(([key, value]) => [key, Number(value)]));
}

async function main(): Promise<void> {
  const options = parseOptions(process.argv.slice(2));
  const databaseUrl = process.env.DATABASE_URL ?? DEFAULT_DATABASE_URL;
  const out = options.json === true ? console.error : console.log;
  captureSql();
  const redis = await redisUrl();
  const bench = await startBench(databaseUrl, redis);
  try {
    const { services } = bench;
    const [{ version }] = await services.prisma.$queryRaw<{ version: string }[]>`SELECT current_setting('server_version') AS version`;
    // Each run starts without the dead rows of the last one's writes (POST /risk/compute rewrites every profile),
    // which would slow this run's reads wherever autovacuum is off or has not come round yet.
    await services.prisma.$executeRawUnsafe('VACUUM (ANALYZE)');
    const dataset = await datasetCounts(services);
    const startedAt = new Date();
    const loadBefore = loadavg();
    out(
      `dataset: ${Object.entries(dataset)
        .map(([key, value]) => `${key} ${value.toLocaleString('en-US')}`)
        .join(', ')}`,
    );
    out(
      `cache: ${redis ? `Redis (${redis})` : 'in-process (no Redis answered)'}; ${options.requests} requests per endpoint after ${options.warmup} warm-up\n`,
    );

    // Writes first: risk profiles must exist before the risk endpoints are read.
    const writes = await measureWrites(bench, options);

    const fixtures = await loadFixtures(services);
    const { targets, unfilled } = await targetsFrom(bench, fixtures, options.only);
    const built = new Set(routes.filter((route) => route.method === 'GET').map((route) => shape(route.path)));
    const notBuilt = EXPECTED_GETS.filter((path) => !built.has(path) && (!options.only || path.startsWith(options.only))).map(
      (path) => `GET ${path}`,
    );
    for (const path of TIMED_POSTS) {
      if (options.only && !path.startsWith(options.only)) continue;
      if (!routes.some((route) => route.method === 'POST' && route.path === path)) notBuilt.push(`POST ${path}`);
    }

    const warm: Measurement[] = [];
    const cold: Measurement[] = [];
    for (const target of targets) {
      for (let index = 0; index < options.warmup; index += 1) await request(bench, 'GET', target.endpoint);
      bench.cacheUse.calls = 0;
      bench.cacheUse.misses = 0;
      const result = await measure(bench, target.endpoint, options.requests, 'warm');
      if (options.trace) out(await traceRequest(bench, target.endpoint));
      const cached = bench.cacheUse.calls > 0;
      warm.push({ ...result, kind: target.kind, cached });
      if (cached) cold.push({ ...(await measure(bench, target.endpoint, options.requests, 'cold')), kind: target.kind, cached });
      process.stderr.write('.');
    }
    process.stderr.write('\n');

    const rows = {
      warm: warm.filter((row) => row.kind === 'json'),
      cold: cold.filter((row) => row.kind === 'json'),
      documents: warm.filter((row) => row.kind === 'document'),
      firstRenderings: cold.filter((row) => row.kind === 'document'),
      writes,
    };
    const { over, errors } = verdictOf(allRows(rows));
    if (options.explain) {
      for (const row of over) if (row.slowestSql) row.explain = await explain(databaseUrl, { ...row.slowestSql });
    }

    const report: Report = {
      date: startedAt.toISOString(),
      machine: {
        cpus: cpus().length,
        cpu: cpus()[0]?.model,
        memoryGb: Math.round(totalmem() / 2 ** 30),
        node: process.version,
        postgres: version,
        loadBefore,
        loadAfter: loadavg(),
      },
      cache: redis ? 'redis' : 'memory',
      options: { requests: options.requests, warmup: options.warmup, budgetMs: BUDGET_MS },
      dataset,
      ...rows,
      notBuilt,
      unfilled,
      verdict: over.length === 0 && errors.length === 0 ? 'PASS' : 'FAIL',
    };
    printReport(report, out);
    if (options.json === true) console.log(JSON.stringify(report, null, 2));
    else if (typeof options.json === 'string') await writeFile(options.json, `${JSON.stringify(report, null, 2)}\n`);
    if (options.markdown) await writeFile(options.markdown, markdownOf(report));
    if (options.strict && report.verdict === 'FAIL') process.exitCode = 1;
  } finally {
    await bench.close();
  }
}

// Exit explicitly: the WebAssembly schema engine leaves a timer behind that would hold the process open.
main().then(
  () => process.exit(process.exitCode ?? 0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
