import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startServiceProcess, type ServiceProcess } from './helpers/service-process.ts';

let dataDir: string | undefined;
const started: ServiceProcess[] = [];
afterAll(async () => {
  for (const service of started) if (service.child.exitCode === null) service.child.kill('SIGKILL');
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

/** The embedded mode: no DATABASE_URL, no REDIS_URL; PGlite in this process on DATA_DIR. */
async function start(dir: string) {
  const service = await startServiceProcess({ DATA_DIR: dir, JWT_SECRET: 'embedded recovery test secret, 32+ characters long' });
  started.push(service);
  return service;
}

const post = (service: ServiceProcess, token: string, body: unknown) =>
  fetch(`${service.base}/api/v1/techniques`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: JSON.stringify(body),
  });

describe('embedded database after a SIGKILL', () => {
  it('restarts on the same DATA_DIR with every committed write, refusing a second process while one runs', async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'violet-embedded-'));
    const phase = (() => {
      let last = Date.now();
      return (name: string) => {
        console.info(`${name}: ${Date.now() - last} ms`);
        last = Date.now();
      };
    })();
    const first = await start(dataDir);
    phase('first start');
    const token = await first.login();
    const lock = JSON.parse(await readFile(join(dataDir, 'violet.lock'), 'utf8'));
    expect(lock).toMatchObject({ pid: first.child.pid, socketDir: expect.stringContaining('violet-pg-') });

    // A second process on the same data directory is refused, naming the one that holds it.
    const [rival] = await Promise.allSettled([start(dataDir)]);
    expect(rival.status).toBe('rejected');
    expect(String((rival as PromiseRejectedResult).reason)).toContain(`is in use by process ${first.child.pid}`);
    phase('second process refused');

    // Writes keep coming when the process is killed: those answered 201 were committed.
    const committed: string[] = [];
    let writing = true;
    const writer = (async () => {
      for (let index = 0; writing; index++) {
        const ttpId = `T9${String(index).padStart(3, '0')}`;
        const response = await post(first, token, { ttp_id: ttpId, name: `Recovery ${index}`, tactic: 'Execution' }).catch(() => null);
        if (!response) return;
        if (response.status === 201) committed.push(ttpId);
      }
    })();
    while (committed.length < 20) await new Promise((resolve) => setTimeout(resolve, 20));
    first.child.kill('SIGKILL');
    await first.exited;
    writing = false;
    await writer;
    phase(`${committed.length} writes, then SIGKILL`);

    const second = await start(dataDir);
    phase('restart after SIGKILL');
    const admin = await second.login();
    const listed = await fetch(`${second.base}/api/v1/techniques?limit=500&search=Recovery`, {
      headers: { authorization: `Bearer ${admin}` },
    });
    expect(listed.status).toBe(200);
    const body = (await listed.json()) as { items?: { ttp_id: string }[] } | { ttp_id: string }[];
    const items = Array.isArray(body) ? body : (body.items ?? []);
    const stored = new Set(items.map((technique) => technique.ttp_id));
    expect(committed.filter((ttpId) => !stored.has(ttpId))).toEqual([]);
    expect(existsSync(lock.socketDir), "the killed process's socket directory is removed at restart").toBe(false);

    second.child.kill('SIGTERM');
    expect((await second.exited)[0], second.output()).toBe(0);
    expect(existsSync(join(dataDir, 'violet.lock')), 'a clean stop releases the lock').toBe(false);
  }, 300_000);
});
