import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { Ajv } from 'ajv';
import { beforeAll, describe, expect, it } from 'vitest';
import type { CoverageStatus } from '../../generated/prisma/enums.ts';
import { useTestApp } from '../../../test/helpers/app.ts';
import { setSourceLocation } from '../../../test/helpers/data-sources.ts';

const layerSchema = JSON.parse(readFileSync(new URL('../../../test/fixtures/navigator-layer-4.5.schema.json', import.meta.url), 'utf8'));
const validateLayer = new Ajv({ allErrors: true }).compile(layerSchema);

/** Asserts that `layer` is a valid Navigator 4.5 layer and returns it. */
function valid(layer: any) {
  expect(validateLayer(layer), JSON.stringify(validateLayer.errors)).toBe(true);
  expect(layer.gradient.maxValue).toBeGreaterThan(layer.gradient.minValue);
  return layer;
}

const COLORS: Record<CoverageStatus, string> = {
  validated: '#31a354',
  partial: '#fec44f',
  in_progress: '#9ecae1',
  not_covered: '#de2d26',
  not_evaluated: '#d9d9d9',
};

let viewer: string;
const ids: Record<string, string> = {};

/**
 * Scores here come from coverage alone (no tests, no rules): 100 × 0.5 × coverage value, so validated 50,
 * partial 25, in_progress 12.5, not_covered and not_evaluated 0.
 */
const TECHNIQUES: { ttpId: string; status: CoverageStatus; tactics: string[]; platforms: string[]; parent?: string; extra?: object }[] = [
  { ttpId: 'T1059', status: 'validated', tactics: ['execution'], platforms: ['Windows', 'Linux'] },
  { ttpId: 'T1059.003', status: 'not_covered', tactics: ['execution'], platforms: ['Windows'], parent: 'T1059' },
  { ttpId: 'T1059.001', status: 'partial', tactics: ['execution'], platforms: ['Windows'], parent: 'T1059' },
  { ttpId: 'T1001', status: 'not_evaluated', tactics: ['execution'], platforms: ['Linux'] },
  { ttpId: 'T1547', status: 'in_progress', tactics: ['persistence', 'defense-evasion'], platforms: ['Windows'] },
  { ttpId: 'T1547.001', status: 'validated', tactics: ['persistence', 'defense-evasion'], platforms: ['Windows'], parent: 'T1547' },
  { ttpId: 'T1027', status: 'not_covered', tactics: ['defense-evasion'], platforms: ['Linux'] },
  { ttpId: 'T1574', status: 'validated', tactics: ['defense-evasion'], platforms: ['Linux'], extra: { revoked: true } },
  { ttpId: 'T1574.002', status: 'partial', tactics: ['defense-evasion'], platforms: ['Linux'], parent: 'T1574' },
  { ttpId: 'CUSTOM-1', status: 'validated', tactics: ['custom-tactic'], platforms: [], extra: { isCustom: true, tactic: 'Custom Tactic' } },
  { ttpId: 'CUSTOM-2', status: 'partial', tactics: [], platforms: [], extra: { isCustom: true } },
];

const app = useTestApp();

beforeAll(async () => {
  viewer = await app.tokenFor('viewer');
  const db = app.services.prisma;
  await db.tactic.createMany({
    data: [
      { externalId: 'TA0005', shortName: 'defense-evasion', name: 'Defense Evasion', matrixOrder: 4 },
      { externalId: 'TA0003', shortName: 'persistence', name: 'Persistence', matrixOrder: 3 },
      { externalId: 'TA0001', shortName: 'initial-access', name: 'Initial Access', matrixOrder: 1 },
      { externalId: 'TA0002', shortName: 'execution', name: 'Execution', matrixOrder: 2 },
    ],
  });
  for (const t of TECHNIQUES) {
    const row = await db.technique.create({
      data: {
        ttpId: t.ttpId,
        name: `Technique ${t.ttpId}`,
        statusGlobal: t.status,
        tactics: t.tactics,
        platforms: t.platforms,
        isSubtechnique: !!t.parent,
        parentTtpId: t.parent ?? null,
        // The newest object of the ATT&CK 17.1 bundle was modified on 2 May 2025.
        attackModified: t.ttpId.startsWith('T') ? new Date('2025-05-02T19:13:42.314Z') : null,
        ...t.extra,
      },
    });
    ids[t.ttpId] = row.id;
  }
});

const node = (ttpId: string, status: CoverageStatus, score: number, subs: object[] = []) => ({
  technique_id: ids[ttpId],
  ttp_id: ttpId,
  name: `Technique ${ttpId}`,
  status,
  score,
  ...(subs ? { sub_techniques: subs } : {}),
});
const leaf = (ttpId: string, status: CoverageStatus, score: number) => {
  const { sub_techniques: _, ...rest } = node(ttpId, status, score);
  return rest;
};

