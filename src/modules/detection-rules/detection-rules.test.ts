import { randomUUID } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { zipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import type { TestState } from '../../generated/prisma/enums.ts';
import { importSigma } from './importer.ts';
import { useTestApp } from '../../../test/helpers/app.ts';
import { FILE_SERVER_ENV, serveFiles, type FileServer } from '../../../test/helpers/file-server.ts';
import { countQueries } from '../../../test/helpers/queries.ts';
import { referenceData } from '../../../test/helpers/reference-data.ts';

const SIGMA_DIR = referenceData('sigma');
const RULES_DIR = join(SIGMA_DIR, 'rules');

/** What the sample holds, read here straight from the files (independently of the importer). */
interface SampleRule {
  path: string;
  id: string;
  title: string;
  level: string;
  author: string;
  techniques: string[];
  raw: string;
}

function walk(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? walk(join(dir, entry.name)) : entry.name.endsWith('.yml') ? [join(dir, entry.name)] : [],
  );
}

const sample: SampleRule[] = walk(RULES_DIR).map((file) => {
  const raw = readFileSync(file, 'utf8');
  const doc = parse(raw);
  const techniques: string[] = [];
  for (const tag of doc.tags as string[]) {
    const match = /^attack\.(t\d{4}(\.\d{3})?)$/.exec(tag);
    if (match && !techniques.includes(match[1].toUpperCase())) techniques.push(match[1].toUpperCase());
  }
  return {
    path: `rules/${relative(RULES_DIR, file)}`,
    id: doc.id,
    title: doc.title,
    level: doc.level,
    author: doc.author,
    techniques,
    raw,
  };
});
const distinctTechniques = new Set(sample.flatMap((rule) => rule.techniques));
const levels: Record<string, number> = {};
for (const rule of sample) levels[rule.level] = (levels[rule.level] ?? 0) + 1;
const byId = new Map(sample.map((rule) => [rule.id, rule]));

let admin: string;
let blueLead: string;
let server: FileServer;
/** Archives the local HTTP server answers, by path. */
const archives = new Map<string, Uint8Array>();

const importFrom = (location: string) =>
  importSigma({ services: app.services, location, actor: { userId: null, username: 'system' }, log: app.services.log });

function zipOf(rules: SampleRule[], extra: Record<string, string> = {}): Uint8Array {
  const files: Record<string, Uint8Array> = {};
  for (const rule of rules) files[rule.path] = new TextEncoder().encode(rule.raw);
  for (const [path, content] of Object.entries(extra)) files[path] = new TextEncoder().encode(content);
  files['LICENSE.Detection.Rules.md'] = new TextEncoder().encode('Detection Rule License (DRL) 1.1');
  return zipSync(files);
}

const app = useTestApp(FILE_SERVER_ENV);

beforeAll(async () => {
  admin = await app.tokenFor('admin');
  blueLead = await app.tokenFor('blue_lead');
  server = await serveFiles((path) => archives.get(path));
});
afterAll(async () => {
  await server.close();
});

