import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { startTestApp, TEST_PASSWORD, useTestApp, type TestApp } from '../../test/helpers/app.ts';
import { countQueries, SESSION_READ } from '../../test/helpers/queries.ts';
import { loadConfig } from '../config.ts';
import { EventBus, event } from '../events/bus.ts';
import { createLogger } from '../logger.ts';
import { SessionCache, type SessionRow } from './session-cache.ts';

const me = (app: TestApp, token: string) => app.api('GET', '/users/me', { token });

/** How many times the session is read while `token` makes `requests` requests. */
const sessionReads = (app: TestApp, token: string, requests: number) =>
  countQueries(async () => {
    for (let n = 0; n < requests; n++) expect((await me(app, token)).status).toBe(200);
  }, SESSION_READ);

describe('a token remembered for SESSION_CACHE', () => {
  // Long enough that nothing in these tests expires by itself: what ends a session here is its announcement.
  const app = useTestApp({ SESSION_CACHE: '60s' });

  it("reads a token's session once for its next requests: a change written by hand is not seen", async () => {
    const user = await app.createUser();
    const token = await app.login(user.username);
    expect(await sessionReads(app, token, 3)).toBe(1);
    // Another session of the same user is read for itself.
    expect(await sessionReads(app, await app.login(user.username), 2)).toBe(1);
    // Unannounced, the change waits for SESSION_CACHE (a minute here): the row was served from memory.
    await app.services.prisma.user.update({ where: { id: user.id }, data: { isActive: false } });
    expect((await me(app, token)).status).toBe(200);
  });

  it('ends at once with a logout, a deactivation or a password change, and follows a role change at once', async () => {
    const admin = await app.tokenFor('admin');
    const users = await Promise.all([1, 2, 3, 4, 5, 6].map(() => app.createUser({ role: 'viewer' })));
    const [, deactivated, , promoted, patched, reset] = users;
    const tokens = await Promise.all(users.map((user) => app.login(user.username)));
    for (const token of tokens) expect((await me(app, token)).status).toBe(200);

    expect((await app.api('POST', '/auth/logout', { token: tokens[0] })).status).toBe(200);
    expect((await me(app, tokens[0])).body).toMatchObject({ code: 'NOT_AUTHENTICATED', detail: 'Token has been revoked' });

    expect((await app.api('DELETE', `/users/${deactivated.id}`, { token: admin })).status).toBe(200);
    expect((await me(app, tokens[1])).body).toMatchObject({ code: 'NOT_AUTHENTICATED', detail: 'Account is disabled' });

    const changed = await app.api('POST', '/auth/change-password', {
      token: tokens[2],
      body: { current_password: TEST_PASSWORD, new_password: 'another long enough password' },
    });
    expect(changed.status).toBe(200);
    expect((await me(app, tokens[2])).body).toMatchObject({ code: 'NOT_AUTHENTICATED', detail: 'Token predates a password change' });

    expect((await app.api('PATCH', `/users/${promoted.id}`, { token: admin, body: { role: 'red_lead' } })).status).toBe(200);
    expect((await me(app, tokens[3])).body).toMatchObject({ role: 'red_lead' });

    expect((await app.api('PATCH', `/users/${patched.id}`, { token: admin, body: { is_active: false } })).status).toBe(200);
    expect((await me(app, tokens[4])).body).toMatchObject({ code: 'NOT_AUTHENTICATED', detail: 'Account is disabled' });

    const newPassword = { password: 'an admin-given password, long enough' };
    expect((await app.api('PATCH', `/users/${reset.id}`, { token: admin, body: newPassword })).status).toBe(200);
    expect((await me(app, tokens[5])).body).toMatchObject({ code: 'NOT_AUTHENTICATED', detail: 'Token predates a password change' });
  });

  it('ends at once in another process sharing the database and REDIS_PREFIX, through the event bus', async () => {
    const shared = {
      REDIS_PREFIX: `violet-test-sessions-${randomBytes(4).toString('hex')}`,
      JWT_SECRET: randomBytes(32).toString('hex'),
      SESSION_CACHE: '60s',
    };
    const first = await startTestApp(shared);
    const second = await startTestApp({ ...shared, DATABASE_URL: first.services.config.DATABASE_URL! });
    try {
      const user = await first.createUser();
      const token = await first.login(user.username);
      expect((await me(second, token)).status).toBe(200);
      expect((await first.api('POST', '/auth/logout', { token })).status).toBe(200);
      // The announcement crosses Redis: a few milliseconds, not the minute of SESSION_CACHE.
      await expect.poll(async () => (await me(second, token)).status, { timeout: 5_000 }).toBe(401);
    } finally {
      await second.close();
      await first.close();
    }
  });
});

