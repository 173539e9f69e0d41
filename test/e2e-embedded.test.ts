import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Webhook } from 'standardwebhooks';
import { API_ENTRY, freePort, waitFor } from './helpers/service-process.ts';
import { startWebhookReceiver } from './helpers/webhook-receiver.ts';
import { afterAll, describe, expect, it } from 'vitest';

/** Generous: the suite runs test files in parallel on two cores, and a loaded machine starts slowly. */
const STARTUP_BUDGET_MS = 60_000;
const NEW_PASSWORD = 'a brand new passphrase for e2e';

/** The environment of a first start on a laptop: no database server, no Redis, no configured secrets. */
function embeddedEnv(dataDir: string, port: number): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    DATA_DIR: dataDir,
    PORT: String(port),
    HOST: '127.0.0.1',
    LOG_LEVEL: 'info',
    WEBHOOK_ALLOWED_HOSTS: '127.0.0.1:*',
  };
  for (const name of ['DATABASE_URL', 'REDIS_URL', 'ADMIN_PASSWORD', 'JWT_SECRET']) delete env[name];
  return env;
}

let child: ChildProcess | undefined;
let dataDir: string | undefined;
afterAll(async () => {
  if (child && child.exitCode === null) child.kill('SIGKILL');
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

describe('embedded mode (no DATABASE_URL, no REDIS_URL)', () => {
  it('starts in under 20 s, prints the admin credentials, serves REST and GraphQL, and stops cleanly on SIGTERM', async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'violet-e2e-'));
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    const started = Date.now();
    child = spawn(process.execPath, [API_ENTRY], { env: embeddedEnv(dataDir, port), stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout!.on('data', (chunk) => (stdout += chunk));
    child.stderr!.on('data', (chunk) => (stderr += chunk));
    const exited = once(child, 'exit');
    const output = () => `\n--- stdout ---\n${stdout}\n--- stderr ---\n${stderr}`;

    const deadline = started + STARTUP_BUDGET_MS;
    await waitFor('GET /api/v1/system/health', deadline, async () => {
      if (child!.exitCode !== null) throw new Error(`the service exited with ${child!.exitCode}${output()}`);
      return (await fetch(`${base}/api/v1/system/health`)).status === 200 || undefined;
    }).catch((error: Error) => {
      throw new Error(`${error.message}${output()}`);
    });
    const timeToHealthy = Date.now() - started;
    console.info(`embedded service healthy after ${timeToHealthy} ms`);
    expect(timeToHealthy).toBeLessThan(STARTUP_BUDGET_MS);

    const credentials = /username: (\S+)\s+password: (\S+)/.exec(stdout);
    expect(credentials, `no admin credentials on stdout${output()}`).not.toBeNull();
    const [, username, password] = credentials!;

    const post = (path: string, body: unknown, token?: string) =>
      fetch(`${base}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
        body: JSON.stringify(body),
      });
    const login = await fetch(`${base}/api/v1/auth/login`, { method: 'POST', body: new URLSearchParams({ username, password }) });
    expect(login.status).toBe(200);
    const firstToken = ((await login.json()) as { access_token: string }).access_token;

    const gated = await fetch(`${base}/api/v1/techniques`, { headers: { authorization: `Bearer ${firstToken}` } });
    expect(gated.status).toBe(403);
    expect(await gated.json()).toMatchObject({ code: 'PASSWORD_CHANGE_REQUIRED' });

    const changed = await post('/api/v1/auth/change-password', { current_password: password, new_password: NEW_PASSWORD }, firstToken);
    expect(changed.status).toBe(200);
    const token = ((await changed.json()) as { access_token: string }).access_token;

    const created = await post(
      '/api/v1/techniques',
      { ttp_id: 'T1059', name: 'Command and Scripting Interpreter', tactic: 'Execution' },
      token,
    );
    expect(created.status).toBe(201);

    // Full-text search runs on the embedded database too (generated tsvector column, GIN index, ranking).
    const techniqueId = ((await created.json()) as { id: string }).id;
    for (const title of ['Hunting PowerShell', 'Detection notes']) {
      const content = 'Watch for powershell -EncodedCommand launched by office documents.';
      expect(
        (await post('/api/v1/knowledge/playbooks', { technique_id: techniqueId, type: 'hunting', title, content }, token)).status,
      ).toBe(201);
    }
    const found = await fetch(`${base}/api/v1/knowledge/playbooks?search=powershell`, { headers: { authorization: `Bearer ${token}` } });
    expect(((await found.json()) as { items: { title: string }[] }).items.map((item) => item.title)).toEqual([
      'Hunting PowerShell',
      'Detection notes',
    ]);

    const read = await post('/graphql', { query: '{ technique(ttpId: "T1059") { name } me { username role } }' }, token);
    expect(await read.json()).toEqual({
      data: { technique: { name: 'Command and Scripting Interpreter' }, me: { username, role: 'admin' } },
    });

    // A bulk write (its transaction's own plan setting) on the embedded database: the snapshot copies the technique.
    const snapshot = await post('/api/v1/snapshots', { name: 'embedded' }, token);
    expect(snapshot.status).toBe(201);
    expect(await snapshot.json()).toMatchObject({ name: 'embedded', summary: { total: 1, not_evaluated: 1 } });

    // Webhooks are delivered by the in-process job runner, signed as with Redis.
    const receiver = await startWebhookReceiver();
    try {
      const secret = 'an embedded webhook secret';
      const hook = await post('/api/v1/webhooks', { url: `${receiver.url}/embedded`, events: ['webhook.test'], secret }, token);
      expect(hook.status).toBe(201);
      const { id } = (await hook.json()) as { id: string };
      expect((await post(`/api/v1/webhooks/${id}/test`, {}, token)).status).toBe(202);
      const delivered = await waitFor('the webhook delivery', Date.now() + 15_000, async () => receiver.at('/embedded')[0]);
      const message = new Webhook(Buffer.from(secret), { format: 'raw' }).verify(delivered.body, {
        'webhook-id': String(delivered.headers['webhook-id']),
        'webhook-timestamp': String(delivered.headers['webhook-timestamp']),
        'webhook-signature': String(delivered.headers['webhook-signature']),
      });
      expect(message).toMatchObject({ type: 'webhook.test', data: { webhook_id: id } });
    } finally {
      await receiver.close();
    }

    child.kill('SIGTERM');
    const [code, signal] = await exited;
    expect({ code, signal }, output()).toEqual({ code: 0, signal: null });
  }, 60_000);
});
