import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SYSTEM_ACTOR } from '../../db/unit-of-work.ts';
import { importAttackEnterprise } from '../catalog/importer.ts';
import { importCsaCcm, importNist80053 } from './importer.ts';
import type { Importer, ImportReport } from '../../sources/importer.ts';
import { startTestApp, useTestApp } from '../../../test/helpers/app.ts';
import { FILE_SERVER_ENV, serveFiles, type FileServer } from '../../../test/helpers/file-server.ts';
import { referenceData } from '../../../test/helpers/reference-data.ts';

const CTID_DIR = referenceData('ctid');
const NIST_FILE = 'nist_800_53-rev5_attack-16.1-enterprise.json';
const CSA_FILE = 'csa_ccm-4.1_attack-17.1-enterprise.json';

interface MappingObject {
  capability_id: string | null;
  capability_group: string | null;
  capability_description: string | null;
  mapping_type: string | null;
  attack_object_id: string | null;
  comments?: string;
  status: string;
}

/** Expected figures, derived here from a Mappings Explorer file. */
function expectedOf(file: string) {
  const text = readFileSync(join(CTID_DIR, file), 'utf8');
  const document = JSON.parse(text) as { metadata: Record<string, any>; mapping_objects: MappingObject[] };
  const objects = document.mapping_objects;
  const mappable = objects.filter((object) => object.status !== 'non_mappable' && object.mapping_type !== 'non_mappable');
  const attackIdsOf = new Map<string, Set<string>>();
  for (const object of objects)
    if (object.capability_id && !attackIdsOf.has(object.capability_id)) attackIdsOf.set(object.capability_id, new Set());
  for (const object of mappable) attackIdsOf.get(object.capability_id!)!.add(object.attack_object_id!);
  return {
    text,
    document,
    objects,
    mappable,
    controls: [...attackIdsOf.keys()].sort(),
    attackIdsOf,
    mappings: new Set(mappable.map((object) => `${object.capability_id}|${object.attack_object_id}|${object.mapping_type}`)),
    attackIds: new Set(mappable.map((object) => object.attack_object_id!)),
  };
}

const nist = expectedOf(NIST_FILE);
const csa = expectedOf(CSA_FILE);

/** A fixed set of catalog techniques with known statuses; T1574.002 is revoked, so the rule leaves it out. */
const CATALOG = [
  { ttpId: 'T1496.003', statusGlobal: 'validated' },
  { ttpId: 'T1557.004', statusGlobal: 'partial' },
  { ttpId: 'T1590.002', statusGlobal: 'not_covered' },
  { ttpId: 'T1137', statusGlobal: 'not_evaluated' },
  { ttpId: 'T1137.002', statusGlobal: 'validated' },
  { ttpId: 'T1199', statusGlobal: 'in_progress' },
  { ttpId: 'T1072', statusGlobal: 'validated' },
  { ttpId: 'T1606', statusGlobal: 'validated' },
  { ttpId: 'T1005', statusGlobal: 'validated' },
  { ttpId: 'T1025', statusGlobal: 'not_covered' },
  { ttpId: 'T1078.001', statusGlobal: 'validated' },
  { ttpId: 'T1078.003', statusGlobal: 'validated' },
  { ttpId: 'T1574.002', statusGlobal: 'not_evaluated', revoked: true },
  { ttpId: 'T1210', statusGlobal: 'partial' },
] as const;
const statusOf = new Map<string, string>(
  CATALOG.filter((technique) => !('revoked' in technique)).map((technique) => [technique.ttpId, technique.statusGlobal]),
);
const inCatalog = new Set<string>(CATALOG.map((technique) => technique.ttpId));

