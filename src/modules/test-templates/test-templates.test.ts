import { randomUUID } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from '../../../test/helpers/app.ts';
import { parse as parseYaml } from 'yaml';
import { SYSTEM_ACTOR } from '../../db/unit-of-work.ts';
import { importAtomicRedTeam } from './importer.ts';
import { FILE_SERVER_ENV, serveFiles, type FileServer } from '../../../test/helpers/file-server.ts';
import { referenceData } from '../../../test/helpers/reference-data.ts';
import { countQueries } from '../../../test/helpers/queries.ts';

const DATA = referenceData('atomic-red-team');
const ATOMICS = join(DATA, 'atomics');
const GSECDUMP = '96345bfc-8ae7-4b6a-80b7-223200f24ef9';
const NPPSPY = '9e2173c0-ba26-4cdf-b0ed-8c54b27e3ad6';

/** What the shared files hold, counted without the importer: GUID lines per technique file, platforms by YAML. */
const upstream = (() => {
  const techniques = readdirSync(ATOMICS).filter((name) => /^T\d{4}(\.\d{3})?$/.test(name));
  const guidsByTechnique = new Map<string, string[]>();
  const platformCounts = new Map<string, number>();
  for (const ttpId of techniques) {
    const source = readFileSync(join(ATOMICS, ttpId, `${ttpId}.yaml`), 'utf8');
    guidsByTechnique.set(
      ttpId,
      [...source.matchAll(/^\s*auto_generated_guid:\s*([0-9a-f-]{36})\s*$/gm)].map((match) => match[1]),
    );
    for (const test of parseYaml(source).atomic_tests) {
      for (const platform of test.supported_platforms) platformCounts.set(platform, (platformCounts.get(platform) ?? 0) + 1);
    }
  }
  const guids = [...guidsByTechnique.values()].flat();
  return { techniques, guidsByTechnique, guids, platformCounts };
})();

/** A local mirror of the upstream `atomics/` layout, with per-path overrides standing for upstream edits. */
const overrides = new Map<string, string | null>();
let mirror: FileServer;
let mirrorUrl: string;

function mirrored(path: string): string | null {
  const override = overrides.get(path);
  if (override !== undefined) return override;
  const file =
    path === '/atomics/Indexes/Indexes-CSV/index.csv'
      ? join(DATA, 'index.csv')
      : /^\/atomics\/(T[\d.]+)\/\1\.yaml$/.test(path)
        ? join(DATA, path)
        : null;
  if (!file) return null;
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return null;
  }
}

async function startMirror() {
  mirror = await serveFiles(mirrored, { contentType: 'text/plain' });
  mirrorUrl = `${mirror.url}/atomics`;
}

const app = useTestApp(FILE_SERVER_ENV);
const runImport = (location: string) =>
  importAtomicRedTeam({ services: app.services, location, actor: SYSTEM_ACTOR, log: app.services.log });
const templateByGuid = (guid: string) =>
  app.services.prisma.testTemplate.findUniqueOrThrow({ where: { source_externalId: { source: 'atomic_red_team', externalId: guid } } });
const t1003Yaml = () => readFileSync(join(ATOMICS, 'T1003', 'T1003.yaml'), 'utf8');

beforeAll(async () => {
  await startMirror();
});
afterAll(async () => {
  await mirror.close();
});

