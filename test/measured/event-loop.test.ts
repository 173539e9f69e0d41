import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { createClient } from 'graphql-ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { hashPassword } from '../../src/auth/passwords.ts';
import { loadConfig } from '../../src/config.ts';
import { openDatabase, type PrismaClient } from '../../src/db/client.ts';
import { graphqlLimitsOf } from '../../src/graphql/limits/rules.ts';
import { schema } from '../../src/graphql/schema.ts';
import { createLogger } from '../../src/logger.ts';
import { createTestDatabase } from '../helpers/database.ts';
import { startServiceProcess, type ServiceProcess } from '../helpers/service-process.ts';
import { worstCaseQueries, worstCaseSubscription } from '../helpers/worst-case.ts';

// The acceptance of the GraphQL budgets (docs/graphql-limits.md): whatever a viewer sends within the limits, four at
// a time, the health check keeps answering. The documents are generated from the schema and the cost model. The
// service runs in a process of its own (the build, as `npm start` runs it) with an event-loop monitor preloaded;
// this process only sends, samples the health check and discards the answers unread.
const RUN_MS = 6_000;
const HEALTH_P99_MS = 200;
const TECHNIQUES = 40;
const TESTS = 1_000;
const PLAYBOOK_VERSIONS = 100;
const PASSWORD = 'a long enough test passphrase';
const LOOP_PROBE = fileURLToPath(new URL('../helpers/loop-probe.mjs', import.meta.url));

const text = (chars: number, seed: string) => `${seed} `.repeat(Math.ceil(chars / (seed.length + 1))).slice(0, chars);

interface Seeded {
  playbookId: string;
  ttpId: string;
  draftTests: string[];
}

/** Long texts everywhere the worst cases read: 40 techniques, 1,000 tests, a playbook with 100 versions of 100 kB. */
async function seed(prisma: PrismaClient): Promise<Seeded> {
  const passwordHash = await hashPassword(PASSWORD);
  const [author] = await Promise.all(
    (['red_lead', 'viewer'] as const).map((role) => prisma.user.create({ data: { username: role, role, passwordHash } })),
  );
  const techniques = Array.from({ length: TECHNIQUES }, (_, index) => ({
    id: randomUUID(),
    ttpId: `T9${String(index).padStart(3, '0')}`,
    name: `Technique ${index}`,
    description: text(20_000, `technique ${index}`),
    tactic: 'execution',
    tactics: ['execution'],
    platforms: ['linux', 'windows'],
  }));
  await prisma.technique.createMany({ data: techniques });
  const tests = Array.from({ length: TESTS }, (_, index) => {
    const id = randomUUID();
    return {
      id,
      lineageId: id,
      techniqueId: techniques[index % TECHNIQUES].id,
      name: `Test ${index}`,
      description: text(20_000, `test ${index}`),
      procedureText: text(20_000, 'procedure'),
      redSummary: text(20_000, 'red'),
      createdById: author.id,
    };
  });
  for (let start = 0; start < tests.length; start += 100) await prisma.test.createMany({ data: tests.slice(start, start + 100) });
  const content = text(100_000, 'playbook');
  const playbook = await prisma.playbook.create({
    data: {
      techniqueId: techniques[0].id,
      type: 'execution',
      title: 'Playbook',
      content,
      version: PLAYBOOK_VERSIONS,
      createdById: author.id,
    },
  });
  await prisma.playbookVersion.createMany({
    data: Array.from({ length: PLAYBOOK_VERSIONS }, (_, index) => ({
      playbookId: playbook.id,
      version: index + 1,
      techniqueId: techniques[0].id,
      type: 'execution' as const,
      title: 'Playbook',
      content,
      tags: [],
      authoredAt: new Date(),
    })),
  });
  return { playbookId: playbook.id, ttpId: techniques[0].ttpId, draftTests: tests.slice(0, 200).map((test) => test.id) };
}