/** The documented rule, written out independently of the SQL. */
function expectedStatus(attackIds: Set<string>): string {
  const statuses = [...attackIds].filter((id) => statusOf.has(id)).map((id) => statusOf.get(id)!);
  if (!statuses.length) return 'not_evaluated';
  if (statuses.every((status) => status === 'validated')) return 'covered';
  if (statuses.some((status) => status === 'validated' || status === 'partial')) return 'partial';
  return 'gap';
}
const expectedStatuses = (expected: ReturnType<typeof expectedOf>) =>
  Object.fromEntries(expected.controls.map((control) => [control, expectedStatus(expected.attackIdsOf.get(control)!)]));
const controlsWith = (expected: ReturnType<typeof expectedOf>, status: string) =>
  Object.entries(expectedStatuses(expected))
    .filter(([, value]) => value === status)
    .map(([control]) => control);

let viewer: string;
let files: FileServer;
const served = new Map<string, string>([
  [`/${NIST_FILE}`, nist.text],
  [`/${CSA_FILE}`, csa.text],
]);

const run = (importer: Importer, location: string): Promise<ImportReport> =>
  importer({ services: app.services, location, actor: SYSTEM_ACTOR, log: app.services.log });

const app = useTestApp(FILE_SERVER_ENV);

beforeAll(async () => {
  viewer = await app.tokenFor('viewer');
  for (const { ttpId, statusGlobal, ...rest } of CATALOG) {
    await app.services.prisma.technique.create({ data: { ttpId, name: `Technique ${ttpId}`, statusGlobal, revoked: 'revoked' in rest } });
  }
  files = await serveFiles((path) => served.get(path));
});
afterAll(async () => {
  await files?.close();
});