describe('Atomic Red Team import', () => {
  it('the shared files hold 1,790 atomic tests over 333 techniques (counted independently)', () => {
    expect(upstream.techniques).toHaveLength(333);
    expect(upstream.guids).toHaveLength(1790);
    expect(new Set(upstream.guids).size).toBe(1790);
  });

  it('imports one template per atomic test from a local atomics folder', async () => {
    const report = await runImport(ATOMICS);
    expect(report.counts).toEqual({ templates: upstream.guids.length, techniques: upstream.techniques.length });
    expect(report.changes.templates).toEqual({ new: 1790, updated: 0, unchanged: 0, deactivated: [], skipped: 0 });
    const prisma = app.services.prisma;
    expect(await prisma.testTemplate.count({ where: { source: 'atomic_red_team', isActive: true } })).toBe(1790);
    const perTechnique = await prisma.testTemplate.groupBy({
      by: ['ttpTechniqueId'],
      where: { source: 'atomic_red_team' },
      _count: { _all: true },
    });
    expect(perTechnique).toHaveLength(333);
    expect(Object.fromEntries(perTechnique.map((row) => [row.ttpTechniqueId, row._count._all]))).toEqual(
      Object.fromEntries([...upstream.guidsByTechnique].map(([ttpId, guids]) => [ttpId, guids.length])),
    );

    const gsecdump = await templateByGuid(GSECDUMP);
    expect(gsecdump).toMatchObject({
      name: 'Gsecdump',
      ttpTechniqueId: 'T1003',
      platform: 'windows',
      platforms: ['windows'],
      executor: 'command_prompt',
      toolUsed: 'command_prompt',
      procedure: '"#{gsecdump_exe}" -a',
      cleanupCommand: null,
      elevationRequired: true,
      severity: 'medium',
      isActive: true,
      suggestedRemediation: '',
      createdById: null,
    });
    expect(gsecdump.description).toMatch(/^Dump credentials from memory using Gsecdump\./);
    expect(gsecdump.inputArguments).toMatchObject({
      gsecdump_exe: {
        type: 'path',
        description: 'Path to the Gsecdump executable',
        default: 'PathToAtomicsFolder\\..\\ExternalPayloads\\gsecdump.exe',
      },
    });
    const nppspy = await templateByGuid(NPPSPY);
    expect(nppspy.cleanupCommand).toMatch(/^\$cleanupPath = Get-ItemProperty/);
    expect(nppspy.executor).toBe('powershell');
  });

  it('manual atomics keep their steps as the procedure; multi-platform atomics keep every platform', async () => {
    const manual = await app.services.prisma.testTemplate.findMany({ where: { source: 'atomic_red_team', executor: 'manual' } });
    expect(manual).toHaveLength(15);
    expect(manual.every((template) => template.procedure.length > 0)).toBe(true);
    const linuxAndMac = await app.services.prisma.testTemplate.count({ where: { platforms: { hasEvery: ['linux', 'macos'] } } });
    expect(linuxAndMac).toBeGreaterThan(0);
  });

  it('a re-import of the same data over HTTP (upstream layout) changes nothing', async () => {
    const report = await runImport(mirrorUrl);
    expect(report.counts).toEqual({ templates: 1790, techniques: 333 });
    expect(report.changes.templates).toEqual({ new: 0, updated: 0, unchanged: 1790, deactivated: [], skipped: 0 });
    expect(await app.services.prisma.testTemplate.count()).toBe(1790);
  });

  it('fills suggested remediation from the catalog mitigations of the technique', async () => {
    const prisma = app.services.prisma;
    const technique = await prisma.technique.create({
      data: { ttpId: 'T1003.001', name: 'LSASS Memory', stixId: `attack-pattern--${randomUUID()}` },
    });
    const mitigation = await prisma.mitigation.create({
      data: {
        stixId: `course-of-action--${randomUUID()}`,
        externalId: 'M1043',
        name: 'Credential Access Protection',
        description: 'Use capabilities to prevent successful credential access by adversaries. (Citation: Microsoft Credential Guard)',
      },
    });
    await prisma.techniqueMitigation.create({
      data: {
        techniqueId: technique.id,
        mitigationId: mitigation.id,
        stixId: `relationship--${randomUUID()}`,
        description: 'Enable Credential Guard on Windows 10.',
      },
    });
    const lsass = upstream.guidsByTechnique.get('T1003.001')!;
    const report = await runImport(mirrorUrl);
    expect(report.changes.templates).toMatchObject({ new: 0, updated: lsass.length, unchanged: 1790 - lsass.length });
    const template = await templateByGuid(lsass[0]);
    expect(template.suggestedRemediation).toBe(
      [
        'ATT&CK mitigations for T1003.001:',
        '- Credential Access Protection (M1043): Use capabilities to prevent successful credential access by adversaries.',
        '  For T1003.001: Enable Credential Guard on Windows 10.',
      ].join('\n'),
    );
    expect((await templateByGuid(GSECDUMP)).suggestedRemediation).toBe('');
    expect((await runImport(mirrorUrl)).changes.templates).toMatchObject({ new: 0, updated: 0 });
  });

  it('an edited upstream test updates its one template and keeps the local severity', async () => {
    const gsecdump = await templateByGuid(GSECDUMP);
    const admin = await app.tokenFor('admin');
    expect((await app.api('PATCH', `/test-templates/${gsecdump.id}`, { token: admin, body: { severity: 'high' } })).body.severity).toBe(
      'high',
    );
    overrides.set('/atomics/T1003/T1003.yaml', t1003Yaml().replace('- name: Gsecdump\n', '- name: Gsecdump (renamed upstream)\n'));
    const report = await runImport(mirrorUrl);
    expect(report.changes.templates).toEqual({ new: 0, updated: 1, unchanged: 1789, deactivated: [], skipped: 0 });
    expect(await templateByGuid(GSECDUMP)).toMatchObject({
      id: gsecdump.id,
      name: 'Gsecdump (renamed upstream)',
      severity: 'high',
      isActive: true,
    });
    const audit = await app.services.prisma.auditLog.findFirst({
      where: { action: 'import_test_templates' },
      orderBy: { timestamp: 'desc' },
    });
    expect(audit?.details).toMatchObject({ source: 'atomic_red_team', updated: 1, guids: [GSECDUMP] });
  });

  it('an atomic removed upstream is deactivated, not deleted, and reported once', async () => {
    const source = t1003Yaml();
    const start = source.indexOf('- name: Credential Dumping with NPPSpy');
    const end = source.indexOf('\n- name:', start + 1);
    overrides.set('/atomics/T1003/T1003.yaml', source.slice(0, start) + source.slice(end + 1));
    const report = await runImport(mirrorUrl);
    expect(report.counts.templates).toBe(1789);
    expect(report.changes.templates).toMatchObject({ new: 0, deactivated: [NPPSPY] });
    expect(await templateByGuid(NPPSPY)).toMatchObject({ isActive: false });
    expect((await runImport(mirrorUrl)).changes.templates).toMatchObject({ new: 0, updated: 0, deactivated: [] });
    expect(await app.services.prisma.testTemplate.count({ where: { source: 'atomic_red_team' } })).toBe(1790);
    overrides.clear();
  });

  it('an unreadable upstream fails the import without touching any template', async () => {
    overrides.set('/atomics/T1003/T1003.yaml', null);
    await expect(runImport(mirrorUrl)).rejects.toMatchObject({ code: 'SOURCE_UNAVAILABLE', status: 502 });
    overrides.set('/atomics/T1003/T1003.yaml', 'attack_technique: [unclosed');
    await expect(runImport(mirrorUrl)).rejects.toMatchObject({ code: 'SOURCE_UNAVAILABLE' });
    overrides.clear();
    await expect(runImport('/nonexistent/atomics')).rejects.toMatchObject({ code: 'SOURCE_UNAVAILABLE' });
    expect(await app.services.prisma.testTemplate.count({ where: { source: 'atomic_red_team', isActive: false } })).toBe(1);
  });
});

