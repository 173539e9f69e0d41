import { randomUUID } from 'node:crypto';
import { createClient, type Client } from 'graphql-ws';
import type { Context } from '../context.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import type { GraphQLObjectType } from 'graphql';
import { startTestApp, type TestApp } from '../../../test/helpers/app.ts';
import { until } from '../../../test/helpers/events.ts';
import { issueSession } from '../../modules/auth/service.ts';
import { schema } from '../schema.ts';

const TECHNIQUES = 20;
const DESCRIPTION_CHARS = 20_000;

let app: TestApp;
let viewer: string;

beforeAll(async () => {
  app = await startTestApp({ GRAPHQL_MAX_ANSWER: '64KB', WS_MAX_SUBSCRIPTIONS_PER_SOCKET: '3', WS_MAX_SUBSCRIPTIONS_PER_USER: '4' });
  viewer = await app.tokenFor('viewer');
  await app.services.prisma.technique.createMany({
    data: Array.from({ length: TECHNIQUES }, (_, index) => ({
      ttpId: `T8${String(index).padStart(3, '0')}`,
      name: `Technique ${index}`,
      description: 'd'.repeat(DESCRIPTION_CHARS),
    })),
  });
  // An imported description longer than the cap by itself.
  await app.services.prisma.technique.create({ data: { ttpId: 'T8999', name: 'Imported', description: 'i'.repeat(100_000) } });
});
afterAll(() => app?.close());

describe('the answer-size cap', () => {
  it('a GraphQL answer over GRAPHQL_MAX_ANSWER stops with one ANSWER_TOO_LARGE error (422) and no data', async () => {
    const answer = await app.graphql('{ techniques { ttpId description } }', {}, viewer);
    expect(answer.status).toBe(422);
    expect(answer.errors).toHaveLength(1);
    expect(answer.errors![0].extensions).toMatchObject({ code: 'ANSWER_TOO_LARGE', status: 422, max_answer_bytes: 65_536 });
    expect(answer.errors![0].message).toMatch(/larger than 65536 bytes/);
    expect(answer.data ?? null).toBeNull();
  });

  it('a REST answer over the cap is a 422 with {detail, code}', async () => {
    const answer = await app.api('GET', '/techniques/T8999', { token: viewer });
    expect(answer.status).toBe(422);
    expect(answer.body).toEqual({
      detail: expect.stringMatching(/larger than 65536 bytes/),
      code: 'ANSWER_TOO_LARGE',
      max_answer_bytes: 65_536,
    });
  });

  it('an answer within the cap is unchanged', async () => {
    const answer = await app.graphql('{ techniques { ttpId name } }', {}, viewer);
    expect(answer.status).toBe(200);
    expect(answer.errors).toBeUndefined();
    expect(answer.data.techniques.filter((technique: { ttpId: string }) => technique.ttpId.startsWith('T8'))).toHaveLength(TECHNIQUES + 1);
  });
});

describe('the execution deadline', () => {
  let slow: TestApp;
  beforeAll(async () => {
    slow = await startTestApp({ GRAPHQL_DEADLINE: '1ms' });
  });
  afterAll(() => slow?.close());

  it('an operation running past GRAPHQL_DEADLINE stops with one QUERY_TIMEOUT error (503)', async () => {
    // Signed in without GraphQL: the sign-in mutation itself would run out of time.
    const user = await slow.services.prisma.user.findUniqueOrThrow({ where: { id: (await slow.createUser({ role: 'viewer' })).id } });
    const token = (await issueSession(slow.services, user)).accessToken;
    const answer = await slow.graphql('{ a: techniques { ttpId } b: techniques { name } c: techniques { ttpId } }', {}, token);
    expect(answer.status).toBe(503);
    expect(answer.errors).toHaveLength(1);
    expect(answer.errors![0].extensions).toMatchObject({ code: 'QUERY_TIMEOUT', status: 503, deadline_ms: 1 });
  });

  it('a write that outlasts the deadline is done and answered, not reported as timed out', async () => {
    const user = await slow.services.prisma.user.findUniqueOrThrow({ where: { id: (await slow.createUser({ role: 'admin' })).id } });
    const token = (await issueSession(slow.services, user)).accessToken;
    const answer = await slow.graphql(
      'mutation { createTechnique(input: { ttpId: "CUSTOM-SLOW", name: "Slow write", tactic: "Execution" }) { ttpId name } }',
      {},
      token,
    );
    expect(answer.errors).toBeUndefined();
    expect(answer.data.createTechnique).toEqual({ ttpId: 'CUSTOM-SLOW', name: 'Slow write' });
    expect(await slow.services.prisma.technique.count({ where: { ttpId: 'CUSTOM-SLOW' } })).toBe(1);
  });
});

