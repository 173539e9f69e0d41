import { randomBytes } from 'node:crypto';
import { request, Agent } from 'node:http';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REDIS_URL } from './helpers/app.ts';
import { createTestDatabase } from './helpers/database.ts';
import { ADMIN_PASSWORD, startServiceProcess, WORKER_ENTRY, type ServiceProcess } from './helpers/service-process.ts';

let database: Awaited<ReturnType<typeof createTestDatabase>>;
let dataDir: string;
const started: ServiceProcess[] = [];

beforeAll(async () => {
  database = await createTestDatabase();
  dataDir = await mkdtemp(join(tmpdir(), 'violet-shutdown-'));
});
afterAll(async () => {
  for (const service of started) if (service.child.exitCode === null) service.child.kill('SIGKILL');
  await database.drop();
  await rm(dataDir, { recursive: true, force: true });
});

const start = async () => {
  const service = await startServiceProcess({ DATABASE_URL: database.url, DATA_DIR: dataDir });
  started.push(service);
  return service;
};

/** A GET on a keep-alive connection that stays open afterwards, as browsers and proxies keep theirs. */
function keepAliveGet(url: string, agent: Agent, headers: Record<string, string> = {}): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    request(url, { agent, headers }, (response) => {
      let body = '';
      response.on('data', (chunk) => (body += chunk));
      response.on('end', () => resolve({ status: response.statusCode!, body }));
    })
      .on('error', reject)
      .end();
  });
}

describe('SIGTERM', () => {
  it('an idle worker exits 0 within a few seconds', async () => {
    const worker = await startServiceProcess(
      { DATABASE_URL: database.url, DATA_DIR: dataDir, REDIS_URL, REDIS_PREFIX: `violet-test-${randomBytes(4).toString('hex')}` },
      WORKER_ENTRY,
      /worker started/,
    );
    started.push(worker);
    const stopping = Date.now();
    worker.child.kill('SIGTERM');
    const [code, signal] = await worker.exited;
    expect({ code, signal }, worker.output()).toEqual({ code: 0, signal: null });
    expect(Date.now() - stopping).toBeLessThan(3_000);
  }, 120_000);

  it('an idle service with an open keep-alive connection exits 0 within a few seconds', async () => {
    const service = await start();
    const agent = new Agent({ keepAlive: true });
    expect((await keepAliveGet(`${service.base}/api/v1/system/health`, agent)).status).toBe(200);
    const stopping = Date.now();
    service.child.kill('SIGTERM');
    const [code, signal] = await service.exited;
    const took = Date.now() - stopping;
    agent.destroy();
    expect({ code, signal }, service.output()).toEqual({ code: 0, signal: null });
    expect(took).toBeLessThan(3_000);
  }, 120_000);

  it('a request in flight when SIGTERM arrives completes, then the service exits 0', async () => {
    const service = await start();
    // A login whose body is still arriving when the signal comes: the request is in flight for certain.
    const form = new URLSearchParams({ username: 'admin', password: ADMIN_PASSWORD }).toString();
    const answer = new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = request(
        `${service.base}/api/v1/auth/login`,
        {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded', 'content-length': String(Buffer.byteLength(form)) },
        },
        (response) => {
          let body = '';
          response.on('data', (chunk) => (body += chunk));
          response.on('end', () => resolve({ status: response.statusCode!, body }));
        },
      );
      req.on('error', reject);
      req.write(form.slice(0, 10));
      setTimeout(() => service.child.kill('SIGTERM'), 300);
      setTimeout(() => req.end(form.slice(10)), 1_300);
    });
    const { status, body } = await answer;
    expect(status, service.output()).toBe(200);
    expect(JSON.parse(body)).toMatchObject({ access_token: expect.any(String) });
    const [code] = await service.exited;
    expect(code, service.output()).toBe(0);
  }, 120_000);
});
