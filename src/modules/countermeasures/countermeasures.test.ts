import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SYSTEM_ACTOR } from '../../db/unit-of-work.ts';
import type { ImportReport } from '../../sources/importer.ts';
import { importAttackEnterprise } from '../catalog/importer.ts';
import { importD3fend } from './importer.ts';
import { startTestApp, useTestApp } from '../../../test/helpers/app.ts';
import { FILE_SERVER_ENV, serveFiles, type FileServer } from '../../../test/helpers/file-server.ts';
import { countQueries } from '../../../test/helpers/queries.ts';
import { referenceData } from '../../../test/helpers/reference-data.ts';

const D3FEND_DIR = referenceData('d3fend');
const MAPPINGS_FILE = 'd3fend-1.2.0-attack-mappings.csv';
const TECHNIQUES_FILE = 'd3fend-1.2.0-techniques.csv';
const MAPPINGS_PATH = join(D3FEND_DIR, MAPPINGS_FILE);

type Row = Record<string, string>;
const mappingText = readFileSync(MAPPINGS_PATH, 'utf8');
const mappingRows: Row[] = parse(mappingText, { columns: true, skip_empty_lines: true });
const techniqueRows: Row[] = parse(readFileSync(join(D3FEND_DIR, TECHNIQUES_FILE), 'utf8'), { columns: true, skip_empty_lines: true });

/** Expected figures, derived here from the files themselves. */
const pairs = new Map<string, Row[]>();
for (const row of mappingRows) {
  const key = `${row.d3fend_id}|${row.attack_id}`;
  pairs.set(key, [...(pairs.get(key) ?? []), row]);
}
const attackIds = new Set(mappingRows.map((row) => row.attack_id));
const mappedD3fendIds = new Set(mappingRows.map((row) => row.d3fend_id));
const pairsOf = (filter: (d3fendId: string, attackId: string) => boolean) =>
  [...pairs.keys()].map((key) => key.split('|')).filter(([d3fendId, attackId]) => filter(d3fendId, attackId));
const relationsOf = (d3fendId: string, attackId: string) =>
  pairs.get(`${d3fendId}|${attackId}`)!.map((row) => ({
    def_artifact_relation: row.def_artifact_relation,
    def_artifact: row.def_artifact,
    off_artifact_relation: row.off_artifact_relation,
    off_artifact: row.off_artifact,
  }));

/** Catalog techniques with known statuses (the ATT&CK import is another module's; these stand in for it). */
const CATALOG = [
  { ttpId: 'T1001.001', name: 'Junk Data', statusGlobal: 'validated' },
  { ttpId: 'T1059', name: 'Command and Scripting Interpreter', statusGlobal: 'partial' },
  { ttpId: 'T1110', name: 'Brute Force', statusGlobal: 'not_covered' },
  { ttpId: 'T9000', name: 'Custom technique without countermeasures', statusGlobal: 'in_progress' },
] as const;

let viewer: string;
let files: FileServer;
const served = new Map<string, string>();

const runImport = (location: string): Promise<ImportReport> =>
  importD3fend({ services: app.services, location, actor: SYSTEM_ACTOR, log: app.services.log });

const app = useTestApp(FILE_SERVER_ENV);

beforeAll(async () => {
  viewer = await app.tokenFor('viewer');
  for (const technique of CATALOG)
    await app.services.prisma.technique.create({ data: { ...technique, isCustom: technique.ttpId === 'T9000' } });
  served.set(`/full/${MAPPINGS_FILE}`, mappingText);
  served.set(`/full/${TECHNIQUES_FILE}`, readFileSync(join(D3FEND_DIR, TECHNIQUES_FILE), 'utf8'));
  served.set(`/mappings-only/${MAPPINGS_FILE}`, mappingText);
  files = await serveFiles((path) => served.get(path));
});
afterAll(async () => {
  await files?.close();
});

