import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SYSTEM_ACTOR } from '../../db/unit-of-work.ts';
import type { DataSourceKind } from '../../generated/prisma/enums.ts';
import { syncDataSource } from './sync.ts';
import { startTestApp, type TestApp } from '../../../test/helpers/app.ts';
import { setSourceLocation } from '../../../test/helpers/data-sources.ts';
import { serveFiles, type FileServer } from '../../../test/helpers/file-server.ts';

/** A stand-in for /etc/shadow: what must never show up in a recorded error. */
const SECRET = 'root:$6$s3cr3tSalt$Qm9vSGFzaA:19000:0:99999:7:::\ndaemon:*:19000:0:99999:7:::\n';
const SECRET_MARKERS = ['s3cr3t', 'root:', 'daemon', 'Qm9v'];

let app: TestApp;
let admin: string;
let viewer: string;
let dir: string;
let internal: FileServer;
const internalRequests: string[] = [];

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'violet-source-errors-'));
  const secretFile = join(dir, 'shadow');
  await writeFile(secretFile, SECRET);
  internal = await serveFiles((path) => {
    internalRequests.push(path);
    return SECRET;
  });
  // No SOURCE_ALLOWED_HOSTS: the "internal" server on 127.0.0.1 must stay out of reach.
  app = await startTestApp({
    SOURCE_SYNC_SCHEDULES: 'false',
    ATTACK_ENTERPRISE_SOURCE: secretFile,
    NIST_800_53_SOURCE: secretFile,
    CSA_CCM_SOURCE: `${internal.url}/csa.json`,
    D3FEND_SOURCE: secretFile,
    SIGMA_SOURCE: secretFile,
    ATOMIC_RED_TEAM_SOURCE: join(dir, 'missing-atomics'),
  });
  [admin, viewer] = await Promise.all([app.tokenFor('admin'), app.tokenFor('viewer')]);
  for (const kind of ['attack_enterprise', 'nist_800_53', 'csa_ccm', 'd3fend', 'sigma', 'atomic_red_team'] as DataSourceKind[]) {
    await syncDataSource(app.services, kind, SYSTEM_ACTOR, 'api').catch(() => undefined);
  }
});
afterAll(async () => {
  await app?.close();
  await internal?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

const sources = async (token: string) => {
  const response = await app.api('GET', '/data-sources', { token });
  expect(response.status).toBe(200);
  return Object.fromEntries((response.body as any[]).map((source) => [source.kind, source])) as Record<string, any>;
};

const expectNoSecret = (text: unknown) => {
  for (const marker of SECRET_MARKERS) expect(JSON.stringify(text)).not.toContain(marker);
};

describe('data-source errors', () => {
  it('admins read a short reason in our own words: never file contents, parser excerpts or errno codes', async () => {
    const byKind = await sources(admin);
    expect(Object.fromEntries(Object.entries(byKind).map(([kind, source]) => [kind, [source.status, source.error]]))).toEqual({
      attack_enterprise: ['failed', expect.stringMatching(/: not a STIX bundle \(not JSON\)$/)],
      nist_800_53: ['failed', expect.stringMatching(/: not a JSON document$/)],
      csa_ccm: ['failed', `Could not read ${internal.url}/csa.json: refused (127.0.0.1 is not a public address)`],
      d3fend: ['failed', expect.stringMatching(/: not a D3FEND CSV: missing column /)],
      sigma: ['failed', expect.stringMatching(/: not a readable zip archive of rules$/)],
      atomic_red_team: ['failed', expect.stringMatching(/: not a directory or an http\(s\) URL$/)],
    });
    expect(byKind.sigma.last_run).toMatchObject({ status: 'failed', error: byKind.sigma.error });
    expectNoSecret(byKind);
    expect(JSON.stringify(byKind)).not.toMatch(/ENOENT|EACCES|Unexpected token|position \d/);
  });

  it('a refused internal URL is never requested', () => {
    expect(internalRequests).toEqual([]);
  });

  it('a missing file reads "file not found"', async () => {
    await setSourceLocation(app, 'd3fend', join(dir, 'nothing-here.csv'));
    await expect(syncDataSource(app.services, 'd3fend', SYSTEM_ACTOR, 'api')).rejects.toMatchObject({
      code: 'SOURCE_UNAVAILABLE',
      reason: 'file not found',
    });
    expect((await sources(admin)).d3fend.error).toBe(`Could not read ${join(dir, 'nothing-here.csv')}: file not found`);
  });

  it('every other role sees only that a sync failed, over REST and GraphQL', async () => {
    const byKind = await sources(viewer);
    for (const source of Object.values(byKind)) {
      expect(source).toMatchObject({ status: 'failed', error: 'failed', last_run: { status: 'failed', error: 'failed' } });
    }
    for (const role of ['red_lead', 'blue_tech'] as const) {
      const result = await app.graphql(
        'query { dataSources { kind error lastRun { error } } dataSourceRuns(id: "attack_enterprise") { items { error } } }',
        {},
        await app.tokenFor(role),
      );
      expect(result.errors).toBeUndefined();
      expect(new Set(result.data.dataSources.flatMap((source: any) => [source.error, source.lastRun.error]))).toEqual(new Set(['failed']));
      expect(result.data.dataSourceRuns.items).toEqual([{ error: 'failed' }]);
    }
  });

  it('the audit log records the same sanitised reason', async () => {
    const entries = await app.services.prisma.auditLog.findMany({ where: { action: 'sync_data_source' } });
    expect(entries.length).toBeGreaterThanOrEqual(6);
    for (const entry of entries) expect((entry.details as { error?: string }).error).toMatch(/^Could not read .+: /);
    expectNoSecret(entries);
  });

  it('the synchronous sync endpoint answers the same reason', async () => {
    const response = await app.api('POST', '/system/sync-ttp', { token: admin });
    expect(response.status).toBe(502);
    expect(response.body).toMatchObject({ code: 'SOURCE_UNAVAILABLE', detail: expect.stringMatching(/: not a STIX bundle \(not JSON\)$/) });
    expectNoSecret(response.body);
  });
});
