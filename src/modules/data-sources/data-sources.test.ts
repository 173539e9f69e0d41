import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CronExpressionParser } from 'cron-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from '../../../test/helpers/app.ts';
import { loadConfig } from '../../config.ts';
import { SYSTEM_ACTOR } from '../../db/unit-of-work.ts';
import type { EventOf } from '../../events/types.ts';
import { BullmqJobRunner } from '../../jobs/bullmq.ts';
import { createLogger } from '../../logger.ts';
import { DATA_SOURCE_DEFAULTS, DATA_SOURCE_KINDS } from './defaults.ts';
import type { DataSourceKind } from '../../generated/prisma/enums.ts';
import { ensureDataSources, updateDataSource } from './service.ts';
import { SyncInProgressError, syncDataSource } from './sync.ts';
import { createServices } from '../../composition.ts';
import type { Services } from '../../services.ts';
import { SourceUnavailableError } from '../../sources/location.ts';
import { jobDefinitions } from '../../../workers/definitions.ts';
import { createTestDatabase } from '../../../test/helpers/database.ts';
import { referenceData } from '../../../test/helpers/reference-data.ts';
import { wiring } from '../../../workers/wiring.ts';

const SIGMA_RULES = referenceData('sigma', 'rules');
const SIGMA_RULE_COUNT = 200;
const SIGMA_TECHNIQUE_COUNT = 144;

const nextOccurrence = (pattern: string) => CronExpressionParser.parse(pattern, { tz: 'UTC' }).next().toISOString();

// Every source but Sigma points nowhere: nothing here may reach the internet.
const app = useTestApp({
  SIGMA_SOURCE: SIGMA_RULES,
  ATTACK_ENTERPRISE_SOURCE: '/nonexistent/enterprise-attack.json',
  D3FEND_SOURCE: '/nonexistent/d3fend',
  NIST_800_53_SOURCE: '/nonexistent/nist.json',
  CSA_CCM_SOURCE: '/nonexistent/csa.json',
  ATOMIC_RED_TEAM_SOURCE: '/nonexistent/atomics',
});
let admin: string;

beforeAll(async () => {
  admin = await app.tokenFor('admin');
});

const list = async (token = admin) => {
  const response = await app.api('GET', '/data-sources', { token });
  expect(response.status).toBe(200);
  return response.body as any[];
};
const sourceOf = async (kind: string) => (await list()).find((source) => source.kind === kind);