describe('Sigma import', () => {
  it('sample facts (derived from the files) match the published counts', () => {
    expect(sample).toHaveLength(200);
    expect(distinctTechniques.size).toBe(144);
    expect(levels).toEqual({ high: 100, critical: 51, medium: 37, low: 11, informational: 1 });
  });

  it('imports every rule of a local directory with its techniques, severity, author, id and raw YAML', async () => {
    const report = await importFrom(RULES_DIR);
    expect(report.counts).toEqual({ rules: 200, techniques: distinctTechniques.size });
    expect(report.changes.rules).toEqual({ new: 200, updated: 0, unchanged: 0, deactivated: 0, reactivated: 0, skipped: 0 });

    const stored = await app.services.prisma.detectionRule.findMany({ where: { source: 'sigma' } });
    expect(stored).toHaveLength(200);
    for (const rule of stored) {
      const expected = byId.get(rule.externalId!)!;
      expect(rule).toMatchObject({
        title: expected.title,
        severity: expected.level,
        techniqueIds: expected.techniques,
        ttpTechniqueId: expected.techniques[0],
        author: expected.author,
        license: 'DRL-1.1',
        content: expected.raw,
        sourceUrl: `https://github.com/SigmaHQ/sigma/blob/master/${expected.path}`,
        isActive: true,
      });
    }
    const severities = await app.services.prisma.detectionRule.groupBy({ by: ['severity'], where: { source: 'sigma' }, _count: true });
    expect(Object.fromEntries(severities.map((row) => [row.severity, row._count]))).toEqual(levels);

    const exploiting = stored.find((rule) => rule.externalId === '238527ad-3c2c-4e4f-a1f6-92fd63adb864')!;
    expect(exploiting).toMatchObject({
      title: 'Antivirus Exploitation Framework Detection',
      severity: 'critical',
      status: 'stable',
      techniqueIds: ['T1203', 'T1219.002'],
      ttpTechniqueId: 'T1203',
      logSource: { category: 'antivirus' },
      author: 'Florian Roth (Nextron Systems), Arnim Rupp',
      sourceUrl: 'https://github.com/SigmaHQ/sigma/blob/master/rules/category/antivirus/av_exploiting.yml',
    });
    expect(exploiting.references).toHaveLength(4);
    expect(exploiting.description).toMatch(/^Detects a highly relevant Antivirus alert/);
  });

  it('is idempotent: a second run creates and changes nothing', async () => {
    const report = await importFrom(RULES_DIR);
    expect(report.changes.rules).toMatchObject({ new: 0, updated: 0, unchanged: 200, deactivated: 0 });
    expect(report.counts).toEqual({ rules: 200, techniques: 144 });
  });

  it('reads a zip archive over HTTP: same rules, skips rules without id, deactivates rules gone upstream and brings them back', async () => {
    archives.set('/all/sigma_all_rules.zip', zipOf(sample));
    const same = await importFrom(`${server.url}/all/sigma_all_rules.zip`);
    expect(same.changes.rules).toMatchObject({ new: 0, updated: 0, unchanged: 200, deactivated: 0 });

    const [goneA, goneB, goneC, changed, ...kept] = sample;
    const raised = { ...changed, raw: changed.raw.replace(/^level: \w+$/m, 'level: informational') };
    const withoutId = sample[10].raw.replace(/^id: .*$/m, '').replace(/^title: .*$/m, 'title: Copy without id');
    archives.set(
      '/partial/sigma_all_rules.zip',
      zipOf([raised, ...kept], { 'rules/windows/no_id.yml': withoutId, 'rules/windows/broken.yml': 'title: [unclosed' }),
    );
    const partial = await importFrom(`${server.url}/partial/sigma_all_rules.zip`);
    expect(partial.changes.rules).toEqual({ new: 0, updated: 1, unchanged: 196, deactivated: 3, reactivated: 0, skipped: 2 });
    expect(partial.changes.skipped_rules).toEqual({
      without_id: ['rules/windows/no_id.yml'],
      invalid: ['rules/windows/broken.yml'],
      duplicate_id: [],
    });
    expect([...(partial.changes.deactivated_rules.external_ids as string[])].sort()).toEqual([goneA.id, goneB.id, goneC.id].sort());
    expect(partial.counts.rules).toBe(197);
    const deactivated = await app.services.prisma.detectionRule.findMany({
      where: { source: 'sigma', isActive: false },
      select: { externalId: true },
    });
    expect(deactivated.map((rule) => rule.externalId).sort()).toEqual([goneA.id, goneB.id, goneC.id].sort());
    expect(await app.services.prisma.detectionRule.findFirst({ where: { externalId: changed.id } })).toMatchObject({
      severity: 'informational',
    });

    const restored = await importFrom(`${server.url}/all/sigma_all_rules.zip`);
    expect(restored.changes.rules).toMatchObject({ new: 0, updated: 4, reactivated: 3, deactivated: 0 });
    expect(restored.counts).toEqual({ rules: 200, techniques: 144 });
    expect(await app.services.prisma.detectionRule.findFirst({ where: { externalId: changed.id } })).toMatchObject({
      severity: changed.level,
    });
  });

  it('links rules at the release tag named by a release-asset URL', async () => {
    archives.set('/SigmaHQ/sigma/releases/download/r2026-04-01/sigma_all_rules.zip', zipOf(sample));
    const location = `${server.url}/SigmaHQ/sigma/releases/download/r2026-04-01/sigma_all_rules.zip`;
    expect((await importFrom(location)).changes.rules).toMatchObject({ updated: 200 });
    const rule = await app.services.prisma.detectionRule.findFirst({ where: { externalId: '238527ad-3c2c-4e4f-a1f6-92fd63adb864' } });
    expect(rule?.sourceUrl).toBe('https://github.com/SigmaHQ/sigma/blob/r2026-04-01/rules/category/antivirus/av_exploiting.yml');
    expect((await importFrom(location)).changes.rules).toMatchObject({ new: 0, updated: 0, unchanged: 200 });
  });

  it('refuses unreachable, non-zip and empty sources without touching the rules', async () => {
    await expect(importFrom(`${server.url}/missing.zip`)).rejects.toMatchObject({ status: 502, code: 'SOURCE_UNAVAILABLE' });
    archives.set('/not-a-zip.zip', new TextEncoder().encode('<html>moved</html>'));
    await expect(importFrom(`${server.url}/not-a-zip.zip`)).rejects.toMatchObject({ status: 502, code: 'SOURCE_UNAVAILABLE' });
    archives.set('/empty.zip', zipSync({ 'README.md': new TextEncoder().encode('nothing') }));
    await expect(importFrom(`${server.url}/empty.zip`)).rejects.toMatchObject({ status: 502 });
    expect(await app.services.prisma.detectionRule.count({ where: { source: 'sigma', isActive: true } })).toBe(200);
  });
});