describe('CTID Mappings Explorer import', () => {
  it('the shared files hold the figures the data README states', () => {
    expect(nist.objects).toHaveLength(5410);
    expect(nist.mappable).toHaveLength(5314);
    expect(nist.controls).toHaveLength(109);
    expect(nist.attackIds.size).toBe(470);
    expect(csa.objects).toHaveLength(940);
    expect(csa.mappable).toHaveLength(792);
    expect(csa.controls).toHaveLength(204);
    // The README's 214 counts the one row whose attack_object_id is null.
    expect(new Set(csa.objects.map((object) => object.attack_object_id)).size).toBe(214);
    expect(csa.attackIds.size).toBe(213);
  });

  it('imports NIST 800-53 by path: framework, every control with its family, one mapping per (control, ATT&CK id, type)', async () => {
    const report = await run(importNist80053, join(CTID_DIR, NIST_FILE));
    expect(report.counts).toEqual({ controls: nist.controls.length, mappings: nist.mappings.size, attack_ids: nist.attackIds.size });
    expect(report.changes).toEqual({
      framework: { new: 1, updated: 0, unchanged: 0, removed: 0 },
      controls: { new: 109, updated: 0, unchanged: 0, removed: 0 },
      mappings: { new: nist.mappings.size, updated: 0, unchanged: 0, removed: 0 },
      rows: { read: 5410, non_mappable: 96, invalid: 0 },
    });
    const framework = await app.services.prisma.complianceFramework.findUniqueOrThrow({ where: { key: 'nist_800_53' } });
    expect(framework).toMatchObject({ name: 'NIST SP 800-53', version: 'rev5', attackVersion: '16.1' });
    const control = await app.services.prisma.complianceControl.findFirstOrThrow({
      where: { frameworkId: framework.id, controlId: 'CM-03' },
    });
    expect(control).toMatchObject({ name: 'Configuration Change Control', family: 'Configuration Management' });
    const mapping = await app.services.prisma.complianceMapping.findFirstOrThrow({ where: { controlId: control.id, attackId: 'T1666' } });
    expect(mapping).toMatchObject({
      mappingType: 'mitigates',
      comments: nist.mappable.find((object) => object.capability_id === 'CM-03' && object.attack_object_id === 'T1666')!.comments,
    });
  });

  it('imports CSA CCM over HTTP, keeping controls CTID marks non-mappable and joining the comments of repeated rows', async () => {
    const report = await run(importCsaCcm, `${files.url}/${CSA_FILE}`);
    expect(report.counts).toEqual({ controls: 204, mappings: csa.mappings.size, attack_ids: 213 });
    expect(report.changes.rows).toEqual({ read: 940, non_mappable: 148, invalid: 0 });
    const framework = await app.services.prisma.complianceFramework.findUniqueOrThrow({ where: { key: 'csa_ccm' } });
    expect(framework).toMatchObject({ name: 'CSA Cloud Controls Matrix', version: '4.1', attackVersion: '17.1' });
    const repeated = new Map<string, string[]>();
    for (const object of csa.mappable) {
      const key = `${object.capability_id}|${object.attack_object_id}`;
      repeated.set(key, [...(repeated.get(key) ?? []), object.comments ?? '']);
    }
    const [key, comments] = [...repeated].find(([, list]) => new Set(list).size > 1)!;
    const [controlId, attackId] = key.split('|');
    const mapping = await app.services.prisma.complianceMapping.findFirstOrThrow({
      where: { attackId, control: { controlId, frameworkId: framework.id } },
    });
    for (const comment of comments) expect(mapping.comments).toContain(comment.trim());
    const iam = await app.services.prisma.complianceControl.findFirstOrThrow({ where: { frameworkId: framework.id, controlId: 'IAM-01' } });
    expect(iam.family).toBe('Identity and Access Management');
  });

  it('a second run, by the other way of reading, changes nothing', async () => {
    const nistAgain = await run(importNist80053, `${files.url}/${NIST_FILE}`);
    expect(nistAgain.changes.controls).toEqual({ new: 0, updated: 0, unchanged: 109, removed: 0 });
    expect(nistAgain.changes.mappings).toEqual({ new: 0, updated: 0, unchanged: nist.mappings.size, removed: 0 });
    expect(nistAgain.changes.framework).toEqual({ new: 0, updated: 0, unchanged: 1, removed: 0 });
    const csaAgain = await run(importCsaCcm, join(CTID_DIR, CSA_FILE));
    expect(csaAgain.changes.mappings).toEqual({ new: 0, updated: 0, unchanged: csa.mappings.size, removed: 0 });
  });

  it('controls and mappings gone from the file are removed, changed comments updated', async () => {
    const changed = structuredClone(nist.document);
    changed.mapping_objects = changed.mapping_objects.filter((object: MappingObject) => object.capability_id !== 'SC-05');
    const edited = changed.mapping_objects.find(
      (object: MappingObject) => object.capability_id === 'CM-03' && object.attack_object_id === 'T1666',
    )!;
    edited.comments = 'Reviewed wording.';
    served.set('/changed.json', JSON.stringify(changed));
    const report = await run(importNist80053, `${files.url}/changed.json`);
    const sc05 = nist.attackIdsOf.get('SC-05')!.size;
    expect(report.changes.controls).toEqual({ new: 0, updated: 0, unchanged: 108, removed: 1 });
    expect(report.changes.mappings).toEqual({ new: 0, updated: 1, unchanged: nist.mappings.size - sc05 - 1, removed: sc05 });
    expect(report.counts.controls).toBe(108);
    const restored = await run(importNist80053, join(CTID_DIR, NIST_FILE));
    expect(restored.changes.controls).toMatchObject({ new: 1, removed: 0 });
    expect(restored.changes.mappings).toMatchObject({ new: sc05, updated: 1, removed: 0 });
  });

  it('a file of another framework, or no file, is refused without touching the data', async () => {
    await expect(run(importNist80053, join(CTID_DIR, CSA_FILE))).rejects.toMatchObject({
      code: 'SOURCE_UNAVAILABLE',
      message: expect.stringContaining('expected a nist_800_53'),
    });
    await expect(run(importCsaCcm, `${files.url}/missing.json`)).rejects.toMatchObject({ code: 'SOURCE_UNAVAILABLE' });
    await expect(run(importCsaCcm, referenceData('d3fend', 'd3fend-1.2.0-techniques.csv'))).rejects.toMatchObject({
      code: 'SOURCE_UNAVAILABLE',
    });
    expect(await app.services.prisma.complianceMapping.count()).toBe(nist.mappings.size + csa.mappings.size);
  });
});

