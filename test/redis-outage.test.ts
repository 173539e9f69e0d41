import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from './helpers/app.ts';
import { PrivateRedis } from './helpers/private-redis.ts';

/**
 * The service against a Redis of its own that the test stops and restarts empty: requests must fail fast or
 * degrade while it is down, and no revocation may be lost.
 */

const timed = async <T>(work: () => Promise<T>): Promise<{ value: T; ms: number }> => {
  const started = performance.now();
  const value = await work();
  return { value, ms: performance.now() - started };
};

let redis: PrivateRedis;
let app: TestApp;

beforeAll(async () => {
  redis = await PrivateRedis.create();
  await redis.start();
  app = await startTestApp({ REDIS_URL: redis.url, REDIS_COMMAND_TIMEOUT: '500ms', ATTACK_ENTERPRISE_SOURCE: '/nonexistent/attack' });
});

/** Closing waits for Redis (the job workers' connections wait an outage out), so Redis runs again first. */
afterAll(async () => {
  try {
    await redis.start();
    await Promise.race([app?.close(), new Promise((resolve) => setTimeout(resolve, 20_000).unref())]);
  } finally {
    await redis.stop();
  }
}, 40_000);

describe('a Redis outage', () => {
  it('signed-in reads answer fast, logouts take effect, enqueueing answers 503 at once, and revocations survive an empty Redis', async () => {
    const admin = await app.createUser({ role: 'admin' });
    const loggedOutBefore = await app.login(admin.username);
    expect((await app.api('POST', '/auth/logout', { token: loggedOutBefore })).status).toBe(200);
    const loggedOutDuring = await app.login(admin.username);
    const kept = await app.login(admin.username);

    await redis.stop();

    for (let round = 0; round < 3; round++) {
      const read = await timed(() => app.api('GET', '/auth/me', { token: kept }));
      expect(read.value.status).toBe(200);
      expect(read.ms).toBeLessThan(1_000);
      const list = await timed(() => app.api('GET', '/techniques?limit=5', { token: kept }));
      expect(list.value.status).toBe(200);
      expect(list.ms).toBeLessThan(1_000);
    }

    const logout = await timed(() => app.api('POST', '/auth/logout', { token: loggedOutDuring }));
    expect(logout.value.status).toBe(200);
    expect(logout.ms).toBeLessThan(1_000);
    expect((await app.api('GET', '/auth/me', { token: loggedOutDuring })).status).toBe(401);

    const sync = await timed(() => app.api('POST', '/data-sources/attack_enterprise/sync', { token: kept }));
    expect(sync.ms).toBeLessThan(1_500);
    expect(sync.value.status).toBe(503);
    expect(sync.value.body).toMatchObject({ code: expect.any(String), detail: expect.any(String) });
    expect(Number(sync.value.headers.get('retry-after'))).toBeGreaterThan(0);

    await redis.start(); // back, and empty
    for (const token of [loggedOutBefore, loggedOutDuring]) {
      expect((await app.api('GET', '/auth/me', { token })).status).toBe(401);
    }
    expect((await app.api('GET', '/auth/me', { token: kept })).status).toBe(200);
  });
});