describe('D3FEND import', () => {
  it('the shared files hold the figures the data README states', () => {
    expect(mappingRows).toHaveLength(6602);
    expect(pairs.size).toBe(4910);
    expect(attackIds.size).toBe(419);
    expect(techniqueRows).toHaveLength(248);
    expect(mappedD3fendIds.size).toBe(139);
    expect(techniqueRows.filter((row) => row.d3fend_tactic === 'Detect')).toHaveLength(79);
  });

  it('imports the mapping CSV by path with its sibling techniques file: every technique, one mapping per pair', async () => {
    const report = await runImport(MAPPINGS_PATH);
    expect(report.counts).toEqual({ defensive_techniques: techniqueRows.length, mappings: pairs.size, attack_ids: attackIds.size });
    expect(report.changes).toEqual({
      defensive_techniques: { new: 248, updated: 0, unchanged: 0, removed: 0 },
      mappings: { new: 4910, updated: 0, unchanged: 0, removed: 0 },
      rows: { read: 6602, invalid: 0 },
    });
    const ntf = await app.services.prisma.defensiveTechnique.findUniqueOrThrow({ where: { d3fendId: 'D3-NTF' } });
    expect(ntf).toMatchObject({ name: 'Network Traffic Filtering', tactic: 'Isolate' });
    const csv = techniqueRows.find((row) => row.d3fend_id === 'D3-NTF')!;
    expect(ntf).toMatchObject({ parent: csv.parent_d3fend_id || null, topLevel: csv.top_technique_id });
    const mapping = await app.services.prisma.countermeasureMapping.findFirstOrThrow({
      where: { defensiveTechniqueId: ntf.id, attackId: 'T1001.001' },
    });
    expect(mapping.details).toEqual(expect.arrayContaining(relationsOf('D3-NTF', 'T1001.001')));
    expect(mapping.details).toHaveLength(relationsOf('D3-NTF', 'T1001.001').length);
    const audit = await app.services.prisma.auditLog.count({ where: { action: 'import_d3fend' } });
    expect(audit).toBeGreaterThanOrEqual(3);
  });

  it('a second run of the same file changes nothing', async () => {
    const report = await runImport(MAPPINGS_PATH);
    expect(report.changes.defensive_techniques).toEqual({ new: 0, updated: 0, unchanged: 248, removed: 0 });
    expect(report.changes.mappings).toEqual({ new: 0, updated: 0, unchanged: 4910, removed: 0 });
  });

  it('over HTTP: the same files change nothing; a changed file updates, removes and adds mappings', async () => {
    const same = await runImport(`${files.url}/full/${MAPPINGS_FILE}`);
    expect(same.changes.mappings).toEqual({ new: 0, updated: 0, unchanged: 4910, removed: 0 });

    // Drop every row of T1001.001, drop one artifact path of a multi-path pair, and add a pair.
    const [multiKey] = [...pairs].find(([key, rows]) => rows.length > 1 && !key.endsWith('|T1001.001'))!;
    const [multiD3fend, multiAttack] = multiKey.split('|');
    const keptRows = mappingRows.filter((row) => row.attack_id !== 'T1001.001');
    const droppedPath = keptRows.findIndex((row) => row.d3fend_id === multiD3fend && row.attack_id === multiAttack);
    keptRows.splice(droppedPath, 1);
    const template = mappingRows.find((row) => row.d3fend_id === 'D3-NTF')!;
    keptRows.push({ ...template, attack_id: 'T9000', attack_name: 'Custom' });
    const header = Object.keys(mappingRows[0]);
    served.set(
      `/changed/${MAPPINGS_FILE}`,
      [header.join(','), ...keptRows.map((row) => header.map((column) => `"${row[column].replaceAll('"', '""')}"`).join(','))].join('\n'),
    );
    served.set(`/changed/${TECHNIQUES_FILE}`, served.get(`/full/${TECHNIQUES_FILE}`)!);

    const removedPairs = pairsOf((_d3fendId, attackId) => attackId === 'T1001.001').length;
    const changed = await runImport(`${files.url}/changed/${MAPPINGS_FILE}`);
    expect(changed.changes.mappings).toEqual({ new: 1, updated: 1, unchanged: 4910 - removedPairs - 1, removed: removedPairs });
    expect(changed.counts).toEqual({ defensive_techniques: 248, mappings: 4910 - removedPairs + 1, attack_ids: 419 });
    const updated = await app.services.prisma.countermeasureMapping.findFirstOrThrow({
      where: { attackId: multiAttack, defensiveTechnique: { d3fendId: multiD3fend } },
    });
    expect(updated.details).toHaveLength(pairs.get(multiKey)!.length - 1);
    expect(await app.services.prisma.countermeasureMapping.count({ where: { attackId: 'T1001.001' } })).toBe(0);

    const restored = await runImport(MAPPINGS_PATH);
    expect(restored.changes.mappings).toEqual({ new: removedPairs, updated: 1, unchanged: 4910 - removedPairs - 1, removed: 1 });
  });

  it('without a techniques file next to the mappings, the technique list is derived from the mapping rows', async () => {
    const derived = await runImport(`${files.url}/mappings-only/${MAPPINGS_FILE}`);
    expect(derived.counts).toEqual({ defensive_techniques: mappedD3fendIds.size, mappings: 4910, attack_ids: 419 });
    expect(derived.changes.defensive_techniques).toMatchObject({ new: 0, removed: 248 - mappedD3fendIds.size });
    const back = await runImport(`${files.url}/full/${MAPPINGS_FILE}`);
    expect(back.changes.defensive_techniques).toMatchObject({ new: 248 - mappedD3fendIds.size, removed: 0 });
    expect(back.counts).toEqual({ defensive_techniques: 248, mappings: 4910, attack_ids: 419 });
  });

  it('an unreachable or wrong source fails without touching the catalog', async () => {
    await expect(runImport(`${files.url}/missing/${MAPPINGS_FILE}`)).rejects.toMatchObject({ code: 'SOURCE_UNAVAILABLE' });
    await expect(runImport(join(D3FEND_DIR, TECHNIQUES_FILE))).rejects.toMatchObject({ code: 'SOURCE_UNAVAILABLE' });
    served.set(
      '/official/d3fend-full-mappings.csv',
      'def_tech_label,def_artifact_rel_label,def_artifact_label,off_tech_id,def_tech\nNetwork Traffic Filtering,filters,Network Traffic,T1001.001,http://d3fend.mitre.org/ontologies/d3fend.owl#NetworkTrafficFiltering\n',
    );
    await expect(runImport(`${files.url}/official/d3fend-full-mappings.csv`)).rejects.toMatchObject({
      message: expect.stringContaining("D3FEND's inferred export"),
    });
    expect(await app.services.prisma.countermeasureMapping.count()).toBe(4910);
  });
});