describe('compliance endpoints', () => {
  it('lists the frameworks with their counts', async () => {
    const answer = await app.api('GET', '/compliance/frameworks', { token: viewer });
    expect(answer.status).toBe(200);
    const mappedControls = (expected: ReturnType<typeof expectedOf>) =>
      [...expected.attackIdsOf.values()].filter((ids) => ids.size > 0).length;
    expect(answer.body).toEqual([
      expect.objectContaining({
        key: 'csa_ccm',
        version: '4.1',
        attack_version: '17.1',
        control_count: 204,
        mapped_control_count: mappedControls(csa),
        mapping_count: csa.mappings.size,
        attack_id_count: 213,
      }),
      expect.objectContaining({
        key: 'nist_800_53',
        name: 'NIST SP 800-53',
        control_count: 109,
        mapped_control_count: 109,
        mapping_count: nist.mappings.size,
        attack_id_count: 470,
      }),
    ]);
  });

  it('controls carry the coverage status the rule gives from the catalog techniques', async () => {
    const answer = await app.api('GET', '/compliance/nist_800_53/controls?limit=200', { token: viewer });
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ total: 109, offset: 0, limit: 200 });
    const statuses = Object.fromEntries(answer.body.items.map((control: any) => [control.control_id, control.coverage_status]));
    expect(statuses).toEqual(expectedStatuses(nist));
    // The cases the rule names: all validated; some validated; none validated; a revoked technique left out.
    expect(statuses).toMatchObject({
      'SC-05': 'covered',
      'SC-17': 'covered',
      'CM-12': 'partial',
      'SC-40': 'partial',
      'AC-08': 'gap',
      'SC-32': 'gap',
      'SA-16': 'covered',
    });
    const sa16 = answer.body.items.find((control: any) => control.control_id === 'SA-16');
    expect(sa16).toMatchObject({
      name: expect.any(String),
      family: 'System and Services Acquisition',
      mapped_count: 3,
      assessed_count: 2,
      validated_count: 2,
    });
    expect(sa16.techniques).toEqual([
      expect.objectContaining({
        attack_id: 'T1078.001',
        in_catalog: true,
        assessed: true,
        status_global: 'validated',
        mapping_type: 'mitigates',
      }),
      expect.objectContaining({ attack_id: 'T1078.003', in_catalog: true, assessed: true, status_global: 'validated' }),
      expect.objectContaining({ attack_id: 'T1574.002', in_catalog: true, assessed: false, status_global: 'not_evaluated' }),
    ]);
    const ac10 = answer.body.items.find((control: any) => control.control_id === 'AC-10');
    expect(ac10.techniques.filter((technique: any) => !technique.in_catalog).map((technique: any) => technique.technique_name)).toEqual([
      null,
      null,
    ]);
  });

  it('filters controls by status, family and search; pages them', async () => {
    const covered = await app.api('GET', '/compliance/nist_800_53/controls?status=covered&limit=200', { token: viewer });
    expect(covered.body.items.map((control: any) => control.control_id)).toEqual(controlsWith(nist, 'covered'));
    const byCode = await app.api('GET', '/compliance/nist_800_53/controls?family=AC&limit=200', { token: viewer });
    const acControls = nist.controls.filter((control) => control.startsWith('AC-'));
    expect(byCode.body.items.map((control: any) => control.control_id)).toEqual(acControls);
    const byName = await app.api('GET', '/compliance/nist_800_53/controls?family=access%20control&limit=200', { token: viewer });
    expect(byName.body.total).toBe(acControls.length);
    const search = await app.api('GET', '/compliance/nist_800_53/controls?search=change%20control', { token: viewer });
    expect(search.body.items.map((control: any) => control.control_id)).toContain('CM-03');
    const second = await app.api('GET', '/compliance/nist_800_53/controls?limit=5&offset=5', { token: viewer });
    expect(second.body.items.map((control: any) => control.control_id)).toEqual(nist.controls.slice(5, 10));
    expect(second.body.total).toBe(109);
  });

  it('the summary counts controls by status and lists the mapped ATT&CK ids the catalog lacks', async () => {
    const answer = await app.api('GET', '/compliance/nist_800_53/summary', { token: viewer });
    expect(answer.status).toBe(200);
    const count = (status: string) => controlsWith(nist, status).length;
    const absent = [...nist.attackIds].filter((id) => !inCatalog.has(id)).sort();
    expect(answer.body).toMatchObject({
      framework: { key: 'nist_800_53', version: 'rev5' },
      total: 109,
      covered: count('covered'),
      partial: count('partial'),
      gaps: count('gap'),
      not_evaluated: count('not_evaluated'),
      unmapped: 0,
      mapped_attack_id_count: 470,
      absent_attack_ids: absent,
      absent_count: absent.length,
      inactive_attack_ids: ['T1574.002'],
      inactive_count: 1,
    });
    expect(answer.body.covered + answer.body.partial + answer.body.gaps + answer.body.not_evaluated).toBe(109);
    const assessable = count('covered') + count('partial') + count('gap');
    expect(answer.body.coverage_percentage).toBeCloseTo((count('covered') / assessable) * 100, 1);
    const byUuid = await app.api('GET', `/compliance/${answer.body.framework.id}/summary`, { token: viewer });
    expect(byUuid.body).toEqual(answer.body);
  });

  it('gaps lists the uncovered controls with the techniques to work on', async () => {
    const answer = await app.api('GET', '/compliance/nist_800_53/gaps?limit=200', { token: viewer });
    expect(answer.status).toBe(200);
    const gaps = controlsWith(nist, 'gap');
    expect(gaps.length).toBeGreaterThan(0);
    expect(answer.body.total).toBe(gaps.length);
    expect(answer.body.items.map((control: any) => control.control_id)).toEqual(gaps);
    for (const control of answer.body.items) {
      expect(control.coverage_status).toBe('gap');
      const assessed = control.techniques.filter((technique: any) => technique.assessed);
      expect(assessed.length).toBeGreaterThan(0);
      expect(assessed.every((technique: any) => !['validated', 'partial'].includes(technique.status_global))).toBe(true);
    }
  });

  it('CSA CCM: controls without any mapping are not evaluated and counted as unmapped', async () => {
    const summary = await app.api('GET', '/compliance/csa_ccm/summary', { token: viewer });
    const unmapped = [...csa.attackIdsOf.values()].filter((ids) => ids.size === 0).length;
    expect(summary.body).toMatchObject({
      total: 204,
      unmapped,
      not_evaluated: controlsWith(csa, 'not_evaluated').length,
      covered: controlsWith(csa, 'covered').length,
      gaps: controlsWith(csa, 'gap').length,
    });
    expect(summary.body.absent_count).toBe([...csa.attackIds].filter((id) => !inCatalog.has(id)).length);
  });

  it('unknown frameworks answer 404 and bad filters 400', async () => {
    for (const path of [
      '/compliance/cis/controls',
      '/compliance/cis/summary',
      '/compliance/cis/gaps',
      '/compliance/0b8e7f4e-1111-4222-8333-444455556666/summary',
    ]) {
      expect(await app.api('GET', path, { token: viewer })).toMatchObject({ status: 404, body: { code: 'NOT_FOUND' } });
    }
    expect(await app.api('GET', '/compliance/nist_800_53/controls?status=great', { token: viewer })).toMatchObject({
      status: 400,
      body: { field: 'status' },
    });
    expect(await app.api('GET', '/compliance/nist_800_53/controls?limit=500', { token: viewer })).toMatchObject({
      status: 400,
      body: { field: 'limit' },
    });
    expect(await app.api('GET', '/compliance/nist_800_53/gaps?offset=-2', { token: viewer })).toMatchObject({
      status: 400,
      body: { field: 'offset' },
    });
    expect((await app.api('GET', '/compliance/frameworks')).status).toBe(401);
  });

  it('GraphQL answers the same questions', async () => {
    const answer = await app.graphql(
      `query ($framework: ID!) {
        complianceFramework(id: $framework) { key controlCount }
        complianceSummary(frameworkId: $framework) { total covered partial gaps notEvaluated inactiveAttackIds }
        complianceControls(frameworkId: $framework, filter: { status: partial }, limit: 200) { total items { controlId coverageStatus techniques { attackId statusGlobal } } }
        complianceGaps(frameworkId: $framework) { total }
      }`,
      { framework: 'nist_800_53' },
      viewer,
    );
    expect(answer.errors).toBeUndefined();
    expect(answer.data.complianceFramework).toEqual({ key: 'nist_800_53', controlCount: 109 });
    expect(answer.data.complianceSummary).toEqual({
      total: 109,
      covered: controlsWith(nist, 'covered').length,
      partial: controlsWith(nist, 'partial').length,
      gaps: controlsWith(nist, 'gap').length,
      notEvaluated: controlsWith(nist, 'not_evaluated').length,
      inactiveAttackIds: ['T1574.002'],
    });
    expect(answer.data.complianceControls.items.map((control: any) => control.controlId)).toEqual(controlsWith(nist, 'partial'));
    const cm12 = answer.data.complianceControls.items.find((control: any) => control.controlId === 'CM-12');
    expect(cm12.techniques).toEqual([
      { attackId: 'T1005', statusGlobal: 'validated' },
      { attackId: 'T1025', statusGlobal: 'not_covered' },
    ]);
    expect(answer.data.complianceGaps.total).toBe(controlsWith(nist, 'gap').length);
    const missing = await app.graphql(`{ complianceSummary(frameworkId: "cis") { total } }`, {}, viewer);
    expect(missing.errors?.[0].extensions).toMatchObject({ code: 'NOT_FOUND', status: 404 });
  });

  it('a technique lists the controls mapped to it in every framework, by framework and control id, a page at a time', async () => {
    /** The controls each file maps to `attackId`, with their mapping types, as the field orders them. */
    const expectedControls = (attackId: string) =>
      [
        ['csa_ccm', csa],
        ['nist_800_53', nist],
      ].flatMap(([key, expected]) => {
        const types = new Map<string, Set<string>>();
        for (const object of (expected as typeof nist).mappable.filter((mapping) => mapping.attack_object_id === attackId)) {
          types.set(object.capability_id!, (types.get(object.capability_id!) ?? new Set()).add(object.mapping_type!));
        }
        return [...types.keys()]
          .sort()
          .map((controlId) => ({ frameworkKey: key, controlId, mappingTypes: [...types.get(controlId)!].sort() }));
      });
    const ttpIds = CATALOG.map((technique) => technique.ttpId);
    for (const ttpId of ttpIds) {
      const answer = await app.graphql(
        `query ($ttpId: String!) { technique(ttpId: $ttpId) { complianceControls(limit: 200) { frameworkKey frameworkName controlId name mappingTypes } } }`,
        { ttpId },
        viewer,
      );
      expect(answer.errors, ttpId).toBeUndefined();
      const controls: any[] = answer.data.technique.complianceControls;
      expect(
        controls.map(({ frameworkKey, controlId, mappingTypes }) => ({ frameworkKey, controlId, mappingTypes })),
        ttpId,
      ).toEqual(expectedControls(ttpId));
      for (const control of controls) expect(control.name && control.frameworkName, `${ttpId} ${control.controlId}`).toBeTruthy();
    }
    // A list of techniques loads them in one batch, each its first page (50).
    const list = await app.graphql(`{ techniques { ttpId complianceControls { controlId } } }`, {}, viewer);
    expect(list.errors).toBeUndefined();
    // (the list leaves out revoked techniques)
    expect(list.data.techniques.map((technique: any) => technique.ttpId).sort()).toEqual([...statusOf.keys()].sort());
    for (const technique of list.data.techniques) {
      expect(
        technique.complianceControls.map((control: any) => control.controlId),
        technique.ttpId,
      ).toEqual(
        expectedControls(technique.ttpId)
          .slice(0, 50)
          .map((control) => control.controlId),
      );
    }
    // Both frameworks map T1072 (software deployment tools): 27 NIST controls and 9 CSA ones.
    const both = expectedControls('T1072');
    expect(both).toHaveLength(36);
    expect(new Set(both.map((control) => control.frameworkKey))).toEqual(new Set(['csa_ccm', 'nist_800_53']));

    const paged = await app.graphql(
      `{ technique(ttpId: "T1072") { complianceControls(offset: 8, limit: 2) { controlId frameworkKey } } }`,
      {},
      viewer,
    );
    // The page across the two frameworks: the last CSA control, then the first NIST one.
    expect(paged.data.technique.complianceControls).toEqual(
      both.slice(8, 10).map(({ controlId, frameworkKey }) => ({ controlId, frameworkKey })),
    );
    expect(paged.data.technique.complianceControls.map((control: any) => control.frameworkKey)).toEqual(['csa_ccm', 'nist_800_53']);
    const tooMany = await app.graphql(`{ technique(ttpId: "T1072") { complianceControls(limit: 501) { controlId } } }`, {}, viewer);
    expect(tooMany.errors?.[0].extensions).toMatchObject({ code: 'VALIDATION_ERROR' });
  });

  it('a status change of a catalog technique moves the controls mapped to it', async () => {
    await app.services.prisma.technique.update({ where: { ttpId: 'T1025' }, data: { statusGlobal: 'validated' } });
    const answer = await app.api('GET', '/compliance/nist_800_53/controls?search=CM-12', { token: viewer });
    expect(answer.body.items).toEqual([expect.objectContaining({ control_id: 'CM-12', coverage_status: 'covered' })]);
    await app.services.prisma.technique.update({ where: { ttpId: 'T1025' }, data: { statusGlobal: 'not_covered' } });
  });
});