describe('GET /heatmap', () => {
  it('lists every active technique under each of its tactics, in matrix order, sub-techniques under their parent', async () => {
    const response = await app.api('GET', '/heatmap', { token: viewer });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      platform: null,
      technique_count: 10,
      tactics: [
        { id: 'TA0001', short_name: 'initial-access', name: 'Initial Access', order: 1, techniques: [] },
        {
          id: 'TA0002',
          short_name: 'execution',
          name: 'Execution',
          order: 2,
          techniques: [
            node('T1001', 'not_evaluated', 0),
            node('T1059', 'validated', 50, [leaf('T1059.001', 'partial', 25), leaf('T1059.003', 'not_covered', 0)]),
          ],
        },
        {
          id: 'TA0003',
          short_name: 'persistence',
          name: 'Persistence',
          order: 3,
          techniques: [node('T1547', 'in_progress', 12.5, [leaf('T1547.001', 'validated', 50)])],
        },
        {
          id: 'TA0005',
          short_name: 'defense-evasion',
          name: 'Defense Evasion',
          order: 4,
          techniques: [
            node('T1027', 'not_covered', 0),
            node('T1547', 'in_progress', 12.5, [leaf('T1547.001', 'validated', 50)]),
            // Its parent T1574 is revoked, so it stands on its own.
            node('T1574.002', 'partial', 25),
          ],
        },
        { id: null, short_name: 'custom-tactic', name: 'Custom Tactic', order: null, techniques: [node('CUSTOM-1', 'validated', 50)] },
        { id: null, short_name: null, name: 'No tactic', order: null, techniques: [node('CUSTOM-2', 'partial', 25)] },
      ],
    });
  });

  it('filters by platform in any case; GraphQL gives the same matrix', async () => {
    const response = await app.api('GET', '/heatmap?platform=windows', { token: viewer });
    expect(response.body.platform).toBe('windows');
    expect(response.body.technique_count).toBe(5);
    const columns = Object.fromEntries(
      response.body.tactics.map((tactic: any) => [tactic.short_name, tactic.techniques.map((t: any) => t.ttp_id)]),
    );
    expect(columns).toEqual({ 'initial-access': [], execution: ['T1059'], persistence: ['T1547'], 'defense-evasion': ['T1547'] });
    const graphql = await app.graphql(
      '{ heatmap(platform: "WINDOWS") { techniqueCount tactics { shortName techniques { ttpId subTechniques { ttpId score } } } } }',
      {},
      viewer,
    );
    expect(graphql.data.heatmap.techniqueCount).toBe(5);
    expect(graphql.data.heatmap.tactics[1]).toEqual({
      shortName: 'execution',
      techniques: [
        {
          ttpId: 'T1059',
          subTechniques: [
            { ttpId: 'T1059.001', score: 25 },
            { ttpId: 'T1059.003', score: 0 },
          ],
        },
      ],
    });
  });

  it('refuses unknown formats and snapshot options without format=navigator', async () => {
    expect(await app.api('GET', '/heatmap?format=xml', { token: viewer })).toMatchObject({ status: 400, body: { field: 'format' } });
    expect(await app.api('GET', '/heatmap?snapshot=abc', { token: viewer })).toMatchObject({ status: 400, body: { field: 'snapshot' } });
    expect(await app.api('GET', '/heatmap?format=navigator&compare=abc', { token: viewer })).toMatchObject({
      status: 400,
      body: { field: 'compare' },
    });
    expect(await app.api('GET', '/heatmap?format=navigator&snapshot=a&compare=a,b', { token: viewer })).toMatchObject({
      status: 400,
      body: { field: 'compare' },
    });
    expect((await app.api('GET', '/heatmap')).status).toBe(401);
  });
});