describe('test templates over REST', () => {
  it('lists with filters and the {items,total,offset,limit} envelope', async () => {
    const viewer = await app.tokenFor('viewer');
    const all = await app.api('GET', '/test-templates?source=atomic_red_team', { token: viewer });
    expect(all.status).toBe(200);
    expect(all.body).toMatchObject({ total: 1790, offset: 0, limit: 50 });
    expect(all.body.items).toHaveLength(50);
    expect(all.body.items[0]).toMatchObject({
      source: 'atomic_red_team',
      ttp_technique_id: 'T1001.002',
      severity: 'medium',
      is_active: true,
      test_count: 0,
    });
    const page = await app.api('GET', '/test-templates?source=atomic_red_team&offset=1780&limit=200', { token: viewer });
    expect(page.body).toMatchObject({ total: 1790, offset: 1780, limit: 200 });
    expect(page.body.items).toHaveLength(10);

    const windows = await app.api('GET', '/test-templates?platform=Windows&limit=1', { token: viewer });
    expect(windows.body.total).toBe(upstream.platformCounts.get('windows'));
    const aws = await app.api('GET', '/test-templates?platform=IAAS:AWS&limit=1', { token: viewer });
    expect(aws.body.total).toBe(upstream.platformCounts.get('iaas:aws'));
    const t1003 = await app.api('GET', '/test-templates?ttp_technique_id=t1003', { token: viewer });
    expect(t1003.body.total).toBe(upstream.guidsByTechnique.get('T1003')!.length);
    expect(t1003.body.items.every((item: any) => item.ttp_technique_id === 'T1003')).toBe(true);
    const search = await app.api('GET', '/test-templates?search=gsecdump', { token: viewer });
    expect(search.body.items.map((item: any) => item.input_arguments.gsecdump_exe?.type)).toContain('path');
    const high = await app.api('GET', '/test-templates?severity=high', { token: viewer });
    expect(high.body.items.map((item: any) => item.external_id)).toEqual([GSECDUMP]);
    const inactive = await app.api('GET', '/test-templates?is_active=false', { token: viewer });
    expect(inactive.body.items.map((item: any) => item.external_id)).toEqual([NPPSPY]);
    expect((await app.api('GET', '/test-templates?is_active=true&limit=1', { token: viewer })).body.total).toBe(1789);
  });

  it('rejects bad list parameters with 400 naming the parameter', async () => {
    const viewer = await app.tokenFor('viewer');
    expect(await app.api('GET', '/test-templates?limit=201', { token: viewer })).toMatchObject({
      status: 400,
      body: { code: 'VALIDATION_ERROR', field: 'limit' },
    });
    expect(await app.api('GET', '/test-templates?offset=-1', { token: viewer })).toMatchObject({ status: 400, body: { field: 'offset' } });
    expect(await app.api('GET', '/test-templates?severity=huge', { token: viewer })).toMatchObject({
      status: 400,
      body: { field: 'severity' },
    });
    expect(await app.api('GET', '/test-templates?is_active=maybe', { token: viewer })).toMatchObject({
      status: 400,
      body: { field: 'is_active' },
    });
  });

  it('stats are admin-only totals by source and platform, and /stats is not taken for an id', async () => {
    const admin = await app.tokenFor('admin');
    const stats = await app.api('GET', '/test-templates/stats', { token: admin });
    expect(stats.status).toBe(200);
    expect(stats.body).toMatchObject({ total: 1790, active: 1789, inactive: 1, by_source: [{ source: 'atomic_red_team', count: 1790 }] });
    const byPlatform = Object.fromEntries(stats.body.by_platform.map((row: any) => [row.platform, row.count]));
    expect(byPlatform).toEqual(Object.fromEntries(upstream.platformCounts));
    expect(stats.body.by_platform[0]).toEqual({ platform: 'windows', count: upstream.platformCounts.get('windows') });
    expect((await app.api('GET', '/test-templates/stats', { token: await app.tokenFor('red_lead') })).status).toBe(403);
  });

  it('a red lead creates a template from scratch; argument names stay as written', async () => {
    const lead = await app.createUser({ role: 'red_lead' });
    const token = await app.login(lead.username);
    const created = await app.api('POST', '/test-templates', {
      token,
      body: {
        name: 'Kerberoast service accounts',
        description: 'Request service tickets for every SPN.',
        ttp_technique_id: 't1558.003',
        platform: 'Windows',
        platforms: ['Linux', 'windows'],
        severity: 'high',
        executor: 'powershell',
        procedure: 'Invoke-Kerberoast -OutputFormat #{output_format}',
        tool_used: 'Rubeus',
        suggested_remediation: 'Use long, random service account passwords.',
        input_arguments: {
          output_format: { description: 'Hash format', type: 'string', default: 'Hashcat' },
          targetDomain: { type: 'string', default: 'corp' },
        },
      },
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      name: 'Kerberoast service accounts',
      ttp_technique_id: 'T1558.003',
      platform: 'windows',
      platforms: ['windows', 'linux'],
      severity: 'high',
      source: 'manual',
      tool_used: 'Rubeus',
      suggested_remediation: 'Use long, random service account passwords.',
      elevation_required: false,
      is_active: true,
      created_by: lead.id,
      external_id: null,
      input_arguments: {
        output_format: { description: 'Hash format', type: 'string', default: 'Hashcat' },
        targetDomain: { type: 'string', default: 'corp' },
      },
    });
    const audit = await app.services.prisma.auditLog.findFirst({ where: { action: 'create_test_template', entityId: created.body.id } });
    expect(audit).toMatchObject({
      userId: lead.id,
      entityType: 'test_template',
      details: { name: 'Kerberoast service accounts', ttp_technique_id: 'T1558.003' },
    });
  });

  it('a blue lead creates a template from a test: its fields are copied, given ones win', async () => {
    const prisma = app.services.prisma;
    const owner = await app.createUser({ role: 'red_tech' });
    const technique = await prisma.technique.create({ data: { ttpId: 'T1059.001', name: 'PowerShell' } });
    const test = await prisma.test.create({
      data: {
        techniqueId: technique.id,
        name: 'Encoded PowerShell download cradle',
        description: 'Runs an encoded IEX cradle.',
        platform: 'Windows',
        procedureText: 'powershell -enc SQBFAFgA',
        toolUsed: 'powershell.exe',
        remediationSteps: 'Enable script block logging.',
        createdById: owner.id,
        lineageId: randomUUID(),
      },
    });
    const token = await app.tokenFor('blue_lead');
    const created = await app.api('POST', '/test-templates', { token, body: { test_id: test.id, severity: 'critical' } });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      name: 'Encoded PowerShell download cradle',
      description: 'Runs an encoded IEX cradle.',
      ttp_technique_id: 'T1059.001',
      platform: 'windows',
      platforms: ['windows'],
      procedure: 'powershell -enc SQBFAFgA',
      tool_used: 'powershell.exe',
      suggested_remediation: 'Enable script block logging.',
      severity: 'critical',
      source: 'test',
    });
    const renamed = await app.api('POST', '/test-templates', { token, body: { test_id: test.id, name: 'Cradle, generic' } });
    expect(renamed.body).toMatchObject({ name: 'Cradle, generic', procedure: 'powershell -enc SQBFAFgA' });
    expect(await app.api('POST', '/test-templates', { token, body: { test_id: randomUUID() } })).toMatchObject({
      status: 404,
      body: { code: 'NOT_FOUND' },
    });
    expect(await app.api('POST', '/test-templates', { token, body: { test_id: 'nope' } })).toMatchObject({
      status: 400,
      body: { field: 'test_id' },
    });
  });

  it('rejects invalid template bodies with 400 naming the field', async () => {
    const token = await app.tokenFor('admin');
    const post = (body: unknown) => app.api('POST', '/test-templates', { token, body });
    expect(await post({})).toMatchObject({ status: 400, body: { code: 'VALIDATION_ERROR', field: 'name' } });
    expect(await post({ name: 'x', ttp_technique_id: 'not an id!' })).toMatchObject({ status: 400, body: { field: 'ttp_technique_id' } });
    expect(await post({ name: 'x', severity: 'extreme' })).toMatchObject({ status: 400, body: { field: 'severity' } });
    expect(await post({ name: 'x', input_arguments: ['a'] })).toMatchObject({ status: 400, body: { field: 'input_arguments' } });
    expect(await post({ name: 'x', colour: 'red' })).toMatchObject({ status: 400, body: { field: 'colour' } });
    expect(await post({ name: '   ' })).toMatchObject({ status: 400, body: { field: 'name' } });
    expect(await post('[1]')).toMatchObject({ status: 400 });
    expect((await post({ name: 'x' })).status).toBe(201);
    expect((await app.api('POST', '/test-templates', { token: await app.tokenFor('red_tech'), body: { name: 'x' } })).status).toBe(403);
  });

  it('reads, updates, toggles and deletes one template; unknown ids answer 404', async () => {
    const admin = await app.tokenFor('admin');
    const lead = await app.tokenFor('blue_lead');
    const viewer = await app.tokenFor('viewer');
    const gsecdump = await templateByGuid(GSECDUMP);

    const detail = await app.api('GET', `/test-templates/${gsecdump.id}`, { token: viewer });
    expect(detail.body).toMatchObject({
      id: gsecdump.id,
      external_id: GSECDUMP,
      procedure: '"#{gsecdump_exe}" -a',
      elevation_required: true,
    });

    const created = await app.api('POST', '/test-templates', { token: lead, body: { name: 'Scratch', platforms: ['linux'] } });
    const id = created.body.id;
    const patched = await app.api('PATCH', `/test-templates/${id}`, {
      token: lead,
      body: {
        name: 'Scratch v2',
        platform: 'macOS',
        input_arguments: { file_path: { type: 'path', default: '/tmp/x' } },
        ttp_technique_id: 'T1070.004',
      },
    });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({
      name: 'Scratch v2',
      platform: 'macos',
      platforms: ['macos', 'linux'],
      ttp_technique_id: 'T1070.004',
      input_arguments: { file_path: { default: '/tmp/x' } },
    });
    expect(await app.api('PATCH', `/test-templates/${id}`, { token: lead, body: { name: '' } })).toMatchObject({
      status: 400,
      body: { field: 'name' },
    });
    expect(await app.api('PATCH', `/test-templates/${id}`, { token: lead, body: { is_active: false } })).toMatchObject({
      status: 400,
      body: { field: 'is_active' },
    });
    expect((await app.api('PATCH', `/test-templates/${id}`, { token: await app.tokenFor('red_tech'), body: { name: 'no' } })).status).toBe(
      403,
    );
    const update = await app.services.prisma.auditLog.findFirst({ where: { action: 'update_test_template', entityId: id } });
    expect(update?.details).toMatchObject({ name: 'Scratch', changes: { name: 'Scratch v2', platforms: ['macos', 'linux'] } });

    const off = await app.api('POST', `/test-templates/${id}/toggle-active`, { token: admin });
    expect(off.body).toMatchObject({ id, is_active: false });
    expect((await app.api('POST', `/test-templates/${id}/toggle-active`, { token: admin })).body.is_active).toBe(true);
    expect((await app.api('POST', `/test-templates/${id}/toggle-active`, { token: lead })).status).toBe(403);

    expect((await app.api('DELETE', `/test-templates/${id}`, { token: lead })).status).toBe(204);
    expect(await app.api('GET', `/test-templates/${id}`, { token: viewer })).toMatchObject({ status: 404, body: { code: 'NOT_FOUND' } });
    expect(await app.services.prisma.auditLog.findFirst({ where: { action: 'delete_test_template', entityId: id } })).toMatchObject({
      details: { name: 'Scratch v2', source: 'manual' },
    });

    const unknown = randomUUID();
    for (const [method, path, token] of [
      ['GET', `/test-templates/${unknown}`, viewer],
      ['PATCH', `/test-templates/${unknown}`, lead],
      ['POST', `/test-templates/${unknown}/toggle-active`, admin],
      ['DELETE', `/test-templates/${unknown}`, lead],
    ] as const) {
      expect(await app.api(method, path, { token, body: method === 'GET' ? undefined : { name: 'x' } }), `${method} ${path}`).toMatchObject(
        { status: 404, body: { code: 'NOT_FOUND' } },
      );
    }
    expect(await app.api('GET', '/test-templates/not-a-uuid', { token: viewer })).toMatchObject({
      status: 400,
      body: { code: 'VALIDATION_ERROR', field: 'id' },
    });
  });
});

