import { afterAll, beforeAll, expect } from 'vitest';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createApp } from '../../src/app.ts';
import { hashPassword } from '../../src/auth/passwords.ts';
import type { Role } from '../../src/auth/roles.ts';
import { loadConfig } from '../../src/config.ts';
import { createLogger } from '../../src/logger.ts';
import { createServices } from '../../src/composition.ts';
import type { Services } from '../../src/services.ts';
import { createTestDatabase } from './database.ts';
import { wiring } from '../../workers/wiring.ts';

/**
 * `fetch`, sent a second time when it is a read and the server closed the kept-alive connection as the request went
 * out. The server runs in the test's process: a test that holds the event loop for seconds (inserting 10,000 rows,
 * say) lets the server's keep-alive timer and the client's reuse of the idle connection come due in the same turn.
 * A request that changes something is never sent twice.
 */
async function send(url: string, init: RequestInit): Promise<Response> {
  try {
    return await fetch(url, init);
  } catch (error) {
    const closed = (error as { cause?: { code?: unknown } }).cause?.code === 'UND_ERR_SOCKET';
    if (init.method !== 'GET' || !closed) throw error;
    return fetch(url, init);
  }
}

export const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
export const TEST_PASSWORD = 'correct horse battery staple';

export interface ApiResponse<T = any> {
  status: number;
  body: T;
  headers: Headers;
}

export interface RequestOptions {
  token?: string;
  body?: unknown;
  form?: Record<string, string>;
  headers?: Record<string, string>;
}

export interface TestApp {
  url: string;
  services: Services;
  /** REST call under /api/v1 (path starts with '/'). */
  api<T = any>(method: string, path: string, options?: RequestOptions): Promise<ApiResponse<T>>;
  /** GraphQL over HTTP. */
  graphql<T = any>(
    query: string,
    variables?: Record<string, unknown>,
    token?: string,
  ): Promise<{ status: number; data?: T; errors?: any[] }>;
  createUser(options?: {
    role?: Role;
    username?: string;
    password?: string;
    mustChangePassword?: boolean;
    isActive?: boolean;
  }): Promise<{ id: string; username: string; password: string; role: Role }>;
  /** Signs in through POST /auth/login and returns the access token. */
  login(username: string, password?: string): Promise<string>;
  /** A token for a (cached) user with this role. */
  tokenFor(role: Role): Promise<string>;
  close(): Promise<void>;
}

/**
 * A real service on a random port: its own Postgres database (cloned from the migrated template), Redis with
 * its own key prefix, jobs and event bus on Redis. `env` overrides configuration variables. With `embedded`, the
 * embedded engines instead, in this process: PGlite in a fresh data directory, in-process jobs and events.
 */