describe('a short SESSION_CACHE', () => {
  const app = useTestApp({ SESSION_CACHE: '200ms' });

  it('lets a change written to the database by hand, unannounced, apply once it has passed', async () => {
    const user = await app.createUser();
    const token = await app.login(user.username);
    expect((await me(app, token)).status).toBe(200);
    await app.services.prisma.user.update({ where: { id: user.id }, data: { isActive: false } });
    await expect.poll(async () => (await me(app, token)).status, { timeout: 5_000 }).toBe(401);
  });
});

describe('SESSION_CACHE', () => {
  it('is at most a minute, so that a change written by hand always applies soon', () => {
    expect(loadConfig({ SESSION_CACHE: '60s' }).SESSION_CACHE).toBe(60_000);
    expect(() => loadConfig({ SESSION_CACHE: '2m' })).toThrow(/SESSION_CACHE is at most 60s/);
  });
});

describe('SESSION_CACHE=0', () => {
  const app = useTestApp({ SESSION_CACHE: '0' });

  it("reads a token's session on every request", async () => {
    const user = await app.createUser();
    expect(await sessionReads(app, await app.login(user.username), 3)).toBe(3);
  });
});

describe('the session cache', () => {
  const row = (id: string): SessionRow => ({
    id,
    username: 'someone',
    role: 'viewer',
    isActive: true,
    mustChangePassword: false,
    sessionVersion: 0,
    revoked: false,
  });

  it('keeps nothing while the process cannot hear the others (its Redis subscriber is down)', async () => {
    let hearing = true;
    const bus = { hearsOthers: () => hearing, on: () => () => undefined } as unknown as EventBus;
    const cache = new SessionCache(60_000, bus);
    let reads = 0;
    const read = async () => {
      reads++;
      return row('user-1');
    };
    await cache.get('jti-1', read);
    await cache.get('jti-1', read);
    expect(reads).toBe(1);
    // Announcements sent meanwhile are lost: every session is read, and what was kept before is dropped.
    hearing = false;
    await cache.get('jti-1', read);
    await cache.get('jti-1', read);
    expect(reads).toBe(3);
    hearing = true;
    await cache.get('jti-1', read);
    await cache.get('jti-1', read);
    expect(reads).toBe(4);
  });

  it('does not keep a row read while a change of its user was announced: the row may predate it', async () => {
    const bus = EventBus.inProcess(createLogger('silent'));
    const cache = new SessionCache(60_000, bus);
    let reads = 0;
    const read = async () => {
      reads++;
      return row('user-1');
    };
    let announced = false;
    await cache.get('jti-1', async () => {
      await bus.publish([event('user.changed', { userId: 'user-1', change: 'deactivated' }, null)]);
      announced = true;
      return read();
    });
    expect(announced).toBe(true);
    await cache.get('jti-1', read);
    await cache.get('jti-1', read);
    expect(reads).toBe(2);
    // An announcement about another user forgets nothing of this one.
    await bus.publish([event('session.ended', { userId: 'user-2', jti: 'jti-2' }, null)]);
    await cache.get('jti-1', read);
    expect(reads).toBe(2);
    cache.dispose();
    await bus.close();
  });
});
