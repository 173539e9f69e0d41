import { randomBytes } from 'node:crypto';
import type { EventEmitter } from 'node:events';
import { setTimeout as sleep } from 'node:timers/promises';
import { createClient, type Client } from 'graphql-ws';
import { describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { inTransaction, SYSTEM_ACTOR } from '../../db/unit-of-work.ts';
import { event } from '../../events/bus.ts';
import { notifyUsers, type NotificationDraft } from './service.ts';
import { startTestApp, type TestApp, useTestApp } from '../../../test/helpers/app.ts';

const app = useTestApp();

function notify(userIds: string[], draft: Partial<NotificationDraft> = {}, on = app) {
  return inTransaction(on.services, SYSTEM_ACTOR, (uow) =>
    notifyUsers(uow, userIds, { event: 'test_validated', title: 'Test validated', message: 'Your test was validated', ...draft }),
  );
}

async function signedInUser(on = app) {
  const user = await on.createUser({ role: 'red_tech' });
  return { ...user, token: await on.login(user.username) };
}

function within<T>(promise: Promise<T>, ms = 5_000): Promise<T> {
  return Promise.race([promise, sleep(ms).then(() => Promise.reject(new Error(`nothing within ${ms} ms`)))]);
}

const SUBSCRIPTION = 'subscription { notificationAdded { id title event isRead } }';

function wsClient(on: TestApp, token?: string): Client {
  return createClient({
    url: `${on.url.replace(/^http/, 'ws')}/graphql`,
    webSocketImpl: WebSocket,
    connectionParams: token ? { authorization: `Bearer ${token}` } : {},
    retryAttempts: 0,
  });
}

/** The bus' local listener count: rises once the server has set up a subscription's stream. */
const busListeners = (on: TestApp) => (on.services.bus as unknown as { local: EventEmitter }).local.listenerCount('event');

async function subscribe(on: TestApp, client: Client) {
  const before = busListeners(on);
  const iterator = client.iterate<{ notificationAdded: { id: string; title: string } }>({ query: SUBSCRIPTION });
  const first = iterator.next();
  first.catch(() => undefined); // observed by the caller; avoid an unhandled rejection meanwhile
  const deadline = Date.now() + 5_000;
  while (busListeners(on) <= before && Date.now() < deadline) await sleep(10);
  return { iterator, first };
}

describe('listing and reading', () => {
  it('lists own notifications newest first', async () => {
    const user = await signedInUser();
    for (const title of ['first', 'second', 'third']) {
      await notify([user.id], { title });
      await sleep(5);
    }
    const list = await app.api('GET', '/notifications', { token: user.token });
    expect(list.status).toBe(200);
    expect(list.body).toMatchObject({ total: 3, offset: 0, limit: 20 });
    expect(list.body.items.map((item: any) => item.title)).toEqual(['third', 'second', 'first']);
    expect(list.body.items[0]).toMatchObject({ event: 'test_validated', is_read: false, read_at: null, created_at: expect.any(String) });
  });

  it('pages with limit default 20 and max 100', async () => {
    const user = await signedInUser();
    await inTransaction(app.services, SYSTEM_ACTOR, async (uow) => {
      for (let index = 0; index < 25; index++)
        await notifyUsers(uow, [user.id], { event: 'new_techniques', title: `n${index}`, message: '' });
    });
    const firstPage = await app.api('GET', '/notifications', { token: user.token });
    expect(firstPage.body).toMatchObject({ total: 25, offset: 0, limit: 20 });
    expect(firstPage.body.items).toHaveLength(20);
    expect((await app.api('GET', '/notifications?offset=20', { token: user.token })).body.items).toHaveLength(5);
    expect((await app.api('GET', '/notifications?limit=100', { token: user.token })).body.items).toHaveLength(25);
    const tooMany = await app.api('GET', '/notifications?limit=101', { token: user.token });
    expect(tooMany).toMatchObject({ status: 400, body: { code: 'VALIDATION_ERROR', field: 'limit' } });
  });

  it("counts unread, reads one, refuses another user's, and reads all", async () => {
    const user = await signedInUser();
    const stranger = await signedInUser();
    await notify([user.id], { title: 'one' });
    await notify([user.id], { title: 'two' });
    await notify([stranger.id], { title: 'not yours' });
    expect((await app.api('GET', '/notifications/unread-count', { token: user.token })).body).toEqual({ unread_count: 2 });

    const [latest] = (await app.api('GET', '/notifications', { token: user.token })).body.items;
    const read = await app.api('PATCH', `/notifications/${latest.id}/read`, { token: user.token });
    expect(read).toMatchObject({ status: 200, body: { id: latest.id, is_read: true, read_at: expect.any(String) } });
    expect((await app.api('GET', '/notifications/unread-count', { token: user.token })).body).toEqual({ unread_count: 1 });

    const [strangers] = (await app.api('GET', '/notifications', { token: stranger.token })).body.items;
    const refused = await app.api('PATCH', `/notifications/${strangers.id}/read`, { token: user.token });
    expect(refused).toMatchObject({ status: 404, body: { code: 'NOT_FOUND' } });

    expect((await app.api('POST', '/notifications/read-all', { token: user.token })).body).toEqual({ marked: 1 });
    expect((await app.api('GET', '/notifications/unread-count', { token: user.token })).body).toEqual({ unread_count: 0 });
    expect((await app.api('GET', '/notifications/unread-count', { token: stranger.token })).body).toEqual({ unread_count: 1 });
  });

  it('a user who turned off in_app_<event> gets none of that event, but still others', async () => {
    const user = await signedInUser();
    await app.services.prisma.user.update({ where: { id: user.id }, data: { preferences: { in_app_test_validated: false } } });
    expect(await notify([user.id])).toEqual([]);
    expect(await notify([user.id], { event: 'campaign_completed', title: 'Campaign done' })).toEqual([user.id]);
    const list = await app.api('GET', '/notifications', { token: user.token });
    expect(list.body.items.map((item: any) => item.event)).toEqual(['campaign_completed']);
  });
});

describe('the notificationAdded subscription', () => {
  it("streams the caller's new notifications over graphql-ws, and not another user's", async () => {
    const user = await signedInUser();
    const stranger = await signedInUser();
    const client = wsClient(app, user.token);
    try {
      const { iterator, first } = await subscribe(app, client);
      await notify([stranger.id], { title: 'for someone else' });
      await notify([user.id], { title: 'for you' });
      const { value } = await within(first);
      expect(value?.errors).toBeUndefined();
      expect(value?.data?.notificationAdded).toMatchObject({ title: 'for you', event: 'test_validated', isRead: false });
      await iterator.return?.();
    } finally {
      await client.dispose();
    }
  });

  it('refuses an unauthenticated subscription', async () => {
    const client = wsClient(app);
    try {
      const { value } = await within(client.iterate({ query: SUBSCRIPTION }).next());
      expect(value?.data ?? null).toBeNull();
      expect(value?.errors).toEqual([
        expect.objectContaining({ message: 'Authentication required', extensions: { code: 'NOT_AUTHENTICATED', status: 401 } }),
      ]);
    } finally {
      await client.dispose();
    }
  });
});

describe('across API processes', () => {
  it('an event published by one process reaches the bus and the subscribers of another sharing REDIS_PREFIX', async () => {
    const REDIS_PREFIX = `violet-test-shared-${randomBytes(4).toString('hex')}`;
    const [first, second] = await Promise.all([startTestApp({ REDIS_PREFIX }), startTestApp({ REDIS_PREFIX })]);
    const user = await signedInUser(second);
    const client = wsClient(second, user.token);
    try {
      const stream = second.services.bus.stream('notification.created', (received) => received.payload.userId === user.id);
      const elsewhere = app.services.bus.stream('notification.created', (received) => received.payload.userId === user.id);
      const { first: pushed } = await subscribe(second, client);
      // The row exists only in the second app's database; only the event travels through Redis.
      const stored = await second.services.prisma.notification.create({
        data: { userId: user.id, event: 'test_validated', title: 'from afar', message: '' },
      });
      await first.services.bus.publish([event('notification.created', { notificationId: stored.id, userId: user.id }, null)]);

      expect((await within(stream.next())).value).toMatchObject({
        type: 'notification.created',
        payload: { notificationId: stored.id, userId: user.id },
      });
      expect((await within(pushed)).value?.data?.notificationAdded).toMatchObject({ id: stored.id, title: 'from afar' });
      // A process with another prefix hears nothing.
      await expect(within(elsewhere.next(), 300)).rejects.toThrow(/nothing within/);
      await Promise.all([stream.return?.(), elsewhere.return?.()]);
    } finally {
      await client.dispose();
      await Promise.all([first.close(), second.close()]);
    }
  });
});
