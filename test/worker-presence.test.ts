import { once } from 'node:events';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp, useTestApp } from './helpers/app.ts';

/** Redis configured, and this API only enqueues (RUN_WORKERS=off): no process works the queues. */
describe('with Redis and no worker running', () => {
  let app: TestApp;
  let admin: string;

  beforeAll(async () => {
    app = await startTestApp({ RUN_WORKERS: 'off', SOURCE_SYNC_SCHEDULES: 'false' });
    admin = await app.tokenFor('admin');
  });
  afterAll(() => app.close());

  it('a manual sync answers 202 saying it waits for a worker', async () => {
    const response = await app.api('POST', '/data-sources/sigma/sync', { token: admin });
    expect(response.status).toBe(202);
    expect(response.body).toMatchObject({ workers: 0, detail: expect.stringContaining('no worker is running'), run: { status: 'queued' } });
  });

  it('the scheduler status reports no workers', async () => {
    const status = await app.api('GET', '/system/scheduler-status', { token: admin });
    expect(status.body).toMatchObject({ running: true, workers: 0 });
  });

  it('health stays ok and says no worker works the queues', async () => {
    expect((await app.api('GET', '/system/health')).body).toMatchObject({ status: 'ok', workers: { status: 'none' } });
    const detailed = await app.api('GET', '/system/health', { token: admin });
    expect(detailed.body.workers).toEqual({ status: 'none', count: 0 });
  });
});

describe('with Redis and a worker in the process', () => {
  const app = useTestApp({ SOURCE_SYNC_SCHEDULES: 'false' });

  it('a manual sync answers 202 with the workers that will run it', async () => {
    const response = await app.api('POST', '/data-sources/sigma/sync', { token: await app.tokenFor('admin') });
    expect(response.status).toBe(202);
    expect(response.body).toMatchObject({ workers: 1, detail: 'Sync queued; a worker will run it' });
  });
});

describe('when Redis goes down', () => {
  let app: TestApp;

  beforeAll(async () => {
    app = await startTestApp({ SOURCE_SYNC_SCHEDULES: 'false' });
  });
  afterAll(() => app.close().catch(() => undefined));

  it('health answers fast, degraded, with Redis in error and workers unknown', async () => {
    const redis = app.services.redis!;
    const ended = once(redis, 'end');
    redis.disconnect();
    await ended; // the status word changes once ioredis has closed, not when disconnect() returns
    const started = Date.now();
    const health = await app.api('GET', '/system/health');
    expect(Date.now() - started).toBeLessThan(1_500);
    expect(health.status).toBe(503);
    expect(health.body).toEqual({
      status: 'degraded',
      database: { status: 'ok' },
      redis: { status: 'error' },
      storage: { status: 'ok' },
      workers: { status: 'unknown' },
    });
  });
});
