import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { createServer, type AddressInfo } from 'node:net';
import { SERVICE_NODE_FLAGS } from '../../scripts/service-flags.mjs';

/** Generous: the suite runs test files in parallel on two cores, and a loaded machine starts slowly. */
export const STARTUP_BUDGET_MS = 90_000;
export const ADMIN_PASSWORD = 'a long enough admin passphrase';
/** The built entry points (`npm start`, `npm run worker`). */
export const API_ENTRY = 'dist/src/main.js';
export const WORKER_ENTRY = 'dist/workers/main.js';

export async function freePort(): Promise<number> {
  const server = createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

export async function waitFor<T>(
  what: string,
  deadline: number,
  probe: () => Promise<T | undefined>,
  everyMs = 100,
  signal?: AbortSignal,
): Promise<T> {
  while (Date.now() < deadline && !signal?.aborted) {
    const value = await probe().catch(() => undefined);
    if (value !== undefined) return value;
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
  throw new Error(`timed out waiting for ${what}`);
}

export interface ServiceProcess {
  base: string;
  child: ChildProcess;
  /** Resolves with the exit code and signal. */
  exited: Promise<[number | null, NodeJS.Signals | null]>;
  output(): string;
  login(): Promise<string>;
  /** A REST call under /api/v1, with a JSON body when one is given. */
  api(method: string, path: string, token?: string, body?: unknown): Promise<{ status: number; body: any }>;
}

/**
 * The built service (`node dist/src/main.js`, what `npm start` runs; the global setup builds dist/ when stale) as a
 * child process on a free port, outside NODE_ENV=test (as in production), without Redis unless `env` gives one,
 * with ADMIN_PASSWORD set; resolves once it answers its health check, or (a process without HTTP, such as the
 * worker, `WORKER_ENTRY`) once its output matches `ready`.
 */
export async function startServiceProcess(env: Record<string, string>, script = API_ENTRY, ready?: RegExp): Promise<ServiceProcess> {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const childEnv: NodeJS.ProcessEnv = {
    ...process.env,
    NODE_ENV: 'development',
    PORT: String(port),
    HOST: '127.0.0.1',
    LOG_LEVEL: 'info',
    ADMIN_PASSWORD,
    SOURCE_SYNC_SCHEDULES: 'false',
  };
  for (const name of ['DATABASE_URL', 'REDIS_URL', 'JWT_SECRET']) delete childEnv[name];
  Object.assign(childEnv, env);
  // node itself, as supervisors run it: npm would put a parent between the test and the service.
  const child = spawn(process.execPath, [...SERVICE_NODE_FLAGS, script], { env: childEnv, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (chunk) => (stdout += chunk));
  child.stderr!.on('data', (chunk) => (stderr += chunk));
  const exited = once(child, 'exit') as Promise<[number | null, NodeJS.Signals | null]>;
  const output = () => `\n--- stdout ---\n${stdout.slice(-6_000)}\n--- stderr ---\n${stderr.slice(-6_000)}`;

  const api = async (method: string, path: string, token?: string, body?: unknown) => {
    const headers: Record<string, string> = token ? { authorization: `Bearer ${token}` } : {};
    if (body !== undefined) headers['content-type'] = 'application/json';
    const response = await fetch(`${base}/api/v1${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
    const text = await response.text();
    return { status: response.status, body: text ? JSON.parse(text) : null };
  };
  const gone = new AbortController();
  const started = waitFor(
    'the health check',
    Date.now() + STARTUP_BUDGET_MS,
    async () => {
      if (ready) return ready.test(stdout) || undefined;
      return (await fetch(`${base}/api/v1/system/health`)).status === 200 || undefined;
    },
    100,
    gone.signal,
  );
  const died = exited.then(([code]) => {
    gone.abort();
    throw new Error(`the service exited with ${code}`);
  });
  await Promise.race([started, died]).catch((error: Error) => {
    child.kill('SIGKILL');
    throw new Error(`${error.message}${output()}`);
  });
  died.catch(() => undefined);
  return {
    base,
    child,
    exited,
    output,
    api,
    async login() {
      const response = await fetch(`${base}/api/v1/auth/login`, {
        method: 'POST',
        body: new URLSearchParams({ username: 'admin', password: ADMIN_PASSWORD }),
      });
      if (response.status !== 200) throw new Error(`login answered ${response.status}${output()}`);
      return ((await response.json()) as { access_token: string }).access_token;
    },
  };
}