describe('against the real ATT&CK 18.1 catalog', () => {
  it('only the ids the data README names are absent (T1521.003, a Mobile id) or retired (T1574.002, revoked)', async () => {
    const catalogApp = await startTestApp();
    try {
      const context = { services: catalogApp.services, actor: SYSTEM_ACTOR, log: catalogApp.services.log };
      await importAttackEnterprise({ ...context, location: referenceData('attack', 'enterprise-attack-18.1.json') });
      await importNist80053({ ...context, location: join(CTID_DIR, NIST_FILE) });
      await importCsaCcm({ ...context, location: join(CTID_DIR, CSA_FILE) });
      const token = await catalogApp.tokenFor('viewer');
      const nistSummary = (await catalogApp.api('GET', '/compliance/nist_800_53/summary', { token })).body;
      expect(nistSummary).toMatchObject({
        mapped_attack_id_count: 470,
        absent_attack_ids: ['T1521.003'],
        inactive_attack_ids: ['T1574.002'],
      });
      // A fresh catalog has nothing validated yet: every control with an assessable technique is a gap.
      expect(nistSummary).toMatchObject({ total: 109, covered: 0, partial: 0, gaps: 109, not_evaluated: 0 });
      const csaSummary = (await catalogApp.api('GET', '/compliance/csa_ccm/summary', { token })).body;
      const mappedControls = [...csa.attackIdsOf.values()].filter((ids) => ids.size > 0).length;
      expect(csaSummary).toMatchObject({
        mapped_attack_id_count: 213,
        absent_count: 0,
        inactive_count: 0,
        gaps: mappedControls,
        not_evaluated: 204 - mappedControls,
      });
    } finally {
      await catalogApp.close();
    }
  }, 120_000);
});