describe('introspection', () => {
  const INTROSPECT = JSON.stringify({ query: '{ __schema { queryType { name } } }' });
  const post = (headers: Record<string, string> = {}) =>
    fetch(`${app.url}/graphql`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: INTROSPECT });

  it('is refused to an anonymous caller with 401 INTROSPECTION_DISABLED; __typename stays open', async () => {
    const response = await post();
    expect(response.status).toBe(401);
    const body = (await response.json()) as any;
    expect(body.errors[0].extensions).toMatchObject({ code: 'INTROSPECTION_DISABLED', status: 401 });
    expect(body.data).toBeUndefined();
    expect(await app.graphql('{ __typename }')).toMatchObject({ status: 200, data: { __typename: 'Query' } });
  });

  it('is allowed once signed in, by token or by the session cookie GraphiQL sends', async () => {
    const byToken = await post({ authorization: `Bearer ${viewer}` });
    expect(await byToken.json()).toEqual({ data: { __schema: { queryType: { name: 'Query' } } } });
    const user = await app.createUser({ role: 'viewer' });
    const login = await app.api('POST', '/auth/login', { form: { username: user.username, password: user.password } });
    const cookie = login.headers.get('set-cookie')!.split(';')[0];
    const byCookie = await post({ cookie, origin: app.url });
    expect(await byCookie.json()).toEqual({ data: { __schema: { queryType: { name: 'Query' } } } });
  });

  it('can be opened to anyone or closed to everyone', async () => {
    const open = await startTestApp({ GRAPHQL_INTROSPECTION: 'anyone' });
    const closed = await startTestApp({ GRAPHQL_INTROSPECTION: 'off' });
    try {
      expect(await open.graphql('{ __schema { queryType { name } } }')).toMatchObject({
        status: 200,
        data: { __schema: { queryType: { name: 'Query' } } },
      });
      const refused = await closed.graphql('{ __schema { queryType { name } } }', {}, await closed.tokenFor('admin'));
      expect(refused.status).toBe(403);
      expect(refused.errors![0].extensions).toMatchObject({ code: 'INTROSPECTION_DISABLED' });
    } finally {
      await open.close();
      await closed.close();
    }
  });
});

