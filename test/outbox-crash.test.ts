import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase } from './helpers/database.ts';
import { PrivateRedis } from './helpers/private-redis.ts';
import { startServiceProcess, waitFor, type ServiceProcess } from './helpers/service-process.ts';
import { startWebhookReceiver, type WebhookReceiver } from './helpers/webhook-receiver.ts';

const TESTS = 80;
/** Transitions acknowledged before the process is killed (the others are under way or not yet sent). */
const ACKNOWLEDGED_BEFORE_KILL = 20;
const CONCURRENCY = 12;
/** On PostgreSQL with Redis the queued jobs survive; the relay takes up the rest after its grace period (10 s). */
const RECOVERY_BUDGET_MS = 90_000;
/**
 * In the embedded mode the jobs in memory died with the process: the webhook sweep queues their deliveries at
 * start, so they arrive well before its next run a minute later.
 */
const EMBEDDED_RECOVERY_BUDGET_MS = 40_000;

const started: ServiceProcess[] = [];
let receiver: WebhookReceiver;
beforeAll(async () => {
  receiver = await startWebhookReceiver();
});
afterAll(async () => {
  for (const service of started) if (service.child.exitCode === null) service.child.kill('SIGKILL');
  await receiver?.close();
});

const call = (service: ServiceProcess, token: string, method: string, path: string, body?: unknown) =>
  service.api(method, path, token, body);

async function start(env: Record<string, string>) {
  const service = await startServiceProcess({ WEBHOOK_ALLOWED_HOSTS: '127.0.0.1:*', ...env });
  started.push(service);
  return service;
}

/**
 * Starts the executions of many tests at once and kills the process (SIGKILL) once some were acknowledged;
 * after a restart every test that is executing (acknowledged, or committed while its answer was cut) has
 * exactly one webhook delivery and one in-app notice to its creator.
 */
async function killMidStreamAndRecover(
  env: Record<string, string>,
  path: string,
  recoveryBudgetMs: number,
  stall?: { begin(): Promise<void>; end(): Promise<void> },
) {
  const first = await start(env);
  const token = await first.login();
  const hook = await call(first, token, 'POST', '/webhooks', {
    url: `${receiver.url}${path}`,
    events: ['test.state_changed'],
    secret: 'a shared secret of some length',
  });
  expect(hook.status, JSON.stringify(hook.body)).toBe(201);
  const technique = await call(first, token, 'POST', '/techniques', { ttp_id: 'T9901', name: 'Outbox', tactic: 'Execution' });
  expect(technique.status, JSON.stringify(technique.body)).toBe(201);
  const testIds: string[] = [];
  for (let index = 0; index < TESTS; index++) {
    const created = await call(first, token, 'POST', '/tests', { name: `Outbox ${index}`, technique_id: technique.body.id });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    testIds.push(created.body.id);
  }

  await stall?.begin();
  const acknowledged: string[] = [];
  const waiting = [...testIds];
  const lanes = Array.from({ length: CONCURRENCY }, async () => {
    for (let id = waiting.shift(); id; id = waiting.shift()) {
      const answer = await call(first, token, 'POST', `/tests/${id}/start-execution`).catch(() => null);
      if (!answer) return;
      if (answer.status >= 200 && answer.status < 300) acknowledged.push(id);
    }
  });
  await waitFor(
    'acknowledged transitions',
    Date.now() + 60_000,
    async () => (acknowledged.length >= ACKNOWLEDGED_BEFORE_KILL ? true : undefined),
    1,
  );
  first.child.kill('SIGKILL');
  await first.exited;
  await Promise.all(lanes);
  expect(waiting.length, 'the process was killed mid-stream').toBeGreaterThan(0);
  await stall?.end();

  const second = await start(env);
  const restarted = Date.now();
  const admin = await second.login();
  const executing = new Set<string>();
  for (const id of testIds) {
    const test = await call(second, admin, 'GET', `/tests/${id}`);
    if (test.body.state !== 'draft') executing.add(id);
  }
  expect([...acknowledged].filter((id) => !executing.has(id))).toEqual([]);

  const deliveredIds = () => {
    const byTest = new Map<string, Set<string>>();
    for (const request of receiver.at(path)) {
      const testId = JSON.parse(request.body).data.test_id as string;
      byTest.set(testId, (byTest.get(testId) ?? new Set()).add(String(request.headers['webhook-id'])));
    }
    return byTest;
  };
  const noticed = async () => {
    const list = await call(second, admin, 'GET', '/notifications?limit=100');
    const counts = new Map<string, number>();
    for (const notice of list.body.items) counts.set(notice.entity_id, (counts.get(notice.entity_id) ?? 0) + 1);
    return counts;
  };
  const complete = async () => {
    const [deliveries, notices] = [deliveredIds(), await noticed()];
    return [...executing].every((id) => deliveries.has(id) && notices.has(id)) ? { deliveries, notices } : undefined;
  };
  const outcome = await waitFor('every committed transition to reach its consumers', Date.now() + recoveryBudgetMs, complete, 500).catch(
    async () => ({ deliveries: deliveredIds(), notices: await noticed() }),
  );
  const recoveryMs = Date.now() - restarted;
  // Nothing more arrives later: no duplicate is still on its way.
  await new Promise((resolve) => setTimeout(resolve, 3_000));
  const missing = [...executing].filter((id) => !outcome.deliveries.has(id) || !outcome.notices.has(id));
  expect(missing, `${missing.length} of ${executing.size} committed transitions lost their delivery or notice`).toEqual([]);
  const deliveries = deliveredIds();
  const notices = await noticed();
  expect([...executing].filter((id) => deliveries.get(id)!.size !== 1 || notices.get(id) !== 1)).toEqual([]);
  expect([...deliveries.keys()].filter((id) => !executing.has(id))).toEqual([]);
  console.info(
    `${acknowledged.length} acknowledged, ${executing.size} committed before the kill; all delivered once, ${recoveryMs} ms after the restart`,
  );
  second.child.kill('SIGTERM');
  await second.exited;
}

describe('committed transitions reach their consumers after a SIGKILL', () => {
  // Redis stalls its writes (CLIENT PAUSE … WRITE) while the transitions commit, so their consumer jobs are still on
  // their way to it when the process dies: the window between a commit and its enqueue, held open. (Paused for all
  // commands, Redis would hold the unpause itself, and the restart, until the pause ran out.)
  it('on PostgreSQL with Redis, killed while Redis stalls', async () => {
    const database = await createTestDatabase();
    const redis = await PrivateRedis.create();
    await redis.start();
    try {
      await killMidStreamAndRecover(
        {
          DATABASE_URL: database.url,
          REDIS_URL: redis.url,
          REDIS_COMMAND_TIMEOUT: '60s',
          RATE_LIMIT_ENABLED: 'false',
          RUN_WORKERS: 'inline',
          JWT_SECRET: randomBytes(32).toString('hex'),
        },
        '/postgres',
        RECOVERY_BUDGET_MS,
        {
          begin: async () => void (await redis.command('client', 'pause', 60_000, 'WRITE')),
          end: async () => void (await redis.command('client', 'unpause')),
        },
      );
    } finally {
      await database.drop();
      await redis.stop();
    }
  }, 300_000);

  it('in the embedded mode (PGlite, no Redis)', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'violet-outbox-'));
    try {
      await killMidStreamAndRecover(
        { DATA_DIR: dataDir, JWT_SECRET: 'embedded outbox test secret, 32+ characters long' },
        '/embedded',
        EMBEDDED_RECOVERY_BUDGET_MS,
      );
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  }, 300_000);
});