const percentile = (values: number[], p: number) =>
  [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor((values.length * p) / 100))];

/** The service's own event-loop delay since the previous call (the preloaded probe answers SIGUSR2 on stderr). */
async function loopDelay(service: ServiceProcess): Promise<{ p99: number; max: number }> {
  const before = service.output().split('loop-probe ').length;
  service.child.kill('SIGUSR2');
  for (let waited = 0; waited < 5_000; waited += 20) {
    const reports = service.output().split('loop-probe ');
    if (reports.length > before) return JSON.parse(reports.at(-1)!.split('\n')[0]);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error(`the loop probe did not answer${service.output()}`);
}

/** Samples /system/health until `done`; with the service's event-loop delay over the same time. */
async function healthWhile(service: ServiceProcess, done: () => boolean) {
  await loopDelay(service);
  const latencies: number[] = [];
  while (!done()) {
    const started = performance.now();
    const response = await fetch(`${service.base}/api/v1/system/health`);
    await response.arrayBuffer();
    latencies.push(performance.now() - started);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  const loop = await loopDelay(service);
  return {
    healthP50: percentile(latencies, 50),
    healthP90: percentile(latencies, 90),
    healthP99: percentile(latencies, 99),
    samples: latencies.length,
    loopP99: loop.p99,
    loopMax: loop.max,
  };
}

/** POSTs `query` and reads the answer as a stream, keeping only its first bytes (the error code, if any). */
async function post(service: ServiceProcess, token: string, query: string): Promise<{ status: number; head: string }> {
  const response = await fetch(`${service.base}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: JSON.stringify({ query }),
  });
  const reader = response.body!.getReader();
  let head = '';
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    if (head.length < 2_000) head += Buffer.from(value).toString('latin1');
  }
  return { status: response.status, head: head.slice(0, 2_000) };
}

/** Runs `documents` four at a time in turn until `until`; returns the answers' statuses and codes. */
async function fourAtATime(service: ServiceProcess, token: string, documents: string[], until: number) {
  const outcomes: Array<{ status: number; code?: string }> = [];
  let next = 0;
  const worker = async () => {
    while (performance.now() < until) {
      const { status, head } = await post(service, token, documents[next++ % documents.length]);
      outcomes.push({ status, code: /"code":"([A-Z_]+)"/.exec(head)?.[1] });
    }
  };
  await Promise.all([worker(), worker(), worker(), worker()]);
  return outcomes;
}

async function login(service: ServiceProcess, username: string): Promise<string> {
  const response = await fetch(`${service.base}/api/v1/auth/login`, {
    method: 'POST',
    body: new URLSearchParams({ username, password: PASSWORD }),
  });
  expect(response.status).toBe(200);
  return ((await response.json()) as { access_token: string }).access_token;
}

describe.each([
  ['PostgreSQL', false],
  ['embedded PGlite', true],
])('GraphQL budgets on %s', (engine, embedded) => {
  let service: ServiceProcess;
  let seeded: Seeded;
  let viewer: string;
  let dataDir: string;
  let dropDatabase: (() => Promise<void>) | undefined;
  const limits = graphqlLimitsOf(loadConfig({}));

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'violet-loop-'));
    const database = embedded ? undefined : await createTestDatabase();
    dropDatabase = database?.drop;
    // Seeded before the service starts: the embedded database admits one process at a time.
    const seeding = await openDatabase({ databaseUrl: database?.url, dataDir }, createLogger('silent'));
    seeded = await seed(seeding.prisma).finally(() => seeding.close());
    service = await startServiceProcess({
      ...(database ? { DATABASE_URL: database.url } : { DATA_DIR: dataDir }),
      JWT_SECRET: randomUUID().repeat(2),
      RATE_LIMIT_ENABLED: 'false',
      LOG_LEVEL: 'warn',
      NODE_OPTIONS: `--import=${LOOP_PROBE}`,
    });
    viewer = await login(service, 'viewer');
  }, 180_000);
  afterAll(async () => {
    service?.child.kill('SIGKILL');
    await service?.exited;
    await dropDatabase?.();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('the health check answers within 200 ms p99 while a viewer runs the most expensive admitted queries, four at a time', async () => {
    const known = { playbookVersions: { id: seeded.playbookId }, playbook: { id: seeded.playbookId }, technique: { ttpId: seeded.ttpId } };
    const cases = worstCaseQueries(schema, limits, known);
    // The heaviest eight documents a viewer may run (those refused by its role cost nothing).
    const allowed: string[] = [];
    for (const { document } of cases) {
      const { head } = await post(service, viewer, document);
      if (!/"code":"(FORBIDDEN|UNAUTHENTICATED)"/.test(head)) allowed.push(document);
      if (allowed.length === 8) break;
    }
    expect(allowed.length).toBe(8);

    const until = performance.now() + RUN_MS;
    const [health, outcomes] = await Promise.all([
      healthWhile(service, () => performance.now() > until),
      fourAtATime(service, viewer, allowed, until),
    ]);
    console.info(`${engine}: ${outcomes.length} worst-case queries`, health, count(outcomes));
    expect(outcomes.every((outcome) => outcome.status < 500 || outcome.code === 'QUERY_TIMEOUT')).toBe(true);
    expect(health.healthP99).toBeLessThan(HEALTH_P99_MS);
    expect(health.loopP99).toBeLessThan(HEALTH_P99_MS);
  }, 90_000);

  it('the health check answers within 200 ms p99 while a socket full of the most expensive admitted subscriptions follows test transitions', async () => {
    const worst = worstCaseSubscription(schema, limits, 'testStateChanged');
    const client = createClient({
      url: `${service.base.replace(/^http/, 'ws')}/graphql`,
      webSocketImpl: WebSocket,
      connectionParams: { authorization: `Bearer ${viewer}` },
      retryAttempts: 0,
    });
    let delivered = 0;
    const refusals: string[] = [];
    const open: Array<() => void> = [];
    for (let index = 0; index < 100 && refusals.length === 0; index += 1) {
      const started = await new Promise<boolean>((resolve) => {
        const stop = client.subscribe(
          { query: worst.document },
          {
            next: () => void (delivered += 1),
            error: (errors) => {
              refusals.push((errors as any[])[0]?.extensions?.code);
              resolve(false);
            },
            complete: () => undefined,
          },
        );
        open.push(stop);
        setTimeout(() => resolve(true), 20);
      });
      if (!started) break;
    }
    expect(refusals).toEqual(['TOO_MANY_SUBSCRIPTIONS']);
    const live = open.length - 1;
    expect(live).toBeGreaterThan(0);

    const lead = await login(service, 'red_lead');
    const until = performance.now() + RUN_MS;
    const transitions = (async () => {
      let moved = 0;
      for (const testId of seeded.draftTests) {
        if (performance.now() > until) break;
        const answer = await service.api('POST', `/tests/${testId}/start-execution`, lead);
        expect(answer.status).toBe(200);
        moved += 1;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      return moved;
    })();
    const [health, moved] = await Promise.all([healthWhile(service, () => performance.now() > until), transitions]);
    console.info(`${engine}: ${live} live subscriptions, ${moved} transitions, ${delivered} results`, health);
    expect(delivered).toBeGreaterThan(0);
    expect(health.healthP99).toBeLessThan(HEALTH_P99_MS);
    expect(health.loopP99).toBeLessThan(HEALTH_P99_MS);
    for (const stop of open) stop();
    await client.dispose();
  }, 90_000);
});

function count(outcomes: Array<{ status: number; code?: string }>) {
  const counts: Record<string, number> = {};
  for (const { status, code } of outcomes) counts[`${status} ${code ?? ''}`.trim()] = (counts[`${status} ${code ?? ''}`.trim()] ?? 0) + 1;
  return counts;
}