describe('live subscriptions', () => {
  const clients: Client[] = [];
  afterAll(async () => {
    for (const client of clients) await client.dispose();
  });

  function connect(token: string): Client {
    const client = createClient({
      url: `${app.url.replace(/^http/, 'ws')}/graphql`,
      webSocketImpl: WebSocket,
      connectionParams: { authorization: `Bearer ${token}` },
      retryAttempts: 0,
      lazy: false,
    });
    clients.push(client);
    return client;
  }

  /** Subscribes; resolves with the refusal's code, or null once the subscription runs. */
  function subscribe(client: Client, query: string, onResult: (result: any) => void = () => undefined) {
    let stop: () => void = () => undefined;
    const outcome = new Promise<string | null>((resolve) => {
      stop = client.subscribe(
        { query },
        { next: onResult, error: (errors) => resolve((errors as any[])[0]?.extensions?.code ?? 'ERROR'), complete: () => undefined },
      );
      setTimeout(() => resolve(null), 300);
    });
    return { outcome, stop: () => stop() };
  }

  const STATE_CHANGES = 'subscription { testStateChanged { testId toState test { name description } } }';

  it('caps live subscriptions per socket and per user across sockets with 429 TOO_MANY_SUBSCRIPTIONS; completed ones free their place', async () => {
    const token = await app.login((await app.createUser({ role: 'viewer' })).username);
    const first = connect(token);
    const held = [subscribe(first, STATE_CHANGES), subscribe(first, STATE_CHANGES), subscribe(first, STATE_CHANGES)];
    expect(await Promise.all(held.map((subscription) => subscription.outcome))).toEqual([null, null, null]);
    expect(await subscribe(first, STATE_CHANGES).outcome).toBe('TOO_MANY_SUBSCRIPTIONS');

    const second = connect(token);
    expect(await subscribe(second, STATE_CHANGES).outcome).toBeNull();
    expect(await subscribe(second, STATE_CHANGES).outcome).toBe('TOO_MANY_SUBSCRIPTIONS');

    held[0].stop();
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(await subscribe(second, STATE_CHANGES).outcome).toBeNull();
  });

  /** Counts how many times the server resolves `TestStateChange.test` while `work` runs (the server runs in this process). */
  /** How often `TestStateChange.test` is resolved for `userId`'s subscriptions while `work` runs. */
  async function resolutionsOfTest(userId: string, work: () => Promise<void>): Promise<number> {
    const field = (schema.getType('TestStateChange') as GraphQLObjectType).getFields().test;
    const original = field.resolve!;
    let count = 0;
    field.resolve = (...args) => {
      if ((args[2] as Context).auth.principal?.userId === userId) count += 1;
      return original(...args);
    };
    try {
      await work();
    } finally {
      field.resolve = original;
    }
    return count;
  }

  it('identical subscriptions share the work of each event: resolved once for three subscribers', async () => {
    const lead = await app.tokenFor('red_lead');
    const technique = await app.services.prisma.technique.findFirstOrThrow({ where: { ttpId: 'T8000' } });
    const author = await app.createUser({ role: 'red_lead' });
    const testIds = [randomUUID(), randomUUID(), randomUUID()];
    await app.services.prisma.test.createMany({
      data: testIds.map((id) => ({ id, lineageId: id, techniqueId: technique.id, name: 'Shared', createdById: author.id })),
    });
    const transition = async (testId: string, client: Client, subscribers: number) => {
      const received: any[] = [];
      const subscriptions = Array.from({ length: subscribers }, () => subscribe(client, STATE_CHANGES, (result) => received.push(result)));
      expect(await Promise.all(subscriptions.map((subscription) => subscription.outcome))).toEqual(Array(subscribers).fill(null));
      const resolutions = await resolutionsOfTest(watcher.id, async () => {
        expect((await app.api('POST', `/tests/${testId}/start-execution`, { token: lead })).status).toBe(200);
        await until(() => (received.length >= subscribers ? true : undefined));
      });
      for (const subscription of subscriptions) subscription.stop();
      expect(received.map((result) => result.data.testStateChanged)).toEqual(
        Array(subscribers).fill({ testId, toState: 'red_executing', test: { name: 'Shared', description: '' } }),
      );
      return resolutions;
    };
    // A viewer of its own: subscriptions other tests left open resolve their own fields, not this one's.
    const watcher = await app.createUser({ role: 'viewer' });
    const watching = await app.login(watcher.username, watcher.password);
    const alone = await transition(testIds[0], connect(watching), 1);
    // A left execution finishes the event it was already waiting for: one unwatched transition drains it.
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect((await app.api('POST', `/tests/${testIds[2]}/start-execution`, { token: lead })).status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 100));
    const shared = await transition(testIds[1], connect(watching), 3);
    expect(alone).toBe(1);
    expect(shared).toBe(1);
  });
});