describe('detection rules over REST and GraphQL', () => {
  it('lists imported rules in pages with filters by source, technique, severity and search', async () => {
    const viewer = await app.tokenFor('viewer');
    const first = await app.api('GET', '/detection-rules?source=sigma', { token: viewer });
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ total: 200, offset: 0, limit: 50 });
    expect(first.body.items).toHaveLength(50);
    expect(first.body.items[0]).not.toHaveProperty('content');

    const last = await app.api('GET', '/detection-rules?source=sigma&offset=150&limit=200', { token: viewer });
    expect(last.body).toMatchObject({ total: 200, offset: 150, limit: 200 });
    expect(last.body.items).toHaveLength(50);

    const technique = 'T1219.002';
    const naming = sample.filter((rule) => rule.techniques.includes(technique));
    const byTechnique = await app.api('GET', `/detection-rules?ttp_technique_id=${technique.toLowerCase()}&limit=200`, { token: viewer });
    expect(byTechnique.body.total).toBe(naming.length);
    expect(byTechnique.body.items.map((rule: any) => rule.external_id).sort()).toEqual(naming.map((rule) => rule.id).sort());
    expect(byTechnique.body.items.every((rule: any) => rule.technique_ids.includes(technique))).toBe(true);

    const informational = await app.api('GET', '/detection-rules?severity=informational', { token: viewer });
    const expectedInformational = sample.find((rule) => rule.level === 'informational')!;
    expect(informational.body.items).toEqual([
      expect.objectContaining({
        external_id: expectedInformational.id,
        title: expectedInformational.title,
        author: expectedInformational.author,
        severity: 'informational',
        license: 'DRL-1.1',
        source: 'sigma',
      }),
    ]);

    const search = await app.api('GET', '/detection-rules?search=antivirus%20exploitation', { token: viewer });
    expect(search.body.items.map((rule: any) => rule.external_id)).toEqual(['238527ad-3c2c-4e4f-a1f6-92fd63adb864']);

    const critical = `query ($f: DetectionRuleFilter, $limit: Int) { detectionRules(filter: $f, limit: $limit) { total limit items { title externalId author severity } } }`;
    const filter = { f: { source: 'sigma', severity: 'critical' } };
    const all = await app.graphql(critical, { ...filter, limit: 200 }, viewer);
    expect(all.data.detectionRules.total).toBe(levels.critical);
    const expectedCritical = sample.filter((rule) => rule.level === 'critical');
    expect(all.data.detectionRules.items.map((rule: any) => rule.externalId).sort()).toEqual(
      expectedCritical.map((rule) => rule.id).sort(),
    );
    expect(
      all.data.detectionRules.items.every((rule: any) => rule.severity === 'critical' && rule.author === byId.get(rule.externalId)!.author),
    ).toBe(true);
    const firstThree = await app.graphql(critical, { ...filter, limit: 3 }, viewer);
    expect(firstThree.data.detectionRules).toMatchObject({
      total: levels.critical,
      limit: 3,
      items: all.data.detectionRules.items.slice(0, 3),
    });
  });

  it('answers 400 for bad filters and page sizes and 404 or 400 for unknown or malformed ids', async () => {
    const viewer = await app.tokenFor('viewer');
    expect(await app.api('GET', '/detection-rules?limit=201', { token: viewer })).toMatchObject({
      status: 400,
      body: { code: 'VALIDATION_ERROR', field: 'limit' },
    });
    expect(await app.api('GET', '/detection-rules?severity=severe', { token: viewer })).toMatchObject({
      status: 400,
      body: { field: 'severity' },
    });
    expect(await app.api('GET', '/detection-rules?ttp_technique_id=not%20an%20id', { token: viewer })).toMatchObject({
      status: 400,
      body: { field: 'ttp_technique_id' },
    });
    expect(await app.api('GET', `/detection-rules/${randomUUID()}`, { token: viewer })).toMatchObject({
      status: 404,
      body: { code: 'NOT_FOUND' },
    });
    expect(await app.api('GET', '/detection-rules/42', { token: viewer })).toMatchObject({
      status: 400,
      body: { code: 'VALIDATION_ERROR' },
    });
    expect(await app.api('PATCH', `/detection-rules/${randomUUID()}`, { token: blueLead, body: { title: 'x' } })).toMatchObject({
      status: 404,
    });
    expect(await app.api('DELETE', `/detection-rules/${randomUUID()}`, { token: blueLead })).toMatchObject({ status: 404 });
  });

  it('a blue lead creates, reads, updates and deletes a custom rule, each change audited', async () => {
    const created = await app.api('POST', '/detection-rules', {
      token: blueLead,
      body: {
        title: 'Encoded PowerShell',
        description: 'Base64 command lines',
        technique_ids: ['t1059.001', 'T1027'],
        severity: 'high',
        log_source: { product: 'windows', category: 'process_creation' },
        content: 'CommandLine|contains: " -enc "',
        author: 'Blue Team',
        external_id: 'BT-001',
        references: ['https://example.org/encoded'],
      },
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      title: 'Encoded PowerShell',
      source: 'custom',
      external_id: 'BT-001',
      technique_ids: ['T1059.001', 'T1027'],
      ttp_technique_id: 'T1059.001',
      severity: 'high',
      log_source: { product: 'windows', category: 'process_creation' },
      content: 'CommandLine|contains: " -enc "',
      is_active: true,
    });
    const id = created.body.id;
    const lead = await app.services.prisma.user.findFirst({ where: { role: 'blue_lead' } });
    expect(created.body.created_by).toBe(lead!.id);

    const read = await app.api('GET', `/detection-rules/${id}`, { token: await app.tokenFor('red_tech') });
    expect(read.body).toMatchObject({ id, author: 'Blue Team', references: ['https://example.org/encoded'] });

    const updated = await app.api('PATCH', `/detection-rules/${id}`, {
      token: admin,
      body: { ttp_technique_id: 'T1027', severity: 'critical', is_active: false },
    });
    expect(updated.body).toMatchObject({
      ttp_technique_id: 'T1027',
      technique_ids: ['T1027', 'T1059.001'],
      severity: 'critical',
      is_active: false,
      source: 'custom',
      external_id: 'BT-001',
    });

    const graphql = await app.graphql(
      'mutation ($id: UUID!) { updateDetectionRule(id: $id, input: { techniqueIds: ["T1105"], isActive: true }) { ttpTechniqueId techniqueIds isActive } }',
      { id },
      blueLead,
    );
    expect(graphql.data.updateDetectionRule).toEqual({ ttpTechniqueId: 'T1105', techniqueIds: ['T1105'], isActive: true });

    const deleted = await app.api('DELETE', `/detection-rules/${id}`, { token: blueLead });
    expect(deleted.status).toBe(204);
    expect((await app.api('GET', `/detection-rules/${id}`, { token: blueLead })).status).toBe(404);

    const audit = await app.services.prisma.auditLog.findMany({ where: { entityId: id }, orderBy: { timestamp: 'asc' } });
    expect(audit.map((entry) => entry.action)).toEqual([
      'create_detection_rule',
      'update_detection_rule',
      'update_detection_rule',
      'delete_detection_rule',
    ]);
    expect(audit[3].details).toMatchObject({ title: 'Encoded PowerShell', source: 'custom', external_id: 'BT-001' });
  });

  it('validates rule bodies: title required, sigma reserved, technique ids, duplicates per source', async () => {
    expect(await app.api('POST', '/detection-rules', { token: blueLead, body: { description: 'x' } })).toMatchObject({
      status: 400,
      body: { field: 'title' },
    });
    expect(await app.api('POST', '/detection-rules', { token: blueLead, body: { title: 'x', source: 'Sigma' } })).toMatchObject({
      status: 400,
      body: { field: 'source' },
    });
    expect(
      await app.api('POST', '/detection-rules', { token: blueLead, body: { title: 'x', technique_ids: ['T1059', 'no way'] } }),
    ).toMatchObject({ status: 400, body: { field: 'technique_ids.1' } });
    expect(await app.api('POST', '/detection-rules', { token: blueLead, body: { title: 'x', severity: 'huge' } })).toMatchObject({
      status: 400,
      body: { field: 'severity' },
    });
    expect(await app.api('POST', '/detection-rules', { token: blueLead, body: { title: 'x', references: ['ftp://x'] } })).toMatchObject({
      status: 400,
      body: { field: 'references.0' },
    });
    expect(await app.api('POST', '/detection-rules', { token: blueLead, body: { title: 'x', colour: 'red' } })).toMatchObject({
      status: 400,
      body: { field: 'colour' },
    });
    const first = await app.api('POST', '/detection-rules', {
      token: blueLead,
      body: { title: 'Splunk one', source: 'splunk', external_id: 'S-1' },
    });
    expect(first.status).toBe(201);
    expect(
      await app.api('POST', '/detection-rules', { token: blueLead, body: { title: 'Splunk again', source: 'splunk', external_id: 'S-1' } }),
    ).toMatchObject({ status: 409, body: { code: 'CONFLICT' } });
    expect(await app.api('PATCH', `/detection-rules/${first.body.id}`, { token: blueLead, body: { source: 'custom' } })).toMatchObject({
      status: 400,
      body: { field: 'source' },
    });
    expect(await app.api('PATCH', `/detection-rules/${first.body.id}`, { token: blueLead, body: { title: '  ' } })).toMatchObject({
      status: 400,
      body: { field: 'title' },
    });
  });

  it('only blue leads and admins change rules', async () => {
    for (const role of ['blue_tech', 'red_lead', 'red_tech', 'viewer'] as const) {
      const token = await app.tokenFor(role);
      expect((await app.api('POST', '/detection-rules', { token, body: { title: 'Nope' } })).status).toBe(403);
    }
    expect(await app.services.prisma.detectionRule.count({ where: { title: 'Nope' } })).toBe(0);
  });

  it('an edited imported rule keeps its source and id; the next import restores the upstream fields', async () => {
    const rule = await app.services.prisma.detectionRule.findFirstOrThrow({
      where: { externalId: '238527ad-3c2c-4e4f-a1f6-92fd63adb864' },
    });
    const edited = await app.api('PATCH', `/detection-rules/${rule.id}`, {
      token: blueLead,
      body: { severity: 'low', title: 'Tuned AV alert' },
    });
    expect(edited.body).toMatchObject({
      severity: 'low',
      title: 'Tuned AV alert',
      source: 'sigma',
      external_id: '238527ad-3c2c-4e4f-a1f6-92fd63adb864',
      author: rule.author,
    });
    const report = await importFrom(`${server.url}/SigmaHQ/sigma/releases/download/r2026-04-01/sigma_all_rules.zip`);
    expect(report.changes.rules).toMatchObject({ new: 0, updated: 1, unchanged: 199 });
    expect((await app.api('GET', `/detection-rules/${rule.id}`, { token: blueLead })).body).toMatchObject({
      severity: 'critical',
      title: 'Antivirus Exploitation Framework Detection',
    });
  });

  it('a technique lists the active rules naming it, batched for lists of techniques', async () => {
    await app.services.prisma.technique.createMany({
      data: [
        { ttpId: 'T1203', name: 'Exploitation for Client Execution' },
        { ttpId: 'T1219.002', name: 'Remote Desktop Software' },
      ],
    });
    const viewer = await app.tokenFor('viewer');
    let result: any;
    const ruleQueries = await countQueries(
      async () => (result = await app.graphql('{ techniques { ttpId detectionRules { externalId author license } } }', {}, viewer)),
      /\bFROM "public"\."detection_rules"/,
    );
    expect(ruleQueries).toBe(1);
    const listed = Object.fromEntries(result.data.techniques.map((technique: any) => [technique.ttpId, technique.detectionRules]));
    for (const ttpId of ['T1203', 'T1219.002']) {
      const expected = sample.filter((rule) => rule.techniques.includes(ttpId));
      expect(listed[ttpId].map((rule: any) => rule.externalId).sort()).toEqual(expected.map((rule) => rule.id).sort());
      expect(listed[ttpId].every((rule: any) => rule.author && rule.license === 'DRL-1.1')).toBe(true);
    }
  });
});

