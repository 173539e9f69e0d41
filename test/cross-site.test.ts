import { randomBytes } from 'node:crypto';
import { createClient } from 'graphql-ws';
import { beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { loadConfig } from '../src/config.ts';
import { startTestApp, useTestApp, TEST_PASSWORD } from './helpers/app.ts';

let adminToken: string;
let adminCookie: string;
let ownOrigin: string;
const FOREIGN = 'https://attacker.example';

const app = useTestApp();

beforeAll(async () => {
  const admin = await app.createUser({ role: 'admin' });
  adminToken = await app.login(admin.username);
  adminCookie = `svc_token=${adminToken}`;
  ownOrigin = app.url;
});

const newUser = () => ({ username: `made_${randomBytes(4).toString('hex')}`, password: 'a fresh strong password', role: 'admin' });

async function post(path: string, headers: Record<string, string>, body: string | URLSearchParams) {
  const response = await fetch(`${app.url}${path}`, { method: 'POST', headers, body });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : null };
}

const postJson = (path: string, headers: Record<string, string>, value: unknown) =>
  post(path, { 'content-type': 'application/json', ...headers }, JSON.stringify(value));

describe('CSRF on REST', () => {
  it('a form-encoded POST carrying only the admin cookie creates nobody: 415', async () => {
    const form = new URLSearchParams(newUser());
    const response = await post('/api/v1/users', { cookie: adminCookie }, form);
    expect(response).toMatchObject({
      status: 415,
      body: { code: 'UNSUPPORTED_MEDIA_TYPE', detail: 'The request body must be application/json' },
    });
    expect(await app.services.prisma.user.count({ where: { username: form.get('username')! } })).toBe(0);
  });

  it('a text/plain POST with the cookie is refused with 415, and so is a body without a content type', async () => {
    const asText = await post('/api/v1/users', { cookie: adminCookie, 'content-type': 'text/plain' }, JSON.stringify(newUser()));
    expect(asText).toMatchObject({ status: 415, body: { code: 'UNSUPPORTED_MEDIA_TYPE' } });
    const untyped = await fetch(`${app.url}/api/v1/users`, {
      method: 'POST',
      headers: { cookie: adminCookie },
      body: new Blob([JSON.stringify(newUser())]),
    });
    expect(untyped.status).toBe(415);
    expect(await untyped.json()).toMatchObject({ code: 'UNSUPPORTED_MEDIA_TYPE' });
  });

  it('a form POST from a foreign page is refused as cross-site before its media type is looked at', async () => {
    const response = await post('/api/v1/users', { cookie: adminCookie, origin: FOREIGN }, new URLSearchParams(newUser()));
    expect(response).toMatchObject({
      status: 403,
      body: { code: 'CSRF_REJECTED', detail: expect.stringMatching(/Origin is not one of this service/) },
    });
  });

  it('a JSON cookie POST from a foreign Origin, a foreign Referer, or with Sec-Fetch-Site cross-site or same-site is refused', async () => {
    const attempts: Record<string, string>[] = [
      { origin: FOREIGN },
      { origin: 'null' },
      { referer: `${FOREIGN}/page` },
      { 'sec-fetch-site': 'cross-site' },
      { 'sec-fetch-site': 'same-site', origin: ownOrigin },
      { origin: ownOrigin.replace('127.0.0.1', 'localhost') },
    ];
    for (const headers of attempts) {
      const user = newUser();
      const response = await postJson('/api/v1/users', { cookie: adminCookie, ...headers }, user);
      expect(response, JSON.stringify(headers)).toMatchObject({ status: 403, body: { code: 'CSRF_REJECTED', detail: expect.any(String) } });
      expect(await app.services.prisma.user.count({ where: { username: user.username } })).toBe(0);
    }
  });

  it("the same cookie POST from the service's own page succeeds", async () => {
    const own: Record<string, string>[] = [
      { origin: ownOrigin, 'sec-fetch-site': 'same-origin' },
      { referer: `${ownOrigin}/graphiql` },
      { 'sec-fetch-site': 'none' },
      {},
    ];
    for (const headers of own) {
      const user = newUser();
      const response = await postJson('/api/v1/users', { cookie: adminCookie, ...headers }, user);
      expect(response, JSON.stringify(headers)).toMatchObject({ status: 201, body: { username: user.username, role: 'admin' } });
    }
  });

  it('bearer tokens and API keys are unaffected by Origin and Sec-Fetch-Site', async () => {
    const key = await app.api('POST', '/api-keys', { token: adminToken, body: { name: 'automation', scope: 'admin' } });
    expect(key.status).toBe(201);
    for (const credential of [adminToken, key.body.key as string]) {
      const user = newUser();
      const headers = { authorization: `Bearer ${credential}`, cookie: adminCookie, origin: FOREIGN, 'sec-fetch-site': 'cross-site' };
      expect(await postJson('/api/v1/users', headers, user)).toMatchObject({ status: 201, body: { username: user.username } });
    }
  });

  it('safe methods are not checked: a cross-site GET with the cookie still reads', async () => {
    const response = await fetch(`${app.url}/api/v1/auth/me`, {
      headers: { cookie: adminCookie, origin: FOREIGN, 'sec-fetch-site': 'cross-site' },
    });
    expect(response.status).toBe(200);
  });
});