export async function startTestApp(env: Record<string, string> = {}, { embedded = false } = {}): Promise<TestApp> {
  const database = embedded ? null : await createTestDatabase();
  const dataDir = await mkdtemp(join(tmpdir(), 'violet-test-'));
  const prefix = `violet-test-${randomBytes(4).toString('hex')}`;
  const config = loadConfig({
    NODE_ENV: 'test',
    ...(database ? { DATABASE_URL: database.url, REDIS_URL } : {}),
    REDIS_PREFIX: prefix,
    JWT_SECRET: randomBytes(32).toString('hex'),
    DATA_DIR: dataDir,
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
    PORT: '0',
    HOST: '127.0.0.1',
    RUN_WORKERS: 'inline',
    ...env,
  });
  const services = await createServices(config, createLogger(config.LOG_LEVEL), 'api', wiring);
  const app = await createApp(services);
  app.server.listen(0, '127.0.0.1');
  await once(app.server, 'listening');
  await services.jobs.start();
  const url = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  const tokens = new Map<Role, string>();

  const api: TestApp['api'] = async (method, path, options = {}) => {
    const headers: Record<string, string> = { ...options.headers };
    if (options.token) headers.authorization = `Bearer ${options.token}`;
    let body: string | undefined;
    if (options.form) {
      headers['content-type'] = 'application/x-www-form-urlencoded';
      body = new URLSearchParams(options.form).toString();
    } else if (options.body !== undefined) {
      headers['content-type'] = 'application/json';
      body = typeof options.body === 'string' ? options.body : JSON.stringify(options.body);
    }
    const response = await send(`${url}/api/v1${path}`, { method, headers, body });
    const text = await response.text();
    let parsed: unknown = text;
    try {
      parsed = text ? JSON.parse(text) : null;
    } catch {
      // not JSON: keep the text
    }
    return { status: response.status, body: parsed as any, headers: response.headers };
  };

  const testApp: TestApp = {
    url,
    services,
    api,
    async graphql(query, variables = {}, token) {
      const response = await fetch(`${url}/graphql`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
        body: JSON.stringify({ query, variables }),
      });
      return { status: response.status, ...((await response.json()) as object) };
    },
    async createUser({ role = 'viewer', username, password = TEST_PASSWORD, mustChangePassword = false, isActive = true } = {}) {
      const user = await services.prisma.user.create({
        data: {
          username: username ?? `${role}_${randomBytes(4).toString('hex')}`,
          role,
          passwordHash: await hashPassword(password),
          mustChangePassword,
          isActive,
        },
      });
      return { id: user.id, username: user.username, password, role };
    },
    async login(username, password = TEST_PASSWORD) {
      const response = await api('POST', '/auth/login', { form: { username, password } });
      if (response.status !== 200) throw new Error(`login of ${username} failed: ${response.status} ${JSON.stringify(response.body)}`);
      return response.body.access_token as string;
    },
    async tokenFor(role) {
      let token = tokens.get(role);
      if (!token) {
        const user = await testApp.createUser({ role });
        token = await testApp.login(user.username);
        tokens.set(role, token);
      }
      return token;
    },
    async close() {
      await app.close();
      await new Promise((resolve) => app.server.close(resolve));
      const keys = (await services.redis?.keys(`${prefix}:*`)) ?? [];
      if (keys.length) await services.redis!.del(...keys);
      await services.close();
      await database?.drop();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
  return testApp;
}

/** GET `path` under /api/v1 with `token`, expecting 200 (the body shows in the failure); answers the body. */
export async function getOk(app: TestApp, path: string, token: string) {
  const response = await app.api('GET', path, { token });
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return response.body;
}

type AppEnv = Record<string, string> | (() => Record<string, string>);

/**
 * The start-a-server fixture of a test file: a real service started before the file's first test (after the
 * `beforeAll` hooks registered earlier, so `env` may be a function reading their results) and closed after its
 * last. The returned handle forwards to that service.
 */
export function useTestApp(env: AppEnv = {}): TestApp {
  let app: TestApp | undefined;
  beforeAll(async () => {
    app = await startTestApp(typeof env === 'function' ? env() : env);
  });
  afterAll(async () => {
    await app?.close();
    app = undefined;
  });
  return new Proxy({} as TestApp, {
    get(_target, key) {
      if (!app) throw new Error('The test server runs only between beforeAll and afterAll');
      return Reflect.get(app, key);
    },
  });
}

/**
 * An object that a `beforeAll` of the test file makes (after the hooks registered earlier, such as the test app's),
 * usable from the file's top level: the handle forwards to the object, and throws when read before it exists.
 */
export function madeBeforeAll<T extends object>(what: string, make: () => Promise<T>): T {
  let made: T | undefined;
  beforeAll(async () => {
    made = await make();
  });
  const target = () => {
    if (!made) throw new Error(`${what} exists only once the file's beforeAll hooks have run`);
    return made;
  };
  return new Proxy({} as T, {
    get: (_target, key) => Reflect.get(target(), key),
    has: (_target, key) => Reflect.has(target(), key),
    ownKeys: () => Reflect.ownKeys(target()),
    getOwnPropertyDescriptor: (_target, key) => {
      const descriptor = Reflect.getOwnPropertyDescriptor(target(), key);
      return descriptor && { ...descriptor, configurable: true };
    },
  });
}
