import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from './helpers/app.ts';

let app: TestApp;

beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app.close());

describe('system', () => {
  it('health is public and reports the database, Redis and storage', async () => {
    const health = await app.api('GET', '/system/health');
    expect(health.status).toBe(200);
    expect(health.body).toMatchObject({
      status: 'ok',
      database: { status: 'ok', engine: 'postgresql' },
      redis: { status: 'ok' },
      storage: { status: 'ok', driver: 'disk' },
    });
  });

  it('the scheduler status lists every recurring job with its next run time', async () => {
    const status = await app.api('GET', '/system/scheduler-status', { token: await app.tokenFor('admin') });
    expect(status.status).toBe(200);
    expect(status.body.running).toBe(true);
    const purge = status.body.jobs.find((job: { id: string }) => job.id === 'purge-revoked-tokens');
    expect(purge).toMatchObject({ name: expect.any(String) });
    expect(new Date(purge.next_run_time).getTime()).toBeGreaterThan(Date.now());
  });

  it('only admins see the scheduler', async () => {
    expect((await app.api('GET', '/system/scheduler-status', { token: await app.tokenFor('blue_lead') })).status).toBe(403);
    expect((await app.api('GET', '/system/scheduler-status')).status).toBe(401);
  });
});