describe('the login form', () => {
  it("still signs in with a form-encoded body, from a script or from the service's own page", async () => {
    const user = await app.createUser();
    const pages: Record<string, string>[] = [{}, { origin: ownOrigin, 'sec-fetch-site': 'same-origin' }];
    for (const headers of pages) {
      const response = await post('/api/v1/auth/login', headers, new URLSearchParams({ username: user.username, password: TEST_PASSWORD }));
      expect(response).toMatchObject({ status: 200, body: { access_token: expect.any(String), token_type: 'bearer' } });
    }
  });

  it('refuses a login posted by another site (login CSRF) and a JSON login', async () => {
    const user = await app.createUser();
    const form = new URLSearchParams({ username: user.username, password: TEST_PASSWORD });
    expect(await post('/api/v1/auth/login', { origin: FOREIGN }, form)).toMatchObject({ status: 403, body: { code: 'CSRF_REJECTED' } });
    expect(await post('/api/v1/auth/login', { 'sec-fetch-site': 'cross-site' }, form)).toMatchObject({
      status: 403,
      body: { code: 'CSRF_REJECTED' },
    });
    const json = await postJson('/api/v1/auth/login', {}, { username: user.username, password: TEST_PASSWORD });
    expect(json).toMatchObject({
      status: 415,
      body: { code: 'UNSUPPORTED_MEDIA_TYPE', detail: 'The request body must be application/x-www-form-urlencoded' },
    });
  });
});

describe('CSRF and media types on /graphql over HTTP', () => {
  const CREATE_KEY = 'mutation { createApiKey(input: { name: "stolen", scope: admin }) { key } }';

  it('a cookie mutation from a foreign Origin gets a GraphQL-shaped 403 and creates no key', async () => {
    const before = await app.services.prisma.apiKey.count();
    const response = await postJson('/graphql', { cookie: adminCookie, origin: FOREIGN }, { query: CREATE_KEY });
    expect(response).toMatchObject({
      status: 403,
      body: { errors: [{ message: expect.stringMatching(/Cross-origin/), extensions: { code: 'CSRF_REJECTED' } }] },
    });
    expect(await app.services.prisma.apiKey.count()).toBe(before);
  });

  it('a same-origin cookie mutation and a bearer mutation from anywhere succeed', async () => {
    const own = await postJson('/graphql', { cookie: adminCookie, origin: ownOrigin }, { query: CREATE_KEY });
    expect(own).toMatchObject({ status: 200, body: { data: { createApiKey: { key: expect.stringMatching(/^svc_/) } } } });
    const bearer = await postJson('/graphql', { authorization: `Bearer ${adminToken}`, origin: FOREIGN }, { query: CREATE_KEY });
    expect(bearer).toMatchObject({ status: 200, body: { data: { createApiKey: { key: expect.any(String) } } } });
  });

  it('a POST body that is not application/json gets 415 in the GraphQL shape', async () => {
    const headers = { authorization: `Bearer ${adminToken}`, 'apollo-require-preflight': 'true' };
    for (const type of ['text/plain', 'application/x-www-form-urlencoded']) {
      const response = await post('/graphql', { ...headers, 'content-type': type }, JSON.stringify({ query: '{ __typename }' }));
      expect(response, type).toMatchObject({ status: 415, body: { errors: [{ extensions: { code: 'UNSUPPORTED_MEDIA_TYPE' } }] } });
    }
  });
});

