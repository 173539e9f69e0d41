import { randomBytes } from 'node:crypto';
import type { EventEmitter } from 'node:events';
import { setTimeout as sleep } from 'node:timers/promises';
import { createClient, type Client } from 'graphql-ws';
import { beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { inTransaction, SYSTEM_ACTOR } from '../db/unit-of-work.ts';
import { notifyUsers } from '../modules/notifications/service.ts';
import { startTestApp, TEST_PASSWORD, type TestApp, useTestApp } from '../../test/helpers/app.ts';

let admin: string;

const app = useTestApp();

beforeAll(async () => {
  admin = await app.tokenFor('admin');
});

const SUBSCRIPTION = 'subscription { notificationAdded { title } }';

function within<T>(promise: Promise<T>, ms = 5_000): Promise<T> {
  return Promise.race([promise, sleep(ms).then(() => Promise.reject(new Error(`nothing within ${ms} ms`)))]);
}

const busListeners = (on: TestApp) => (on.services.bus as unknown as { local: EventEmitter }).local.listenerCount('event');

interface Live {
  client: Client;
  /** Close code and reason once the server closed the connection. */
  closed: Promise<{ code: number; reason: string }>;
  /** The subscription's first result. */
  first: Promise<IteratorResult<{ data?: { notificationAdded: { title: string } } }>>;
}

/** A graphql-ws connection signed in with `credential`, with a notificationAdded subscription set up on the server. */
async function subscribed(on: TestApp, credential: string): Promise<Live> {
  const client = createClient({
    url: `${on.url.replace(/^http/, 'ws')}/graphql`,
    webSocketImpl: WebSocket,
    connectionParams: { authorization: `Bearer ${credential}` },
    retryAttempts: 0,
  });
  const closed = new Promise<{ code: number; reason: string }>((resolve) =>
    client.on('closed', (event) => resolve(event as { code: number; reason: string })),
  );
  const before = busListeners(on);
  const first = client.iterate({ query: SUBSCRIPTION }).next() as Live['first'];
  first.catch(() => undefined);
  const deadline = Date.now() + 5_000;
  while (busListeners(on) <= before && Date.now() < deadline) await sleep(10);
  return { client, closed, first };
}

async function signedIn(role: 'viewer' | 'red_tech' = 'red_tech') {
  const user = await app.createUser({ role, username: `live_${randomBytes(4).toString('hex')}` });
  return { ...user, token: await app.login(user.username) };
}

function notify(userId: string, title: string, on = app) {
  return inTransaction(on.services, SYSTEM_ACTOR, (uow) => notifyUsers(uow, [userId], { event: 'test_validated', title, message: '' }));
}

/** The connection still delivers events: it was not closed along with the other one. */
async function stillDelivers(live: Live, userId: string) {
  await notify(userId, 'still here');
  expect((await within(live.first)).value?.data?.notificationAdded.title).toBe('still here');
}

describe('subscriptions end with their session', () => {
  it('logout closes the connections of that session with 4401; another session of the same user keeps running', async () => {
    const user = await signedIn();
    const otherSession = await app.login(user.username);
    const [ended, kept] = await Promise.all([subscribed(app, user.token), subscribed(app, otherSession)]);
    try {
      expect((await app.api('POST', '/auth/logout', { token: user.token })).status).toBe(200);
      expect(await within(ended.closed)).toEqual(expect.objectContaining({ code: 4401, reason: 'Token has been revoked' }));
      await expect(within(ended.first)).rejects.toMatchObject({ code: 4401 });
      await stillDelivers(kept, user.id);
    } finally {
      await Promise.all([ended.client.dispose(), kept.client.dispose()]);
    }
  });

  it("deactivation closes every connection of that user with 4401, and no one else's", async () => {
    const user = await signedIn();
    const bystander = await signedIn();
    const [ended, kept] = await Promise.all([subscribed(app, user.token), subscribed(app, bystander.token)]);
    try {
      expect((await app.api('DELETE', `/users/${user.id}`, { token: admin })).status).toBe(200);
      expect(await within(ended.closed)).toEqual(expect.objectContaining({ code: 4401, reason: 'Account is disabled' }));
      await stillDelivers(kept, bystander.id);
    } finally {
      await Promise.all([ended.client.dispose(), kept.client.dispose()]);
    }
  });

  it('a password change closes the connections opened with the older tokens; the new token connects again', async () => {
    const user = await signedIn();
    const idle = busListeners(app);
    const live = await subscribed(app, user.token);
    try {
      const changed = await app.api('POST', '/auth/change-password', {
        token: user.token,
        body: { current_password: TEST_PASSWORD, new_password: 'another long enough password' },
      });
      expect(changed.status).toBe(200);
      expect(await within(live.closed)).toEqual(expect.objectContaining({ code: 4401, reason: 'Token predates a password change' }));
      // The closed subscription's stream is gone before the next one is counted.
      while (busListeners(app) > idle) await sleep(10);
      const renewed = await subscribed(app, changed.body.access_token);
      try {
        await stillDelivers(renewed, user.id);
      } finally {
        await renewed.client.dispose();
      }
    } finally {
      await live.client.dispose();
    }
  });

  it("a password reset by an admin closes the user's connections with 4401", async () => {
    const user = await signedIn();
    const live = await subscribed(app, user.token);
    try {
      expect(
        (await app.api('PATCH', `/users/${user.id}`, { token: admin, body: { password: 'a reset password by the admin' } })).status,
      ).toBe(200);
      expect(await within(live.closed)).toMatchObject({ code: 4401 });
    } finally {
      await live.client.dispose();
    }
  });

  it("a role change closes the user's connections with 4403 so they reconnect under the new role; other changes do not", async () => {
    const user = await signedIn('red_tech');
    const live = await subscribed(app, user.token);
    try {
      expect((await app.api('PATCH', `/users/${user.id}`, { token: admin, body: { display_name: 'Renamed' } })).status).toBe(200);
      await stillDelivers(live, user.id);
      const again = await subscribed(app, user.token);
      expect((await app.api('PATCH', `/users/${user.id}`, { token: admin, body: { role: 'viewer' } })).status).toBe(200);
      expect(await within(again.closed)).toEqual(expect.objectContaining({ code: 4403, reason: 'Role changed: reconnect' }));
      await again.client.dispose();
    } finally {
      await live.client.dispose();
    }
  });

  it('revoking an API key closes the connections it opened with 4401', async () => {
    const user = await signedIn();
    const key = await app.api('POST', '/api-keys', { token: user.token, body: { name: 'stream', scope: 'read' } });
    expect(key.status).toBe(201);
    const live = await subscribed(app, key.body.key);
    try {
      expect((await app.api('DELETE', `/api-keys/${key.body.id}`, { token: user.token })).status).toBe(200);
      expect(await within(live.closed)).toEqual(expect.objectContaining({ code: 4401, reason: 'Invalid API key' }));
    } finally {
      await live.client.dispose();
    }
  });

  it('a connection closes with 4401 when its token expires', async () => {
    const shortLived = await startTestApp({ JWT_TTL: '2s' });
    try {
      const user = await shortLived.createUser();
      const live = await subscribed(shortLived, await shortLived.login(user.username));
      const opened = Date.now();
      expect(await within(live.closed, 6_000)).toEqual(expect.objectContaining({ code: 4401, reason: 'Token has expired' }));
      expect(Date.now() - opened).toBeLessThan(4_000);
      await live.client.dispose();
    } finally {
      await shortLived.close();
    }
  });
});

describe('across API processes', () => {
  it('a logout on one process closes the connection held by another sharing the database and REDIS_PREFIX', async () => {
    const shared = { REDIS_PREFIX: `violet-test-live-${randomBytes(4).toString('hex')}`, JWT_SECRET: randomBytes(32).toString('hex') };
    const first = await startTestApp(shared);
    const second = await startTestApp({ ...shared, DATABASE_URL: first.services.config.DATABASE_URL! });
    try {
      const user = await first.createUser();
      const token = await first.login(user.username);
      const live = await subscribed(second, token);
      expect((await first.api('POST', '/auth/logout', { token })).status).toBe(200);
      expect(await within(live.closed)).toEqual(expect.objectContaining({ code: 4401, reason: 'Token has been revoked' }));
      await live.client.dispose();
    } finally {
      await second.close();
      await first.close();
    }
  });
});
