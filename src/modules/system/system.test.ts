import { CronExpressionParser } from 'cron-parser';
import { rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../../test/helpers/app.ts';

const app = useTestApp();

describe('system', () => {
  it('health is public and tells anonymous callers status words only', async () => {
    const health = await app.api('GET', '/system/health');
    expect(health.status).toBe(200);
    expect(health.body).toEqual({
      status: 'ok',
      database: { status: 'ok' },
      redis: { status: 'ok' },
      storage: { status: 'ok' },
      workers: { status: 'ok' },
    });
  });

  it('health tells admins the database engine, storage driver and worker count', async () => {
    const health = await app.api('GET', '/system/health', { token: await app.tokenFor('admin') });
    expect(health.body).toEqual({
      status: 'ok',
      database: { status: 'ok', engine: 'postgresql' },
      redis: { status: 'ok' },
      storage: { status: 'ok', driver: 'disk' },
      workers: { status: 'ok', count: 1 },
    });
    const viewer = await app.api('GET', '/system/health', { token: await app.tokenFor('viewer') });
    expect(viewer.body.database).toEqual({ status: 'ok' });
  });

  it('anonymous callers share one recent probe of the dependencies; an admin gets a probe of its own', async () => {
    const objects = app.services.storage.objects;
    const check = objects.check.bind(objects);
    let probes = 0;
    objects.check = () => {
      probes += 1;
      return check();
    };
    try {
      await app.api('GET', '/system/health', { token: await app.tokenFor('admin') });
      const anonymous = await Promise.all(Array.from({ length: 20 }, () => app.api('GET', '/system/health')));
      expect(anonymous.every((health) => health.status === 200)).toBe(true);
      expect(probes).toBe(1);
      await app.api('GET', '/system/health', { token: await app.tokenFor('admin') });
      expect(probes).toBe(2);
    } finally {
      objects.check = check;
    }
  });

  it('PostgreSQL sessions run with JIT compilation off', async () => {
    const rows = await Promise.all(
      [1, 2, 3].map(() => app.services.prisma.$queryRaw<{ jit: string }[]>`SELECT current_setting('jit') AS jit`),
    );
    expect(rows.map(([row]) => row.jit)).toEqual(['off', 'off', 'off']);
  });

  it('storage reports an error, without degrading the service, when DATA_DIR/evidence cannot be used', async () => {
    const evidenceDir = join(app.services.config.DATA_DIR, 'evidence');
    await rm(evidenceDir, { recursive: true, force: true });
    await writeFile(evidenceDir, 'not a directory');
    try {
      const admin = { token: await app.tokenFor('admin') };
      const health = await app.api('GET', '/system/health', admin);
      expect(health).toMatchObject({ status: 200, body: { status: 'ok', storage: { status: 'error', driver: 'disk' } } });
    } finally {
      await rm(evidenceDir);
    }
    expect((await app.api('GET', '/system/health', { token: await app.tokenFor('admin') })).body.storage).toEqual({
      status: 'ok',
      driver: 'disk',
    });
  });

  it('the scheduler status lists every recurring job with its next run time', async () => {
    const status = await app.api('GET', '/system/scheduler-status', { token: await app.tokenFor('admin') });
    expect(status.status).toBe(200);
    expect(status.body.running).toBe(true);
    const purge = status.body.jobs.find((job: { id: string }) => job.id === 'purge-revoked-tokens');
    expect(purge).toMatchObject({ name: expect.any(String) });
    expect(new Date(purge.next_run_time).getTime()).toBeGreaterThan(Date.now());
  });

  it('the scheduler status lists one sync per scheduled data source, first run at the next cron occurrence', async () => {
    const status = await app.api('GET', '/system/scheduler-status', { token: await app.tokenFor('admin') });
    const sources = (await app.api('GET', '/data-sources', { token: await app.tokenFor('admin') })).body as {
      kind: string;
      name: string;
      schedule: string;
    }[];
    expect(sources).toHaveLength(6);
    for (const source of sources) {
      const job = status.body.jobs.find((entry: { id: string }) => entry.id === `data-source:${source.kind}`);
      expect(job).toEqual({
        id: `data-source:${source.kind}`,
        name: `Sync ${source.name}`,
        next_run_time: CronExpressionParser.parse(source.schedule, { tz: 'UTC' }).next().toISOString(),
      });
    }
  });

  it('only admins see the scheduler', async () => {
    expect((await app.api('GET', '/system/scheduler-status', { token: await app.tokenFor('blue_lead') })).status).toBe(403);
    expect((await app.api('GET', '/system/scheduler-status')).status).toBe(401);
  });
});