/** Polls until the source's background sync has finished (the job runs on the test app's inline worker). */
async function settled(kind: string) {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const source = await sourceOf(kind);
    if (source.status === 'succeeded' || source.status === 'failed') return source;
    if (Date.now() > deadline) throw new Error(`sync of ${kind} still ${source.status}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

const schedulerJobs = async () => {
  const response = await app.api('GET', '/system/scheduler-status', { token: admin });
  expect(response.status).toBe(200);
  return response.body.jobs as { id: string; name: string; next_run_time: string | null }[];
};

describe('data sources', () => {
  it('are seeded at start, one per kind, with their location, a default schedule and the next run time', async () => {
    const sources = await list(await app.tokenFor('viewer'));
    expect(sources.map((source) => source.kind).sort()).toEqual([...DATA_SOURCE_KINDS].sort());
    const sigma = sources.find((source) => source.kind === 'sigma');
    expect(sigma).toMatchObject({
      name: 'Sigma rules',
      location: SIGMA_RULES,
      enabled: true,
      schedule: DATA_SOURCE_DEFAULTS.sigma.schedule,
      status: 'never_run',
      error: null,
      last_run_at: null,
      last_success_at: null,
      item_counts: {},
      last_run: null,
      next_run_time: nextOccurrence(DATA_SOURCE_DEFAULTS.sigma.schedule),
    });
    const attack = sources.find((source) => source.kind === 'attack_enterprise');
    expect(attack).toMatchObject({ name: 'ATT&CK Enterprise', schedule: '0 3 * * 0', location: '/nonexistent/enterprise-attack.json' });
    // Each source shows the licence and attribution notice of its data.
    expect(sigma.licence).toMatchObject({ name: 'DRL-1.1', url: 'https://github.com/SigmaHQ/Detection-Rule-License' });
    expect(attack.licence.notice).toContain('The MITRE Corporation');
    for (const source of sources) expect(source.licence).toEqual(DATA_SOURCE_DEFAULTS[source.kind as DataSourceKind].licence);
    // The first scheduled run is the next cron occurrence, never "now".
    for (const source of sources) expect(new Date(source.next_run_time).getTime()).toBeGreaterThan(Date.now());
  });

  it('seeding again keeps a location an admin set; other rows follow a changed *_SOURCE variable', async () => {
    const d3fend = await app.api('PATCH', '/data-sources/d3fend', { token: admin, body: { location: '/srv/mirror/d3fend' } });
    expect(d3fend.status).toBe(200);
    // Changing only the schedule does not pin the location.
    expect((await app.api('PATCH', '/data-sources/nist_800_53', { token: admin, body: { schedule: '0 2 * * 0' } })).status).toBe(200);
    const reconfigured = {
      ...app.services,
      config: { ...app.services.config, D3FEND_SOURCE: '/elsewhere/d3fend', NIST_800_53_SOURCE: '/srv/mirror/nist.json' },
    } as Services;
    await ensureDataSources(reconfigured);
    await ensureDataSources(reconfigured);
    expect(await app.services.prisma.dataSource.count()).toBe(DATA_SOURCE_KINDS.length);
    expect((await sourceOf('d3fend')).location).toBe('/srv/mirror/d3fend');
    expect(await sourceOf('nist_800_53')).toMatchObject({ location: '/srv/mirror/nist.json', schedule: '0 2 * * 0' });
    const configured = await app.services.prisma.auditLog.findMany({ where: { action: 'configure_data_source' } });
    expect(configured).toHaveLength(1);
    expect(configured[0]).toMatchObject({
      username: 'system',
      details: { kind: 'nist_800_53', location: '/srv/mirror/nist.json', from: 'NIST_800_53_SOURCE' },
    });
  });

  it('PATCH refuses locations, schedules and values that cannot work, naming the field', async () => {
    const bad: [Record<string, unknown>, string, RegExp][] = [
      [{ location: 'mirror/sigma' }, 'location', /absolute path/],
      [{ location: 'ftp://mirror.example/sigma.zip' }, 'location', /http\(s\) URL/],
      [{ location: 'https://user:secret@mirror.example/sigma.zip' }, 'location', /credentials/],
      [{ location: '   ' }, 'location', /empty/],
      [{ schedule: 'every sunday' }, 'schedule', /5 fields/],
      [{ schedule: '0 3 * * 0 2030' }, 'schedule', /5 fields/],
      [{ schedule: '61 3 * * *' }, 'schedule', /not a valid cron/],
      [{ schedule: '*/5 * * * *' }, 'schedule', /once an hour/],
      [{ enabled: 'yes' }, 'enabled', /./],
    ];
    for (const [body, field, detail] of bad) {
      const response = await app.api('PATCH', '/data-sources/sigma', { token: admin, body });
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect(response.body.code).toBe('VALIDATION_ERROR');
      expect(response.body.field).toBe(field);
      expect(response.body.detail).toMatch(detail);
    }
    expect((await app.api('PATCH', '/data-sources/not-a-kind', { token: admin, body: {} })).status).toBe(404);
    expect((await app.api('PATCH', `/data-sources/${crypto.randomUUID()}`, { token: admin, body: {} })).status).toBe(404);
    expect((await sourceOf('sigma')).location).toBe(SIGMA_RULES);
  });

  it('only admins change or sync sources; every signed-in user lists them', async () => {
    for (const role of ['viewer', 'red_tech', 'blue_lead'] as const) {
      const token = await app.tokenFor(role);
      expect((await app.api('GET', '/data-sources', { token })).status).toBe(200);
      expect((await app.api('PATCH', '/data-sources/sigma', { token, body: { enabled: false } })).status).toBe(403);
      expect((await app.api('POST', '/data-sources/sigma/sync', { token })).status).toBe(403);
    }
    expect((await app.api('GET', '/data-sources')).status).toBe(401);
    expect((await sourceOf('sigma')).enabled).toBe(true);
  });

  it('a manual sync runs as a job: 202 with the queued source and run, then the run records the import', async () => {
    const events: EventOf<'data_source.synced'>[] = [];
    const stop = app.services.bus.on('data_source.synced', (event) => void events.push(event));
    const queued = await app.api('POST', '/data-sources/sigma/sync', { token: admin });
    expect(queued.status).toBe(202);
    expect(queued.body.data_source).toMatchObject({ kind: 'sigma', status: 'queued' });
    expect(queued.body.run).toMatchObject({ status: 'queued', trigger: 'manual', finished_at: null });
    expect(queued.body.job_id).toEqual(expect.any(String));

    const sigma = await settled('sigma');
    stop();
    expect(sigma).toMatchObject({
      status: 'succeeded',
      error: null,
      item_counts: { rules: SIGMA_RULE_COUNT, techniques: SIGMA_TECHNIQUE_COUNT },
      last_run: { id: queued.body.run.id, status: 'succeeded', trigger: 'manual', error: null },
    });
    expect(sigma.last_run.changes.rules).toMatchObject({ new: SIGMA_RULE_COUNT });
    expect(new Date(sigma.last_success_at).getTime()).toBeGreaterThanOrEqual(new Date(sigma.last_run_at).getTime());
    expect(await app.services.prisma.detectionRule.count({ where: { source: 'sigma', isActive: true } })).toBe(SIGMA_RULE_COUNT);

    const adminUser = await app.services.prisma.dataSourceRun.findUniqueOrThrow({ where: { id: queued.body.run.id } });
    const audit = await app.services.prisma.auditLog.findFirstOrThrow({ where: { action: 'sync_data_source', entityId: sigma.id } });
    expect(audit).toMatchObject({
      userId: adminUser.triggeredById,
      details: { kind: 'sigma', trigger: 'manual', status: 'succeeded', run_id: queued.body.run.id },
    });
    expect(events.map((event) => event.payload)).toEqual([
      expect.objectContaining({ dataSourceId: sigma.id, kind: 'sigma', status: 'succeeded' }),
    ]);
  });

  it('a failing sync records the error on the source and its run, keeps the previous data, and rethrows', async () => {
    const before = await sourceOf('sigma');
    expect(
      (await app.api('PATCH', '/data-sources/sigma', { token: admin, body: { location: '/nonexistent/sigma-rules.zip' } })).status,
    ).toBe(200);
    expect((await app.api('POST', '/data-sources/sigma/sync', { token: admin })).status).toBe(202);
    const failed = await settled('sigma');
    expect(failed).toMatchObject({
      status: 'failed',
      error: expect.stringContaining('/nonexistent/sigma-rules.zip'),
      item_counts: before.item_counts,
      last_success_at: before.last_success_at,
      last_run: { status: 'failed', error: expect.stringContaining('Could not read') },
    });
    expect(await app.services.prisma.detectionRule.count({ where: { source: 'sigma', isActive: true } })).toBe(SIGMA_RULE_COUNT);

    // The synchronous path (used by system endpoints) records the same and hands the error to its caller.
    await expect(syncDataSource(app.services, 'sigma', SYSTEM_ACTOR, 'api')).rejects.toBeInstanceOf(SourceUnavailableError);
    const runs = await app.graphql(
      'query { dataSourceRuns(id: "sigma") { total items { status trigger error triggeredById } } }',
      {},
      await app.tokenFor('viewer'),
    );
    expect(runs.data.dataSourceRuns.total).toBe(3);
    expect(runs.data.dataSourceRuns.items.map((run: any) => [run.trigger, run.status])).toEqual([
      ['api', 'failed'],
      ['manual', 'failed'],
      ['manual', 'succeeded'],
    ]);
    expect(runs.data.dataSourceRuns.items[0].triggeredById).toBeNull();

    expect((await app.api('PATCH', '/data-sources/sigma', { token: admin, body: { location: SIGMA_RULES } })).status).toBe(200);
  });

  it('refuses a second sync of the same source while one is queued or running (409 SYNC_IN_PROGRESS)', async () => {
    const results = await Promise.allSettled([
      syncDataSource(app.services, 'sigma', SYSTEM_ACTOR, 'api'),
      syncDataSource(app.services, 'sigma', SYSTEM_ACTOR, 'api'),
    ]);
    expect(results.map((result) => result.status).sort()).toEqual(['fulfilled', 'rejected']);
    const refused = results.find((result) => result.status === 'rejected') as PromiseRejectedResult;
    expect(refused.reason).toBeInstanceOf(SyncInProgressError);
    const second = results.find((result) => result.status === 'fulfilled') as PromiseFulfilledResult<any>;
    expect(second.value.changes.rules).toMatchObject({ new: 0, updated: 0 });

    const sigma = await sourceOf('sigma');
    await app.services.prisma.dataSource.update({ where: { id: sigma.id }, data: { status: 'running' } });
    const busy = await app.api('POST', '/data-sources/sigma/sync', { token: admin });
    expect(busy.status).toBe(409);
    expect(busy.body).toMatchObject({ code: 'SYNC_IN_PROGRESS', detail: expect.stringContaining('Sigma rules') });
    const viaGraphql = await app.graphql(`mutation { syncDataSource(id: "${sigma.id}") { jobId } }`, {}, admin);
    expect(viaGraphql.errors?.[0].extensions.code).toBe('SYNC_IN_PROGRESS');

    // A sync left "running" by a process that died long ago does not block the source for ever.
    await app.services.prisma.$executeRaw`UPDATE data_sources SET updated_at = now() - interval '2 hours' WHERE id = ${sigma.id}::uuid`;
    expect((await app.api('POST', '/data-sources/sigma/sync', { token: admin })).status).toBe(202);
    expect(await settled('sigma')).toMatchObject({ status: 'succeeded' });
  });

  it('GraphQL reads one source by id or kind, with its last run', async () => {
    const sigma = await sourceOf('sigma');
    const byId = await app.graphql(
      'query ($id: String!) { dataSource(id: $id) { kind status nextRunTime lastRun { status } } }',
      { id: sigma.id },
      await app.tokenFor('red_lead'),
    );
    expect(byId.data.dataSource).toEqual({
      kind: 'sigma',
      status: 'succeeded',
      nextRunTime: sigma.next_run_time,
      lastRun: { status: 'succeeded' },
    });
    const unknown = await app.graphql('query { dataSource(id: "nope") { kind } }', {}, admin);
    expect(unknown.errors?.[0].extensions.code).toBe('NOT_FOUND');
  });
});

describe('data-source schedules (BullMQ)', () => {
  it('the scheduler status lists one entry per scheduled source next to the static jobs', async () => {
    const jobs = await schedulerJobs();
    expect(jobs.map((job) => job.id)).toEqual(
      expect.arrayContaining(['purge-revoked-tokens', ...DATA_SOURCE_KINDS.map((kind) => `data-source:${kind}`)]),
    );
    expect(jobs.find((job) => job.id === 'data-source:attack_enterprise')).toEqual({
      id: 'data-source:attack_enterprise',
      name: 'Sync ATT&CK Enterprise',
      next_run_time: nextOccurrence('0 3 * * 0'),
    });
  });

  it('a schedule change, a cleared schedule and a disabled source reach the scheduler at once', async () => {
    const changed = await app.api('PATCH', '/data-sources/atomic_red_team', { token: admin, body: { schedule: '15 6 * * 1' } });
    expect(changed.status).toBe(200);
    expect(changed.body).toMatchObject({ schedule: '15 6 * * 1', next_run_time: nextOccurrence('15 6 * * 1') });
    expect((await schedulerJobs()).find((job) => job.id === 'data-source:atomic_red_team')?.next_run_time).toBe(
      nextOccurrence('15 6 * * 1'),
    );

    const cleared = await app.api('PATCH', '/data-sources/atomic_red_team', { token: admin, body: { schedule: null } });
    expect(cleared.body).toMatchObject({ schedule: null, next_run_time: null });
    const disabled = await app.api('PATCH', '/data-sources/csa_ccm', { token: admin, body: { enabled: false } });
    expect(disabled.body).toMatchObject({ enabled: false, schedule: DATA_SOURCE_DEFAULTS.csa_ccm.schedule, next_run_time: null });
    const ids = (await schedulerJobs()).map((job) => job.id);
    expect(ids).not.toContain('data-source:atomic_red_team');
    expect(ids).not.toContain('data-source:csa_ccm');

    const audit = await app.services.prisma.auditLog.findFirstOrThrow({
      where: { action: 'update_data_source' },
      orderBy: { timestamp: 'desc' },
    });
    expect(audit.details).toMatchObject({ kind: 'csa_ccm', changes: { enabled: false } });

    const enabled = await app.api('PATCH', '/data-sources/csa_ccm', { token: admin, body: { enabled: true } });
    expect(enabled.body.next_run_time).toBe(nextOccurrence(DATA_SOURCE_DEFAULTS.csa_ccm.schedule));
  });

  it('at start, schedules left in Redis by an earlier configuration are dropped', async () => {
    const { services } = app;
    await services.jobs.upsertSchedule(
      'data-source:atomic_red_team',
      'sync-data-source',
      { pattern: '0 1 * * *', tz: 'UTC' },
      { kind: 'atomic_red_team' },
    );
    expect((await schedulerJobs()).map((job) => job.id)).toContain('data-source:atomic_red_team');
    const definitions = new Map(jobDefinitions.map((definition) => [definition.name, definition]));
    const another = new BullmqJobRunner(definitions, () => services, services.log, {
      connection: services.redis!,
      prefix: services.config.REDIS_PREFIX,
      process: false,
    });
    await another.start();
    await another.close();
    const ids = (await schedulerJobs()).map((job) => job.id);
    expect(ids).not.toContain('data-source:atomic_red_team');
    expect(ids).toContain('data-source:sigma');
  });
});

describe('data-source schedules (in-process runner, no Redis)', () => {
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  let dataDir: string;
  const opened: Services[] = [];

  async function embeddedServices(env: Record<string, string> = {}) {
    const config = loadConfig({
      NODE_ENV: 'test',
      DATABASE_URL: database.url,
      DATA_DIR: dataDir,
      JWT_SECRET: randomBytes(32).toString('hex'),
      LOG_LEVEL: 'silent',
      ...env,
    });
    const services = await createServices(config, createLogger('silent'), 'api', wiring);
    opened.push(services);
    return services;
  }

  beforeAll(async () => {
    database = await createTestDatabase();
    dataDir = await mkdtemp(join(tmpdir(), 'violet-dsrc-'));
  });
  afterAll(async () => {
    for (const services of opened) await services.close();
    await database?.drop();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  it('start seeds the sources and arms one timer per scheduled source; changes re-arm or remove it', async () => {
    const services = await embeddedServices({ SIGMA_SOURCE: SIGMA_RULES });
    expect(services.jobs.kind).toBe('in-process');
    await services.jobs.start();
    const status = await services.jobs.status();
    expect(status.running).toBe(true);
    expect(status.jobs.find((job) => job.id === 'purge-revoked-tokens')?.next_run_time).toEqual(expect.any(String));
    expect(status.jobs.find((job) => job.id === 'data-source:sigma')).toEqual({
      id: 'data-source:sigma',
      name: 'Sync Sigma rules',
      next_run_time: nextOccurrence(DATA_SOURCE_DEFAULTS.sigma.schedule),
    });
    expect(status.jobs.filter((job) => job.id.startsWith('data-source:'))).toHaveLength(DATA_SOURCE_KINDS.length);

    await updateDataSource(services, SYSTEM_ACTOR, 'sigma', { schedule: '0 22 1 * *' });
    const monthly = (await services.jobs.status()).jobs.find((job) => job.id === 'data-source:sigma');
    expect(monthly?.next_run_time).toBe(nextOccurrence('0 22 1 * *'));
    await updateDataSource(services, SYSTEM_ACTOR, 'sigma', { enabled: false });
    expect((await services.jobs.status()).jobs.map((job) => job.id)).not.toContain('data-source:sigma');
  });

  it('SOURCE_SYNC_SCHEDULES=false registers no data-source schedule, even after a change', async () => {
    const services = await embeddedServices({ SOURCE_SYNC_SCHEDULES: 'false' });
    await services.jobs.start();
    const scheduled = async () => (await services.jobs.status()).jobs.map((job) => job.id);
    expect(await scheduled()).toContain('purge-revoked-tokens');
    expect((await scheduled()).filter((id) => id.startsWith('data-source:'))).toEqual([]);
    await updateDataSource(services, SYSTEM_ACTOR, 'sigma', { enabled: true, schedule: '0 5 * * *' });
    expect((await scheduled()).filter((id) => id.startsWith('data-source:'))).toEqual([]);
    expect((await services.prisma.dataSource.findUniqueOrThrow({ where: { kind: 'sigma' } })).schedule).toBe('0 5 * * *');
  });
});