describe('cross-site WebSocket hijacking', () => {
  const wsUrl = () => `${app.url.replace(/^http/, 'ws')}/graphql`;

  /** The HTTP status of the upgrade: 101 when accepted. */
  function upgrade(headers: Record<string, string>): Promise<number> {
    return new Promise((resolve, reject) => {
      const socket = new WebSocket(wsUrl(), 'graphql-transport-ws', { headers });
      socket.once('upgrade', (response) => resolve(response.statusCode ?? 0));
      socket.once('unexpected-response', (_request, response) => {
        resolve(response.statusCode ?? 0);
        socket.terminate();
      });
      socket.once('open', () => socket.close());
      socket.once('error', (error) => (error.message.includes('Unexpected server response') ? undefined : reject(error)));
    });
  }

  it('refuses an upgrade from a foreign Origin that carries the session cookie with 403', async () => {
    expect(await upgrade({ origin: FOREIGN, cookie: adminCookie })).toBe(403);
    expect(await upgrade({ origin: 'null', cookie: `theme=dark; ${adminCookie}` })).toBe(403);
  });

  it('accepts the cookie from the own origin, and foreign or missing origins without the cookie', async () => {
    expect(await upgrade({ origin: ownOrigin, cookie: adminCookie })).toBe(101);
    expect(await upgrade({ cookie: adminCookie })).toBe(101);
    expect(await upgrade({ origin: FOREIGN })).toBe(101);
    expect(await upgrade({ origin: FOREIGN, cookie: 'theme=dark' })).toBe(101);
  });

  async function runOverWebSocket(options: { headers?: Record<string, string>; token?: string }, query: string) {
    class WithHeaders extends WebSocket {
      constructor(address: string, protocols?: string | string[]) {
        super(address, protocols, { headers: options.headers });
      }
    }
    const client = createClient({
      url: wsUrl(),
      webSocketImpl: WithHeaders,
      connectionParams: options.token ? { authorization: `Bearer ${options.token}` } : {},
      retryAttempts: 0,
    });
    try {
      return await client.iterate({ query }).next();
    } finally {
      await client.dispose();
    }
  }

  it('a same-origin cookie connection and a bearer token in connectionParams from a foreign page both run mutations', async () => {
    const mutation = 'mutation { createApiKey(input: { name: "live", scope: read }) { scope } }';
    const byCookie = await runOverWebSocket({ headers: { origin: ownOrigin, cookie: adminCookie } }, mutation);
    expect(byCookie.value).toMatchObject({ data: { createApiKey: { scope: 'read' } } });
    const byBearer = await runOverWebSocket({ headers: { origin: FOREIGN }, token: adminToken }, mutation);
    expect(byBearer.value).toMatchObject({ data: { createApiKey: { scope: 'read' } } });
  });
});

describe('configured origins', () => {
  it('with PUBLIC_URL and ALLOWED_ORIGINS, only those origins pass, whatever the Host', async () => {
    const configured = await startTestApp({
      PUBLIC_URL: 'https://violet.example.com/',
      ALLOWED_ORIGINS: 'https://purple.example.org:8443, http://ops.internal',
    });
    try {
      const admin = await configured.createUser({ role: 'admin' });
      const cookie = `svc_token=${await configured.login(admin.username)}`;
      const status = async (origin: string) =>
        (
          await fetch(`${configured.url}/api/v1/api-keys`, {
            method: 'POST',
            headers: { cookie, origin, 'content-type': 'application/json' },
            body: JSON.stringify({ name: 'k', scope: 'read' }),
          })
        ).status;
      expect(await status('https://violet.example.com')).toBe(201);
      expect(await status('https://purple.example.org:8443')).toBe(201);
      expect(await status('http://ops.internal')).toBe(201);
      expect(await status('https://purple.example.org')).toBe(403);
      expect(await status('http://violet.example.com')).toBe(403);
      // The server's own address is not an origin of ours once origins are configured.
      expect(await status(configured.url)).toBe(403);
    } finally {
      await configured.close();
    }
  });

  it('behind a trusted proxy, X-Forwarded-Host and -Proto name the origin', async () => {
    const proxied = await startTestApp({ TRUST_PROXY: 'loopback' });
    try {
      const admin = await proxied.createUser({ role: 'admin' });
      const cookie = `svc_token=${await proxied.login(admin.username)}`;
      const status = async (origin: string) =>
        (
          await fetch(`${proxied.url}/api/v1/api-keys`, {
            method: 'POST',
            headers: {
              cookie,
              origin,
              'x-forwarded-host': 'violet.example.com',
              'x-forwarded-proto': 'https',
              'content-type': 'application/json',
            },
            body: JSON.stringify({ name: 'k', scope: 'read' }),
          })
        ).status;
      expect(await status('https://violet.example.com')).toBe(201);
      expect(await status('http://violet.example.com')).toBe(403);
      expect(await status(proxied.url)).toBe(403);
    } finally {
      await proxied.close();
    }
  });

  it('refuses a configuration whose ALLOWED_ORIGINS holds something that is not an origin', () => {
    expect(loadConfig({ ALLOWED_ORIGINS: 'https://ok.example, HTTPS://Ok.Example:443' }).ALLOWED_ORIGINS).toEqual([
      'https://ok.example',
      'https://ok.example',
    ]);
    for (const bad of ['https://bad.example/path', 'ftp://files.example', 'violet.example.com']) {
      expect(() => loadConfig({ ALLOWED_ORIGINS: bad }), bad).toThrow(/ALLOWED_ORIGINS: .* is not an origin/);
    }
  });
});