describe('ATT&CK Navigator layers', () => {
  const entry = (layer: any, ttpId: string, tactic?: string) =>
    layer.techniques.filter((technique: any) => technique.techniqueID === ttpId && (tactic === undefined || technique.tactic === tactic));

  it('the live layer is a valid 4.5 layer: colour from coverage, score and breakdown, one entry per tactic', async () => {
    const response = await app.api('GET', '/heatmap?format=navigator', { token: viewer });
    expect(response.status).toBe(200);
    const layer = valid(response.body);
    // The catalog's newest object (2 May 2025) came with ATT&CK 17.1.
    expect(layer).toMatchObject({
      name: 'Violet coverage',
      domain: 'enterprise-attack',
      versions: { attack: '17', navigator: '5.2.0', layer: '4.5' },
    });
    expect(layer.filters).toBeUndefined();
    // 7 ATT&CK techniques, T1547 and T1547.001 twice (two tactics); custom ones left out.
    expect(layer.techniques.map((t: any) => `${t.techniqueID}@${t.tactic}`)).toEqual([
      'T1001@execution',
      'T1027@defense-evasion',
      'T1059@execution',
      'T1059.001@execution',
      'T1059.003@execution',
      'T1547@persistence',
      'T1547@defense-evasion',
      'T1547.001@persistence',
      'T1547.001@defense-evasion',
      'T1574.002@defense-evasion',
    ]);
    expect(layer.metadata).toContainEqual({ name: 'custom_techniques_left_out', value: '2' });
    const [t1059] = entry(layer, 'T1059');
    expect(t1059).toMatchObject({
      tactic: 'execution',
      score: 50,
      color: COLORS.validated,
      enabled: true,
      showSubtechniques: true,
      comment: 'Validated; score 50 = coverage 50 + detection 0 + validation_freshness 0 + detection_rate 0',
    });
    expect(t1059.metadata).toEqual([
      { name: 'status', value: 'validated' },
      { name: 'score', value: '50' },
      { name: 'coverage points', value: '50' },
      { name: 'detection points', value: '0' },
      { name: 'validation_freshness points', value: '0' },
      { name: 'detection_rate points', value: '0' },
    ]);
    expect(entry(layer, 'T1547', 'defense-evasion')[0]).toMatchObject({ score: 12.5, color: COLORS.in_progress, showSubtechniques: true });
    expect(entry(layer, 'T1001')[0]).toMatchObject({ score: 0, color: COLORS.not_evaluated, showSubtechniques: false });
    expect(entry(layer, 'T1027')[0].color).toBe(COLORS.not_covered);
    expect(entry(layer, 'T1059.001')[0]).toMatchObject({ color: COLORS.partial, showSubtechniques: false });
    expect(layer.legendItems).toEqual([
      { label: 'Validated', color: COLORS.validated },
      { label: 'Partial', color: COLORS.partial },
      { label: 'In progress', color: COLORS.in_progress },
      { label: 'Not covered', color: COLORS.not_covered },
      { label: 'Not evaluated', color: COLORS.not_evaluated },
    ]);
    expect(layer.gradient).toEqual({ colors: ['#ff6666', '#ffe766', '#8ec843'], minValue: 0, maxValue: 100 });
  });

  it('a platform filter becomes the layer filter; a versioned ATT&CK source names the version', async () => {
    await setSourceLocation(app, 'attack_enterprise', '/srv/mirror/enterprise-attack-18.1.json');
    const response = await app.api('GET', '/heatmap?format=navigator&platform=Linux', { token: viewer });
    const layer = valid(response.body);
    expect(layer.versions.attack).toBe('18');
    expect(layer.filters).toEqual({ platforms: ['Linux'] });
    expect(layer.techniques.map((t: any) => t.techniqueID)).toEqual(['T1001', 'T1027', 'T1059', 'T1574.002']);
    const graphql = await app.graphql('{ navigatorLayer(platform: "Linux") }', {}, viewer);
    expect(valid(graphql.data.navigatorLayer).techniques).toHaveLength(4);
  });

  async function snapshot(name: string, states: Record<string, [CoverageStatus, number | null]>) {
    return app.services.prisma.snapshot.create({
      data: {
        name,
        kind: 'manual',
        techniques: {
          create: Object.entries(states).map(([ttpId, [status, score]]) => ({ techniqueId: ids[ttpId], ttpId, status, score })),
        },
      },
    });
  }

  it("a snapshot's layer shows the states it recorded", async () => {
    const before = await snapshot('Q1', {
      T1059: ['partial', 25],
      T1547: ['not_covered', 0],
      'CUSTOM-1': ['validated', 50],
      T1027: ['not_evaluated', null],
    });
    const response = await app.api('GET', `/heatmap?format=navigator&snapshot=${before.id}`, { token: viewer });
    expect(response.status).toBe(200);
    const layer = valid(response.body);
    expect(layer.name).toBe('Violet coverage at Q1');
    expect(layer.metadata).toContainEqual({ name: 'snapshot_id', value: before.id });
    expect(layer.techniques.map((t: any) => [t.techniqueID, t.tactic, t.color, t.score ?? null])).toEqual([
      ['T1027', 'defense-evasion', COLORS.not_evaluated, null],
      ['T1059', 'execution', COLORS.partial, 25],
      ['T1547', 'persistence', COLORS.not_covered, 0],
      ['T1547', 'defense-evasion', COLORS.not_covered, 0],
    ]);
    expect(entry(layer, 'T1059')[0].comment).toMatch(/^Partial; score 25 at snapshot Q1 \(/);
    const graphql = await app.graphql('query ($id: String) { navigatorLayer(snapshotId: $id) }', { id: before.id }, viewer);
    expect(valid(graphql.data.navigatorLayer).techniques).toHaveLength(4);
  });

  it('the difference layer shows the techniques whose state changed, coloured by direction, scored by the change', async () => {
    const before = await snapshot('before', { T1059: ['partial', 25], T1547: ['validated', 50], T1027: ['not_evaluated', 0] });
    const after = await snapshot('after', {
      T1059: ['validated', 50],
      T1547: ['not_covered', 0],
      T1027: ['not_evaluated', 0],
      'T1059.001': ['in_progress', 12.5],
    });
    const response = await app.api('GET', `/heatmap?format=navigator&compare=${before.id},${after.id}`, { token: viewer });
    expect(response.status).toBe(200);
    const layer = valid(response.body);
    expect(layer.name).toBe('Violet coverage change before → after');
    expect(layer.gradient).toMatchObject({ minValue: -100, maxValue: 100 });
    expect(layer.layout.expandedSubtechniques).toBe('annotated');
    expect(layer.techniques.map((t: any) => [t.techniqueID, t.tactic, t.color, t.score ?? null, t.comment])).toEqual([
      ['T1059', 'execution', '#31a354', 25, 'partial → validated (score 25 → 50)'],
      ['T1059.001', 'execution', '#6baed6', null, 'absent → in_progress (score absent → 12.5)'],
      ['T1547', 'persistence', '#de2d26', -50, 'validated → not_covered (score 50 → 0)'],
      ['T1547', 'defense-evasion', '#de2d26', -50, 'validated → not_covered (score 50 → 0)'],
    ]);
    expect(entry(layer, 'T1059')[0]).toMatchObject({ showSubtechniques: true });
    expect(entry(layer, 'T1547', 'persistence')[0].metadata).toEqual([
      { name: 'change', value: 'regressed' },
      { name: 'before', value: 'validated' },
      { name: 'after', value: 'not_covered' },
      { name: 'score_change', value: '-50' },
    ]);
    expect(layer.metadata).toContainEqual({ name: 'changed_techniques', value: '3' });
    const reverse = valid((await app.api('GET', `/heatmap?format=navigator&compare=${after.id},${before.id}`, { token: viewer })).body);
    expect(entry(reverse, 'T1059.001')[0]).toMatchObject({ color: '#969696', comment: 'in_progress → absent (score 12.5 → absent)' });
    const graphql = await app.graphql(
      'query ($a: String, $b: String) { navigatorLayer(before: $a, after: $b) }',
      { a: before.id, b: after.id },
      viewer,
    );
    expect(graphql.data.navigatorLayer.techniques).toHaveLength(4);
  });

  it('unknown snapshots answer 404', async () => {
    const known = await snapshot('known', {});
    for (const query of [`snapshot=${randomUUID()}`, 'snapshot=nothing', `compare=${known.id},9a1c3f7e-0000-4000-8000-000000000000`]) {
      const response = await app.api('GET', `/heatmap?format=navigator&${query}`, { token: viewer });
      expect(response, query).toMatchObject({ status: 404, body: { code: 'NOT_FOUND' } });
    }
    const graphql = await app.graphql('{ navigatorLayer(before: "x") }', {}, viewer);
    expect(graphql.errors?.[0].extensions?.code).toBe('VALIDATION_ERROR');
  });

  it('the schema rejects what the 4.5 format forbids', () => {
    const base = { name: 'x', domain: 'enterprise-attack', versions: { attack: '18', navigator: '5.2.0', layer: '4.5' } };
    expect(validateLayer(base)).toBe(true);
    expect(validateLayer({ ...base, versions: { ...base.versions, layer: '4.4' } })).toBe(false);
    expect(validateLayer({ ...base, versions: { attack: '18', navigator: '4.8.2', layer: '4.5' } })).toBe(false);
    expect(validateLayer({ ...base, domain: 'mitre-enterprise' })).toBe(false);
    expect(validateLayer({ ...base, techniques: [{ techniqueID: 'CUSTOM-1' }] })).toBe(false);
    expect(validateLayer({ ...base, techniques: [{ techniqueID: 'T1059', color: 'green' }] })).toBe(false);
    expect(validateLayer({ ...base, techniques: [{ techniqueID: 'T1059', metadata: [{ name: 'a', value: 1 }] }] })).toBe(false);
    expect(validateLayer({ ...base, gradient: { colors: ['#ffffff'], minValue: 0, maxValue: 1 } })).toBe(false);
  });
});