describe('evaluating rules on tests', () => {
  let techniqueId: string;
  let creatorId: string;
  let sigmaRuleId: string;
  const sigmaRule = () => byId.get('238527ad-3c2c-4e4f-a1f6-92fd63adb864')!;

  async function createTest(state: TestState) {
    const id = randomUUID();
    await app.services.prisma.test.create({
      data: { id, lineageId: id, name: `Test in ${state}`, techniqueId, createdById: creatorId, state },
    });
    return id;
  }

  beforeAll(async () => {
    techniqueId = (await app.services.prisma.technique.findUniqueOrThrow({ where: { ttpId: 'T1203' } })).id;
    creatorId = (await app.createUser({ role: 'red_lead' })).id;
    sigmaRuleId = (await app.services.prisma.detectionRule.findFirstOrThrow({ where: { externalId: sigmaRule().id } })).id;
  });

  it('a blue tech records that an imported rule triggered: evaluation with author and id, timeline entry, audit, event', async () => {
    const testId = await createTest('blue_evaluating');
    const events: any[] = [];
    const stop = app.services.bus.on('test.changed', (event) => void events.push(event.payload));
    const blueTech = await app.createUser({ role: 'blue_tech' });
    const token = await app.login(blueTech.username);
    const response = await app.api('POST', '/detection-rules/evaluate', {
      token,
      body: { test_id: testId, rule_id: sigmaRuleId, triggered: true, notes: 'Alert in the SIEM at 10:02' },
    });
    stop();
    expect(response.status).toBe(201);
    expect(response.body).toMatchObject({
      test_id: testId,
      rule_id: sigmaRuleId,
      rule_title: sigmaRule().title,
      rule_source: 'sigma',
      rule_external_id: sigmaRule().id,
      rule_author: 'Florian Roth (Nextron Systems), Arnim Rupp',
      triggered: true,
      notes: 'Alert in the SIEM at 10:02',
      evaluated_by: blueTech.id,
    });
    expect(Date.parse(response.body.evaluated_at)).toBeGreaterThan(Date.now() - 60_000);

    const timeline = await app.services.prisma.testEvent.findMany({ where: { testId } });
    expect(timeline).toEqual([
      expect.objectContaining({
        kind: 'detection_evaluated',
        actorId: blueTech.id,
        actorName: blueTech.username,
        details: expect.objectContaining({
          rule_id: sigmaRuleId,
          rule_title: sigmaRule().title,
          rule_author: sigmaRule().author,
          rule_external_id: sigmaRule().id,
          triggered: true,
        }),
      }),
    ]);
    const audit = await app.services.prisma.auditLog.findFirst({ where: { action: 'evaluate_detection_rule', entityId: testId } });
    expect(audit).toMatchObject({
      userId: blueTech.id,
      entityType: 'test',
      details: { rule_external_id: sigmaRule().id, rule_author: sigmaRule().author, triggered: true, evaluation_id: response.body.id },
    });
    expect(events).toEqual([{ testId, campaignId: null, change: 'detection_evaluated' }]);
  });

  it('the test shows its evaluations newest first, with rule attribution (GraphQL)', async () => {
    const testId = await createTest('in_review');
    const custom = await app.api('POST', '/detection-rules', { token: blueLead, body: { title: 'Custom EDR rule', author: 'SOC team' } });
    await app.api('POST', '/detection-rules/evaluate', {
      token: blueLead,
      body: { test_id: testId, rule_id: sigmaRuleId, triggered: false },
    });
    const second = await app.graphql(
      `mutation ($input: EvaluateDetectionRuleInput!) {
        evaluateDetectionRule(input: $input) {
          ruleTitle
          test { detectionEvaluations { ruleId ruleTitle ruleAuthor ruleExternalId triggered notes evaluatedById evaluatedAt } }
        }
      }`,
      { input: { testId, ruleId: custom.body.id, triggered: true, notes: 'EDR blocked it' } },
      admin,
    );
    expect(second.errors).toBeUndefined();
    const evaluations = second.data.evaluateDetectionRule.test.detectionEvaluations;
    expect(evaluations).toHaveLength(2);
    expect(evaluations[0]).toMatchObject({
      ruleId: custom.body.id,
      ruleTitle: 'Custom EDR rule',
      ruleAuthor: 'SOC team',
      ruleExternalId: null,
      triggered: true,
      notes: 'EDR blocked it',
    });
    expect(evaluations[1]).toMatchObject({
      ruleId: sigmaRuleId,
      ruleTitle: sigmaRule().title,
      ruleAuthor: sigmaRule().author,
      ruleExternalId: sigmaRule().id,
      triggered: false,
      notes: null,
    });
    expect(Date.parse(evaluations[0].evaluatedAt)).toBeGreaterThanOrEqual(Date.parse(evaluations[1].evaluatedAt));

    // Deleting the rule keeps what the evaluation says about it.
    expect((await app.api('DELETE', `/detection-rules/${custom.body.id}`, { token: blueLead })).status).toBe(204);
    const kept = await app.services.prisma.detectionEvaluation.findFirstOrThrow({ where: { testId, ruleTitle: 'Custom EDR rule' } });
    expect(kept).toMatchObject({ ruleId: null, ruleAuthor: 'SOC team', ruleSource: 'custom', triggered: true });
  });

  it('is allowed to blue leads, blue techs and admins only', async () => {
    const testId = await createTest('validated');
    const body = { test_id: testId, rule_id: sigmaRuleId, triggered: true };
    for (const role of ['red_lead', 'red_tech', 'viewer'] as const) {
      expect(await app.api('POST', '/detection-rules/evaluate', { token: await app.tokenFor(role), body })).toMatchObject({
        status: 403,
        body: { code: 'FORBIDDEN' },
      });
    }
    for (const role of ['blue_lead', 'blue_tech', 'admin'] as const) {
      expect((await app.api('POST', '/detection-rules/evaluate', { token: await app.tokenFor(role), body })).status).toBe(201);
    }
    expect(await app.services.prisma.detectionEvaluation.count({ where: { testId } })).toBe(3);
  });

  it('is allowed from blue_evaluating on, and refused before with TEST_NOT_EVALUABLE', async () => {
    const token = await app.tokenFor('blue_tech');
    for (const state of ['blue_evaluating', 'in_review', 'validated', 'rejected'] as const) {
      const testId = await createTest(state);
      expect(
        (await app.api('POST', '/detection-rules/evaluate', { token, body: { test_id: testId, rule_id: sigmaRuleId, triggered: false } }))
          .status,
      ).toBe(201);
    }
    for (const state of ['draft', 'red_executing'] as const) {
      const testId = await createTest(state);
      const refused = await app.api('POST', '/detection-rules/evaluate', {
        token,
        body: { test_id: testId, rule_id: sigmaRuleId, triggered: false },
      });
      expect(refused).toMatchObject({
        status: 400,
        body: {
          code: 'TEST_NOT_EVALUABLE',
          current_state: state,
          allowed_states: ['blue_evaluating', 'in_review', 'rejected', 'validated'],
        },
      });
      expect(await app.services.prisma.testEvent.count({ where: { testId } })).toBe(0);
    }
  });

  it('answers 404 for unknown tests or rules and 400 for malformed bodies', async () => {
    const token = await app.tokenFor('blue_tech');
    const testId = await createTest('blue_evaluating');
    expect(
      await app.api('POST', '/detection-rules/evaluate', { token, body: { test_id: randomUUID(), rule_id: sigmaRuleId, triggered: true } }),
    ).toMatchObject({ status: 404, body: { code: 'NOT_FOUND' } });
    expect(
      await app.api('POST', '/detection-rules/evaluate', { token, body: { test_id: testId, rule_id: randomUUID(), triggered: true } }),
    ).toMatchObject({ status: 404, body: { code: 'NOT_FOUND' } });
    expect(await app.api('POST', '/detection-rules/evaluate', { token, body: { test_id: testId, rule_id: sigmaRuleId } })).toMatchObject({
      status: 400,
      body: { field: 'triggered' },
    });
    expect(
      await app.api('POST', '/detection-rules/evaluate', { token, body: { test_id: 'abc', rule_id: sigmaRuleId, triggered: true } }),
    ).toMatchObject({ status: 400, body: { field: 'test_id' } });
    expect(
      await app.api('POST', '/detection-rules/evaluate', { token, body: { test_id: testId, rule_id: sigmaRuleId, triggered: 'yes' } }),
    ).toMatchObject({ status: 400, body: { field: 'triggered' } });
    expect(await app.services.prisma.detectionEvaluation.count({ where: { testId } })).toBe(0);
  });
});