describe('countermeasure endpoints', () => {
  it('lists countermeasures a page at a time with the number of mapped techniques', async () => {
    const listed = await app.api('GET', '/countermeasures?limit=3&offset=1', { token: viewer });
    expect(listed.status).toBe(200);
    const sortedIds = techniqueRows.map((row) => row.d3fend_id).sort();
    expect(listed.body).toMatchObject({ total: 248, offset: 1, limit: 3 });
    expect(listed.body.items.map((item: any) => item.d3fend_id)).toEqual(sortedIds.slice(1, 4));
    for (const item of listed.body.items) expect(item.technique_count).toBe(pairsOf((d3fendId) => d3fendId === item.d3fend_id).length);
    const first = (await app.api('GET', '/countermeasures', { token: viewer })).body;
    expect(first).toMatchObject({ total: 248, offset: 0, limit: 50 });
    expect(first.items).toHaveLength(50);
  });

  it('filters by tactic, ttp_id and search', async () => {
    const detect = await app.api('GET', '/countermeasures?tactic=detect&limit=200', { token: viewer });
    expect(detect.body.total).toBe(techniqueRows.filter((row) => row.d3fend_tactic === 'Detect').length);
    expect(new Set(detect.body.items.map((item: any) => item.tactic))).toEqual(new Set(['Detect']));
    const forT1059 = await app.api('GET', '/countermeasures?ttp_id=T1059&limit=200', { token: viewer });
    const expected = pairsOf((_d3fendId, attackId) => attackId === 'T1059')
      .map(([d3fendId]) => d3fendId)
      .sort();
    expect(forT1059.body.items.map((item: any) => item.d3fend_id)).toEqual(expected);
    const search = await app.api('GET', '/countermeasures?search=traffic%20filtering', { token: viewer });
    expect(search.body.items.map((item: any) => item.d3fend_id)).toContain('D3-NTF');
    expect(search.body.items.every((item: any) => /traffic filtering/i.test(item.name))).toBe(true);
  });

  it('bad paging answers 400 naming the field', async () => {
    expect(await app.api('GET', '/countermeasures?limit=201', { token: viewer })).toMatchObject({
      status: 400,
      body: { code: 'VALIDATION_ERROR', field: 'limit' },
    });
    expect(await app.api('GET', '/countermeasures?limit=0', { token: viewer })).toMatchObject({ status: 400, body: { field: 'limit' } });
    expect(await app.api('GET', '/countermeasures?offset=-1', { token: viewer })).toMatchObject({ status: 400, body: { field: 'offset' } });
    expect(await app.api('GET', '/countermeasures?limit=ten', { token: viewer })).toMatchObject({ status: 400, body: { field: 'limit' } });
    expect((await app.api('GET', '/countermeasures')).status).toBe(401);
  });

  it('one countermeasure by D3FEND id or uuid, with catalog status where the catalog holds the technique', async () => {
    const byD3fendId = await app.api('GET', '/countermeasures/d3-ntf', { token: viewer });
    expect(byD3fendId.status).toBe(200);
    const expectedAttackIds = pairsOf((d3fendId) => d3fendId === 'D3-NTF')
      .map(([, attackId]) => attackId)
      .sort();
    expect(byD3fendId.body).toMatchObject({
      d3fend_id: 'D3-NTF',
      name: 'Network Traffic Filtering',
      tactic: 'Isolate',
      technique_count: expectedAttackIds.length,
    });
    expect(byD3fendId.body.techniques.map((mapping: any) => mapping.attack_id)).toEqual(expectedAttackIds);
    const junk = byD3fendId.body.techniques.find((mapping: any) => mapping.attack_id === 'T1001.001');
    expect(junk).toMatchObject({ in_catalog: true, technique_name: 'Junk Data', status_global: 'validated', revoked: false });
    expect(junk.details).toEqual(expect.arrayContaining(relationsOf('D3-NTF', 'T1001.001')));
    const absent = byD3fendId.body.techniques.find((mapping: any) => !CATALOG.some((technique) => technique.ttpId === mapping.attack_id));
    expect(absent).toMatchObject({ in_catalog: false, technique_id: null, technique_name: null, status_global: null });

    const byUuid = await app.api('GET', `/countermeasures/${byD3fendId.body.id}`, { token: viewer });
    expect(byUuid.body).toEqual(byD3fendId.body);
    expect(await app.api('GET', '/countermeasures/D3-NOPE', { token: viewer })).toMatchObject({ status: 404, body: { code: 'NOT_FOUND' } });
    expect(await app.api('GET', '/countermeasures/6f1c1d1e-0000-4000-8000-000000000000', { token: viewer })).toMatchObject({ status: 404 });
  });

  it('a technique lists the countermeasures that counter it; unknown techniques answer 404', async () => {
    const answer = await app.api('GET', '/techniques/T1110/countermeasures', { token: viewer });
    expect(answer.status).toBe(200);
    const expected = pairsOf((_d3fendId, attackId) => attackId === 'T1110')
      .map(([d3fendId]) => d3fendId)
      .sort();
    expect(expected.length).toBeGreaterThan(0);
    expect(answer.body.map((item: any) => item.d3fend_id)).toEqual(expected);
    const first = answer.body[0];
    const csv = techniqueRows.find((row) => row.d3fend_id === first.d3fend_id)!;
    expect(first).toMatchObject({
      name: csv.d3fend_name,
      tactic: csv.d3fend_tactic,
      attack_id: 'T1110',
      details: expect.arrayContaining(relationsOf(first.d3fend_id, 'T1110')),
    });
    expect(await app.api('GET', '/techniques/T9000/countermeasures', { token: viewer })).toMatchObject({ status: 200, body: [] });
    expect(await app.api('GET', '/techniques/T1003/countermeasures', { token: viewer })).toMatchObject({
      status: 404,
      body: { code: 'NOT_FOUND' },
    });
  });

  it('GraphQL gives the same answers, and techniques load their countermeasures without a query per technique', async () => {
    const listed = await app.graphql(
      `{ countermeasures(filter: { ttpId: "T1059", tactic: "Isolate" }, limit: 2) { total items { d3fendId techniqueCount techniques { attackId inCatalog statusGlobal } } } }`,
      {},
      viewer,
    );
    const isolate = new Set(techniqueRows.filter((row) => row.d3fend_tactic === 'Isolate').map((row) => row.d3fend_id));
    expect(listed.data.countermeasures.total).toBe(pairsOf((d3fendId, attackId) => attackId === 'T1059' && isolate.has(d3fendId)).length);
    for (const item of listed.data.countermeasures.items) {
      expect(item.techniqueCount).toBe(item.techniques.length);
      expect(item.techniques.find((mapping: any) => mapping.attackId === 'T1059')).toEqual({
        attackId: 'T1059',
        inCatalog: true,
        statusGlobal: 'partial',
      });
    }

    const document = `{ techniques { ttpId countermeasures { d3fendId tactic defensiveTechnique { name } } } }`;
    const answer = await app.graphql(document, {}, viewer);
    const byTtpId = Object.fromEntries(
      answer.data.techniques.map((technique: any) => [technique.ttpId, technique.countermeasures.map((item: any) => item.d3fendId)]),
    );
    for (const { ttpId } of CATALOG)
      expect(byTtpId[ttpId]).toEqual(
        pairsOf((_d3fendId, attackId) => attackId === ttpId)
          .map(([d3fendId]) => d3fendId)
          .sort(),
      );

    const withFour = await countQueries(() => app.graphql(document, {}, viewer));
    for (let index = 0; index < 20; index += 1)
      await app.services.prisma.technique.create({ data: { ttpId: `T8${String(index).padStart(3, '0')}`, name: 'Extra' } });
    const withTwentyFour = await countQueries(() => app.graphql(document, {}, viewer));
    expect(withFour).toBeGreaterThan(0);
    expect(withTwentyFour).toBe(withFour);
    await app.services.prisma.technique.deleteMany({ where: { ttpId: { startsWith: 'T8' } } });

    const missing = await app.graphql(`{ techniqueCountermeasures(ttpId: "T1003") { d3fendId } }`, {}, viewer);
    expect(missing.errors?.[0].extensions).toMatchObject({ code: 'NOT_FOUND' });
  });
});

