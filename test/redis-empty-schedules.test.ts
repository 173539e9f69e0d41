import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SCHEDULE_CHECK_MS } from '../src/jobs/bullmq.ts';
import { startTestApp, type TestApp } from './helpers/app.ts';
import { until } from './helpers/events.ts';
import { PrivateRedis } from './helpers/private-redis.ts';
import { startWebhookReceiver, type WebhookReceiver } from './helpers/webhook-receiver.ts';

/** Recurring jobs are held by Redis only: a Redis that comes back empty must get them again from the running service. */

let redis: PrivateRedis;
let app: TestApp;
let receiver: WebhookReceiver;

beforeAll(async () => {
  redis = await PrivateRedis.create();
  await redis.start();
  receiver = await startWebhookReceiver();
  app = await startTestApp({ REDIS_URL: redis.url, WEBHOOK_ALLOWED_HOSTS: '127.0.0.1:*' });
});

/** Closing waits for Redis (the job workers' connections wait an outage out), so Redis runs again first. */
afterAll(async () => {
  try {
    await redis.start();
    await Promise.race([app?.close(), new Promise((resolve) => setTimeout(resolve, 20_000).unref())]);
    await receiver?.close();
  } finally {
    await redis.stop();
  }
}, 40_000);

const adminSchedules = async () => {
  const status = await app.api('GET', '/system/scheduler-status', { token: await app.tokenFor('admin') });
  return status.status === 200 ? new Set<string>(status.body.jobs.map((job: { id: string }) => job.id)) : new Set<string>();
};

describe('a Redis restarted empty', () => {
  it('gets every recurring job again within a minute, and the webhook sweep sends the deliveries made during the outage', async () => {
    const admin = await app.tokenFor('admin');
    const schedules = adminSchedules;
    const before = await schedules();
    expect(before).toContain('sweep-webhook-deliveries');
    expect(before).toContain('reconcile-schedules');
    const hook = await app.api('POST', '/webhooks', {
      token: admin,
      body: { url: `${receiver.url}/outage`, events: ['test.state_changed'], secret: 'a shared secret of some length' },
    });
    expect(hook.status).toBe(201);
    const technique = await app.api('POST', '/techniques', {
      token: admin,
      body: { ttp_id: 'T9902', name: 'Outage', tactic: 'Execution' },
    });
    const tests: string[] = [];
    for (let index = 0; index < 3; index++) {
      const created = await app.api('POST', '/tests', { token: admin, body: { name: `Outage ${index}`, technique_id: technique.body.id } });
      tests.push(created.body.id);
    }

    // Their deliveries are created while Redis is down, so their jobs never reach it: only the sweep sends them.
    await redis.command('set', 'sentinel', 'the old Redis');
    await redis.stop();
    for (const id of tests) {
      const started = await app.api('POST', `/tests/${id}/start-execution`, { token: admin });
      expect(started.status, JSON.stringify(started.body)).toBe(200);
    }
    await until(async () =>
      (await app.services.prisma.webhookDelivery.count({ where: { webhookId: hook.body.id } })) === tests.length ? true : undefined,
    );
    await redis.start();
    const back = Date.now();
    // Violet may register its schedules again before this line runs: the sentinel tells the new Redis is empty.
    expect(await redis.command('get', 'sentinel'), 'the new Redis starts empty').toBeNull();

    await until(
      async () => {
        const held = await schedules();
        return [...before].every((id) => held.has(id)) ? held : undefined;
      },
      60_000,
      500,
    );
    console.info(`recurring jobs registered again ${Date.now() - back} ms after Redis returned`);

    // Pending past the sweep's grace (30 s), they are sent by a sweep run on the new Redis (it runs every minute).
    const delivered = () => new Set(receiver.at('/outage').map((request) => JSON.parse(request.body).data.test_id as string));
    await until(() => (delivered().size === tests.length ? true : undefined), 100_000, 500);
    expect(delivered()).toEqual(new Set(tests));
    console.info(`deliveries made during the outage sent ${Date.now() - back} ms after Redis returned`);
  }, 200_000);

  it('emptied without a disconnect (FLUSHALL), gets every recurring job again from the periodic check', async () => {
    const before = await adminSchedules();
    expect(before.size).toBeGreaterThan(0);
    await redis.command('set', 'sentinel', 'before the flush');
    await redis.command('flushall');
    const emptied = Date.now();
    expect(await redis.command('get', 'sentinel')).toBeNull();
    await until(
      async () => {
        const held = await adminSchedules();
        return [...before].every((id) => held.has(id)) ? held : undefined;
      },
      SCHEDULE_CHECK_MS + 10_000,
      500,
    );
    console.info(`recurring jobs registered again ${Date.now() - emptied} ms after FLUSHALL`);
  }, 60_000);
});