describe('test templates over GraphQL', () => {
  it('counts the tests of a whole page of templates with one query, whatever the page size', async () => {
    const viewer = await app.tokenFor('viewer');
    const countsFor = async (limit: number) => {
      let items: { testCount: number }[] = [];
      const statements = await countQueries(async () => {
        const answer = await app.graphql(`{ testTemplates(limit: ${limit}) { items { id testCount } } }`, {}, viewer);
        items = answer.data.testTemplates.items;
      }, /"public"\."tests"/);
      return { statements, items };
    };
    const small = await countsFor(2);
    const large = await countsFor(50);
    expect(large.items.length).toBe(50);
    expect(large.items.every((item) => Number.isInteger(item.testCount))).toBe(true);
    expect(large.statements).toBe(small.statements);
    expect(large.statements).toBe(1);
  });

  it('queries templates, stats and a technique with its templates', async () => {
    const admin = await app.tokenFor('admin');
    const list = await app.graphql(
      `query ($filter: TestTemplateFilter) { testTemplates(filter: $filter, limit: 2) { total limit items { name externalId technique { ttpId name } testCount } } }`,
      { filter: { ttpTechniqueId: 'T1003.001', isActive: true } },
      admin,
    );
    const lsass = upstream.guidsByTechnique.get('T1003.001')!;
    expect(list.data.testTemplates).toMatchObject({ total: lsass.length, limit: 2 });
    expect(list.data.testTemplates.items[0].technique).toEqual({ ttpId: 'T1003.001', name: 'LSASS Memory' });

    const one = await app.graphql(
      `query ($id: UUID!) { testTemplate(id: $id) { name platforms inputArguments } }`,
      { id: (await templateByGuid(GSECDUMP)).id },
      admin,
    );
    expect(one.data.testTemplate).toMatchObject({
      name: 'Gsecdump',
      platforms: ['windows'],
      inputArguments: { gsecdump_bin_hash: { type: 'string' } },
    });

    const stats = await app.graphql('{ testTemplateStats { total active inactive bySource { key count } } }', {}, admin);
    expect(stats.data.testTemplateStats.bySource).toEqual(
      expect.arrayContaining([
        { key: 'atomic_red_team', count: 1790 },
        { key: 'test', count: 2 },
      ]),
    );
    expect(stats.data.testTemplateStats.total - stats.data.testTemplateStats.active).toBe(stats.data.testTemplateStats.inactive);

    const technique = await app.graphql(
      '{ technique(ttpId: "T1003.001") { ttpId templates { externalId suggestedRemediation } } }',
      {},
      admin,
    );
    expect(technique.data.technique.templates.map((template: any) => template.externalId).sort()).toEqual([...lsass].sort());
    expect(technique.data.technique.templates[0].suggestedRemediation).toContain('Credential Access Protection (M1043)');

    const forbidden = await app.graphql('{ testTemplateStats { total } }', {}, await app.tokenFor('blue_lead'));
    expect(forbidden.errors?.[0].extensions).toMatchObject({ code: 'FORBIDDEN', status: 403 });
  });

  it('creates, updates, toggles and deletes through mutations', async () => {
    const lead = await app.tokenFor('red_lead');
    const admin = await app.tokenFor('admin');
    const created = await app.graphql(
      `mutation ($input: CreateTestTemplateInput!) { createTestTemplate(input: $input) { id name platform severity inputArguments createdById } }`,
      { input: { name: 'DNS tunnel', platforms: ['Linux'], severity: 'low', inputArguments: { domain_name: { default: 'example.org' } } } },
      lead,
    );
    const id = created.data.createTestTemplate.id;
    expect(created.data.createTestTemplate).toMatchObject({
      name: 'DNS tunnel',
      platform: 'linux',
      severity: 'low',
      inputArguments: { domain_name: { default: 'example.org' } },
    });

    const updated = await app.graphql(
      `mutation ($id: UUID!, $input: UpdateTestTemplateInput!) { updateTestTemplate(id: $id, input: $input) { name suggestedRemediation } }`,
      { id, input: { name: 'DNS tunnel (iodine)', suggestedRemediation: 'Alert on long TXT queries.' } },
      lead,
    );
    expect(updated.data.updateTestTemplate).toEqual({ name: 'DNS tunnel (iodine)', suggestedRemediation: 'Alert on long TXT queries.' });

    const toggled = await app.graphql('mutation ($id: UUID!) { toggleTestTemplateActive(id: $id) { isActive } }', { id }, admin);
    expect(toggled.data.toggleTestTemplateActive).toEqual({ isActive: false });

    const invalid = await app.graphql(
      'mutation ($id: UUID!) { updateTestTemplate(id: $id, input: { ttpTechniqueId: "T1" }) { id } }',
      { id },
      lead,
    );
    expect(invalid.errors?.[0].extensions).toMatchObject({ code: 'VALIDATION_ERROR', field: 'ttpTechniqueId' });

    const deleted = await app.graphql('mutation ($id: UUID!) { deleteTestTemplate(id: $id) }', { id }, lead);
    expect(deleted.data).toEqual({ deleteTestTemplate: id });
    const missing = await app.graphql('query ($id: UUID!) { testTemplate(id: $id) { id } }', { id }, lead);
    expect(missing.errors?.[0].extensions).toMatchObject({ code: 'NOT_FOUND', status: 404 });
  });
});