describe('against the real ATT&CK 18.1 catalog', () => {
  it('every mapped ATT&CK id is in the catalog: 414 active, 4 revoked, 1 deprecated, as the data README states', async () => {
    const catalogApp = await startTestApp();
    try {
      const context = { services: catalogApp.services, actor: SYSTEM_ACTOR, log: catalogApp.services.log };
      await importAttackEnterprise({ ...context, location: referenceData('attack', 'enterprise-attack-18.1.json') });
      await importD3fend({ ...context, location: MAPPINGS_PATH });
      const token = await catalogApp.tokenFor('viewer');
      const seen = new Map<string, { inCatalog: boolean; revoked: boolean; deprecated: boolean }>();
      for (const offset of [0, 200]) {
        const answer = await catalogApp.graphql(
          `query ($offset: Int) { countermeasures(offset: $offset, limit: 200) { items { techniques { attackId inCatalog revoked deprecated } } } }`,
          { offset },
          token,
        );
        for (const item of answer.data.countermeasures.items)
          for (const { attackId, ...state } of item.techniques) seen.set(attackId, state);
      }
      const states = [...seen.values()];
      expect(seen.size).toBe(419);
      expect(states.every((state) => state.inCatalog)).toBe(true);
      expect(states.filter((state) => state.revoked)).toHaveLength(4);
      expect(states.filter((state) => state.deprecated && !state.revoked)).toHaveLength(1);
      const answer = await catalogApp.api('GET', '/techniques/T1059.001/countermeasures', { token });
      expect(answer.body.map((item: any) => item.d3fend_id)).toEqual(
        pairsOf((_d3fendId, attackId) => attackId === 'T1059.001')
          .map(([d3fendId]) => d3fendId)
          .sort(),
      );
    } finally {
      await catalogApp.close();
    }
  }, 120_000);
});
