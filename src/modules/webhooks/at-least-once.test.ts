import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../test/helpers/app.ts';
import { startServiceProcess, waitFor, WORKER_ENTRY, type ServiceProcess } from '../../../test/helpers/service-process.ts';
import { startWebhookReceiver, type WebhookReceiver } from '../../../test/helpers/webhook-receiver.ts';

/**
 * A worker process killed while a delivery is in flight loses nothing: the message is delivered later, by
 * another worker, with the same webhook-id (at-least-once; receivers deduplicate on the id).
 */
describe('a worker killed mid-delivery', () => {
  const env = { JWT_SECRET: randomBytes(32).toString('hex'), WEBHOOK_ALLOWED_HOSTS: '127.0.0.1:*', WEBHOOK_TIMEOUT: '10s' };
  let app: TestApp;
  let receiver: WebhookReceiver;
  const workers: ServiceProcess[] = [];

  const startWorker = async () => {
    const worker = await startServiceProcess(
      {
        ...env,
        DATABASE_URL: app.services.config.DATABASE_URL!,
        REDIS_URL: app.services.config.REDIS_URL!,
        REDIS_PREFIX: app.services.config.REDIS_PREFIX,
        SOURCE_SYNC_SCHEDULES: 'false',
      },
      WORKER_ENTRY,
      /worker started/,
    );
    workers.push(worker);
    return worker;
  };

  beforeAll(async () => {
    receiver = await startWebhookReceiver();
    app = await startTestApp({ ...env, RUN_WORKERS: 'off', SOURCE_SYNC_SCHEDULES: 'false' });
  });
  afterAll(async () => {
    for (const worker of workers) worker.child.kill('SIGKILL');
    await app?.close();
    await receiver?.close();
  });

  it('delivers the message again from another worker with the same webhook-id', async () => {
    const admin = await app.tokenFor('admin');
    const created = await app.api('POST', '/webhooks', {
      token: admin,
      body: { url: `${receiver.url}/crash`, events: ['webhook.test'], secret: 'a shared secret of some length' },
    });
    expect(created.status).toBe(201);
    receiver.answer('/crash', 'hang');
    const first = await startWorker();
    const queued = await app.api('POST', `/webhooks/${created.body.id}/test`, { token: admin });
    expect(queued.status).toBe(202);

    await waitFor('the first attempt', Date.now() + 30_000, async () => (receiver.at('/crash').length ? true : undefined), 20);
    first.child.kill('SIGKILL');
    await first.exited;
    await startWorker();

    await waitFor('the redelivery', Date.now() + 110_000, async () => (receiver.at('/crash').length >= 2 ? true : undefined), 200);
    const ids = receiver.at('/crash').map((request) => request.headers['webhook-id']);
    expect(new Set(ids)).toEqual(new Set([queued.body.delivery_id]));
    const delivery = await waitFor('the delivery to be recorded', Date.now() + 10_000, async () => {
      const row = await app.services.prisma.webhookDelivery.findUniqueOrThrow({ where: { id: queued.body.delivery_id } });
      return row.status === 'succeeded' ? row : undefined;
    });
    expect(delivery.attempts).toBe(1);
  }, 180_000);
});
