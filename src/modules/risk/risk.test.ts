import { beforeAll, describe, expect, it, vi } from 'vitest';
import type { CoverageStatus } from '../../generated/prisma/enums.ts';
import { type ApiResponse, useTestApp } from '../../../test/helpers/app.ts';
import { countQueries } from '../../../test/helpers/queries.ts';

/*
 * Fixed dataset. Active actors: A1, A2, A3; G9004 is revoked and G9005 deprecated (neither counts).
 *
 * technique   tactics                                status         uses                       actors
 * T9501       initial-access                         not_evaluated  A1 A2 A3 G9004             3
 * T9502       discovery, credential-access           validated      A1                         1
 * T9503       discovery                              not_covered    A1 A2 A3                   3
 * T9504       defense-evasion                        partial        A2                         1
 * T9505       execution                              in_progress    G9004 G9005                0
 * T9506       (none, custom)                         not_evaluated  A3                         1
 * T9508       credential-access, initial-access      not_covered    A2 A2 (two uses)           2 (A2 + A3 through T9508.001)
 * T9508.001   credential-access                      not_evaluated  A3                         1
 * T9509       execution, revoked                     not_evaluated  A1 A2 A3                   no profile
 *
 * max actors = 3, so prevalence = ln(1 + n) / ln 4: n=3 → 1, n=1 → ln 2 / ln 4 = 0.5, n=2 → ln 3 / ln 4 = 0.79248…, n=0 → 0.
 * impact = weight × (0.25 + 0.75 × prevalence) (4 decimals); score = impact × likelihood × 100 (2 decimals).
 */
const EXPECTED: Record<
  string,
  {
    status: CoverageStatus;
    impact: number;
    likelihood: number;
    score: number;
    actors: number;
    weight: number;
    level: string;
    impactLevel: string;
  }
> = {
  // weight 1 (initial-access) × (0.25 + 0.75 × 1) = 1; 1 × 0.8 × 100 = 80
  T9501: {
    status: 'not_evaluated',
    impact: 1,
    likelihood: 0.8,
    score: 80,
    actors: 3,
    weight: 1,
    level: 'critical',
    impactLevel: 'critical',
  },
  // max(discovery 0.5, credential-access 1) = 1; 1 × (0.25 + 0.75 × 0.5) = 0.625; 0.625 × 0.1 × 100 = 6.25
  T9502: { status: 'validated', impact: 0.625, likelihood: 0.1, score: 6.25, actors: 1, weight: 1, level: 'low', impactLevel: 'critical' },
  // 0.5 (discovery) × (0.25 + 0.75 × 1) = 0.5; 0.5 × 0.9 × 100 = 45
  T9503: { status: 'not_covered', impact: 0.5, likelihood: 0.9, score: 45, actors: 3, weight: 0.5, level: 'high', impactLevel: 'high' },
  // 0.8 (defense-evasion) × 0.625 = 0.5; 0.5 × 0.4 × 100 = 20 (exactly the medium threshold)
  T9504: { status: 'partial', impact: 0.5, likelihood: 0.4, score: 20, actors: 1, weight: 0.8, level: 'medium', impactLevel: 'high' },
  // revoked and deprecated actors do not count: 1 (execution) × (0.25 + 0) = 0.25; 0.25 × 0.6 × 100 = 15
  T9505: { status: 'in_progress', impact: 0.25, likelihood: 0.6, score: 15, actors: 0, weight: 1, level: 'low', impactLevel: 'medium' },
  // no tactic: default weight 0.6 × 0.625 = 0.375; 0.375 × 0.8 × 100 = 30
  T9506: {
    status: 'not_evaluated',
    impact: 0.375,
    likelihood: 0.8,
    score: 30,
    actors: 1,
    weight: 0.6,
    level: 'medium',
    impactLevel: 'medium',
  },
  // 1 × (0.25 + 0.75 × 0.792481) = 0.844361 → 0.8444; 0.8444 × 0.9 × 100 = 75.996 → 76
  T9508: {
    status: 'not_covered',
    impact: 0.8444,
    likelihood: 0.9,
    score: 76,
    actors: 2,
    weight: 1,
    level: 'critical',
    impactLevel: 'critical',
  },
  // 1 (credential-access) × 0.625 = 0.625; 0.625 × 0.8 × 100 = 50
  'T9508.001': {
    status: 'not_evaluated',
    impact: 0.625,
    likelihood: 0.8,
    score: 50,
    actors: 1,
    weight: 1,
    level: 'high',
    impactLevel: 'critical',
  },
};

let admin: string;
let viewer: string;
const techniqueIds = new Map<string, string>();

async function seed() {
  const prisma = app.services.prisma;
  await prisma.tactic.createMany({
    data: [
      { externalId: 'TA0001', shortName: 'initial-access', name: 'Initial Access', matrixOrder: 1 },
      { externalId: 'TA0002', shortName: 'execution', name: 'Execution', matrixOrder: 2 },
      { externalId: 'TA0005', shortName: 'defense-evasion', name: 'Defense Evasion', matrixOrder: 5 },
      { externalId: 'TA0006', shortName: 'credential-access', name: 'Credential Access', matrixOrder: 6 },
      { externalId: 'TA0007', shortName: 'discovery', name: 'Discovery', matrixOrder: 7 },
    ],
  });
  const actors = new Map<string, string>();
  for (const [externalId, flags] of [
    ['G9001', {}],
    ['G9002', {}],
    ['G9003', {}],
    ['G9004', { revoked: true }],
    ['G9005', { deprecated: true }],
  ] as const) {
    const actor = await prisma.threatActor.create({
      data: { stixId: `intrusion-set--${externalId}`, externalId, name: `Actor ${externalId}`, ...flags },
    });
    actors.set(externalId, actor.id);
  }
  const techniques: [string, string | null, string[], CoverageStatus, string[], Record<string, unknown>?][] = [
    ['T9501', 'Initial Access', ['initial-access'], 'not_evaluated', ['G9001', 'G9002', 'G9003', 'G9004']],
    ['T9502', 'Discovery', ['discovery', 'credential-access'], 'validated', ['G9001']],
    ['T9503', 'Discovery', ['discovery'], 'not_covered', ['G9001', 'G9002', 'G9003']],
    ['T9504', 'Defense Evasion', ['defense-evasion'], 'partial', ['G9002']],
    ['T9505', 'Execution', ['execution'], 'in_progress', ['G9004', 'G9005']],
    ['T9506', null, [], 'not_evaluated', ['G9003'], { isCustom: true }],
    ['T9508', 'Credential Access', ['credential-access', 'initial-access'], 'not_covered', ['G9002', 'G9002']],
    ['T9508.001', 'Credential Access', ['credential-access'], 'not_evaluated', ['G9003'], { isSubtechnique: true, parentTtpId: 'T9508' }],
    ['T9509', 'Execution', ['execution'], 'not_evaluated', ['G9001', 'G9002', 'G9003'], { revoked: true }],
  ];
  let use = 0;
  for (const [ttpId, tactic, tactics, statusGlobal, users, extra] of techniques) {
    const technique = await prisma.technique.create({
      data: { ttpId, name: `Technique ${ttpId}`, tactic, tactics, statusGlobal, ...extra },
    });
    techniqueIds.set(ttpId, technique.id);
    await prisma.threatActorTechnique.createMany({
      data: users.map((externalId) => ({ stixId: `relationship--${++use}`, actorId: actors.get(externalId)!, techniqueId: technique.id })),
    });
  }
}

const ttpIds = (items: { ttp_id: string }[]) => items.map((item) => item.ttp_id);

const app = useTestApp();

beforeAll(async () => {
  admin = await app.tokenFor('admin');
  viewer = await app.tokenFor('viewer');
  await seed();
});

describe('before any computation', () => {
  it('the read endpoints answer the stored profiles: none, with computed_at null', async () => {
    expect((await app.api('GET', '/risk/profiles', { token: viewer })).body).toEqual({ items: [], total: 0, offset: 0, limit: 50 });
    expect((await app.api('GET', '/risk/top', { token: viewer })).body).toEqual([]);
    expect((await app.api('GET', '/risk/recommendations', { token: viewer })).body).toEqual([]);
    const matrix = (await app.api('GET', '/risk/matrix', { token: viewer })).body;
    expect(matrix).toMatchObject({ computed_at: null, total: 0 });
    expect(matrix.rows.map((row: any) => [row.impact_level, row.total])).toEqual([
      ['critical', 0],
      ['high', 0],
      ['medium', 0],
      ['low', 0],
    ]);
    const summary = (await app.api('GET', '/risk/summary', { token: viewer })).body;
    expect(summary).toMatchObject({
      computed_at: null,
      total: 0,
      average_score: null,
      max_score: null,
      levels: { critical: 0, high: 0, medium: 0, low: 0 },
      highest_risk_tactic: null,
      tactics: [],
      // 9 techniques, T9509 revoked
      techniques_without_profile: 8,
    });
  });
});

describe('POST /risk/compute', () => {
  it('is for leads and admins only', async () => {
    for (const role of ['red_tech', 'blue_tech', 'viewer'] as const) {
      expect(await app.api('POST', '/risk/compute', { token: await app.tokenFor(role), body: {} })).toMatchObject({
        status: 403,
        body: { code: 'FORBIDDEN' },
      });
    }
    expect(await app.api('POST', '/risk/compute', { body: {} })).toMatchObject({ status: 401 });
  });

  it('profiles every active technique in one upsert, audits it and emits risk.computed', async () => {
    const events: unknown[] = [];
    const off = app.services.bus.on('risk.computed', (event) => void events.push(event.payload));
    let response!: ApiResponse;
    const upserts = await countQueries(async () => {
      response = await app.api('POST', '/risk/compute', { token: await app.tokenFor('blue_lead') });
    }, /INSERT INTO risk_profiles/);
    off();
    expect(upserts).toBe(1);
    expect(response.status).toBe(200);
    // levels: critical 80, 76; high 50, 45; medium 30, 20; low 15, 6.25
    expect(response.body).toMatchObject({ profiles: 8, removed: 0, levels: { critical: 2, high: 2, medium: 2, low: 2 } });
    const stored = await app.services.prisma.riskProfile.findFirst({ select: { computedAt: true } });
    expect(response.body.computed_at).toBe(stored!.computedAt.toISOString());
    expect(events).toEqual([{ profiles: 8 }]);
    const audit = await app.services.prisma.auditLog.findFirst({ where: { action: 'compute_risk' }, orderBy: { timestamp: 'desc' } });
    expect(audit).toMatchObject({
      entityType: 'risk_profile',
      details: { profiles: 8, removed: 0, computed_at: response.body.computed_at },
    });
  });

  it('stores the hand-computed impact, likelihood and score of each technique with every term', async () => {
    const rows = await app.services.prisma.riskProfile.findMany({ include: { technique: { select: { ttpId: true } } } });
    expect(
      Object.fromEntries(
        rows.map((row) => [
          row.technique.ttpId,
          { impact: row.impact, likelihood: row.likelihood, score: row.score, actors: row.actorCount, weight: row.tacticWeight },
        ]),
      ),
    ).toEqual(
      Object.fromEntries(
        Object.entries(EXPECTED).map(([ttpId, e]) => [
          ttpId,
          { impact: e.impact, likelihood: e.likelihood, score: e.score, actors: e.actors, weight: e.weight },
        ]),
      ),
    );
    const t9508 = rows.find((row) => row.technique.ttpId === 'T9508')!;
    expect(t9508.details).toEqual({
      model_version: 1,
      status: 'not_covered',
      actor_count: 2,
      max_actor_count: 3,
      prevalence: 0.7925, // ln 3 / ln 4 = 0.792481…
      tactics: ['credential-access', 'initial-access'],
      weighted_tactic: 'credential-access', // both weigh 1: the first by name
      tactic_weight: 1,
      impact_floor: 0.25,
      impact: 0.8444,
      likelihood: 0.9,
      score: 76,
    });
    expect(rows.find((row) => row.technique.ttpId === 'T9506')!.details).toMatchObject({
      weighted_tactic: null,
      tactic_weight: 0.6,
      prevalence: 0.5,
    });
  });
});

describe('GET /risk/profiles', () => {
  it('lists every profile, highest score first, with the spec fields', async () => {
    const response = await app.api('GET', '/risk/profiles', { token: viewer });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ total: 8, offset: 0, limit: 50 });
    expect(ttpIds(response.body.items)).toEqual(['T9501', 'T9508', 'T9508.001', 'T9503', 'T9506', 'T9504', 'T9505', 'T9502']);
    for (const item of response.body.items) {
      const e = EXPECTED[item.ttp_id];
      expect(item).toMatchObject({
        technique_id: techniqueIds.get(item.ttp_id),
        name: `Technique ${item.ttp_id}`,
        status: e.status,
        impact: e.impact,
        likelihood: e.likelihood,
        score: e.score,
        actor_count: e.actors,
        tactic_weight: e.weight,
        level: e.level,
        impact_level: e.impactLevel,
        stale: false,
      });
    }
    expect(response.body.items[1]).toMatchObject({ tactic: 'Credential Access', tactics: ['credential-access', 'initial-access'] });
  });

  it('filters by tactic (name, short name or id), min_score, status and level, and pages', async () => {
    const list = async (query: string) => (await app.api('GET', `/risk/profiles?${query}`, { token: viewer })).body;
    for (const tactic of ['Credential%20Access', 'credential-access', 'ta0006']) {
      expect(ttpIds((await list(`tactic=${tactic}`)).items)).toEqual(['T9508', 'T9508.001', 'T9502']);
    }
    expect(ttpIds((await list('min_score=45')).items)).toEqual(['T9501', 'T9508', 'T9508.001', 'T9503']);
    expect(ttpIds((await list('status=not_evaluated')).items)).toEqual(['T9501', 'T9508.001', 'T9506']);
    expect(ttpIds((await list('level=medium')).items)).toEqual(['T9506', 'T9504']);
    expect(ttpIds((await list('level=critical&tactic=discovery')).items)).toEqual([]);
    const second = await list('offset=2&limit=2');
    expect(second).toMatchObject({ total: 8, offset: 2, limit: 2 });
    expect(ttpIds(second.items)).toEqual(['T9508.001', 'T9503']);
  });

  it('rejects bad filters with 400 naming the parameter', async () => {
    for (const [query, field] of [
      ['min_score=101', 'min_score'],
      ['min_score=high', 'min_score'],
      ['status=great', 'status'],
      ['level=severe', 'level'],
      ['limit=201', 'limit'],
    ]) {
      expect(await app.api('GET', `/risk/profiles?${query}`, { token: viewer })).toMatchObject({
        status: 400,
        body: { code: 'VALIDATION_ERROR', field },
      });
    }
  });

  it('loads a page in a number of queries that does not grow with the page size', async () => {
    const query = 'query ($limit: Int) { riskProfiles(limit: $limit) { items { ttpId name tactic stale reason technique { ttpId } } } }';
    const small = await countQueries(() => app.graphql(query, { limit: 2 }, viewer));
    const large = await countQueries(() => app.graphql(query, { limit: 8 }, viewer));
    expect(large).toBe(small);
  });
});

describe('GET /risk/matrix', () => {
  it('counts the profiles per impact level and coverage status, riskiest ids first', async () => {
    const matrix = (await app.api('GET', '/risk/matrix', { token: viewer })).body;
    expect(matrix.total).toBe(8);
    expect(matrix.computed_at).not.toBeNull();
    const grid = Object.fromEntries(
      matrix.rows.map((row: any) => [
        row.impact_level,
        Object.fromEntries(row.cells.filter((cell: any) => cell.count).map((cell: any) => [cell.status, [cell.count, cell.ttp_ids]])),
      ]),
    );
    expect(grid).toEqual({
      // impact ≥ 0.6: T9501 (1), T9508 (0.8444), T9502 and T9508.001 (0.625)
      critical: { not_evaluated: [2, ['T9501', 'T9508.001']], validated: [1, ['T9502']], not_covered: [1, ['T9508']] },
      // impact 0.5: T9503, T9504
      high: { not_covered: [1, ['T9503']], partial: [1, ['T9504']] },
      // impact 0.375 and 0.25
      medium: { not_evaluated: [1, ['T9506']], in_progress: [1, ['T9505']] },
      low: {},
    });
    expect(matrix.rows.map((row: any) => row.total)).toEqual([4, 2, 2, 0]);
    expect(matrix.rows[0].cells.map((cell: any) => cell.status)).toEqual([
      'not_evaluated',
      'in_progress',
      'validated',
      'partial',
      'not_covered',
    ]);
  });
});

describe('GET /risk/summary', () => {
  it('answers totals, averages, level and status counts and the highest-risk tactic', async () => {
    const summary = (await app.api('GET', '/risk/summary', { token: viewer })).body;
    expect(summary).toMatchObject({
      total: 8,
      // (80 + 6.25 + 45 + 20 + 15 + 30 + 76 + 50) / 8 = 322.25 / 8 = 40.28125
      average_score: 40.28,
      // (1 + 0.625 + 0.5 + 0.5 + 0.25 + 0.375 + 0.8444 + 0.625) / 8 = 4.7194 / 8 = 0.589925
      average_impact: 0.5899,
      // (0.8 + 0.1 + 0.9 + 0.4 + 0.6 + 0.8 + 0.9 + 0.8) / 8 = 5.3 / 8
      average_likelihood: 0.6625,
      max_score: 80,
      levels: { critical: 2, high: 2, medium: 2, low: 2 },
      statuses: { validated: 1, partial: 1, in_progress: 1, not_covered: 2, not_evaluated: 3 },
      uncovered: 6,
      stale_profiles: 0,
      techniques_without_profile: 0,
    });
    expect(summary.tactics).toEqual([
      // (80 + 76) / 2
      { tactic: 'initial-access', name: 'Initial Access', techniques: 2, average_score: 78, max_score: 80 },
      // (6.25 + 76 + 50) / 3 = 44.0833
      { tactic: 'credential-access', name: 'Credential Access', techniques: 3, average_score: 44.08, max_score: 76 },
      // (6.25 + 45) / 2 = 25.625
      { tactic: 'discovery', name: 'Discovery', techniques: 2, average_score: 25.63, max_score: 45 },
      { tactic: 'defense-evasion', name: 'Defense Evasion', techniques: 1, average_score: 20, max_score: 20 },
      { tactic: 'execution', name: 'Execution', techniques: 1, average_score: 15, max_score: 15 },
    ]);
    expect(summary.highest_risk_tactic).toEqual(summary.tactics[0]);
  });
});

describe('GET /risk/recommendations and /risk/top', () => {
  it('recommends the highest risks not validated, with the reason in words', async () => {
    const response = await app.api('GET', '/risk/recommendations', { token: viewer });
    expect(response.body.map((item: any) => [item.ttp_id, item.score, item.reason])).toEqual([
      ['T9501', 80, 'used by 3 actors, initial-access tactic (weight 1), not evaluated'],
      ['T9508', 76, 'used by 2 actors, credential-access tactic (weight 1), tested and not detected'],
      ['T9508.001', 50, 'used by 1 actor, credential-access tactic (weight 1), not evaluated'],
      ['T9503', 45, 'used by 3 actors, discovery tactic (weight 0.5), tested and not detected'],
      ['T9506', 30, 'used by 1 actor, no weighted tactic (weight 0.6), not evaluated'],
      ['T9504', 20, 'used by 1 actor, defense-evasion tactic (weight 0.8), only partially detected'],
      ['T9505', 15, 'used by no tracked actor, execution tactic (weight 1), test in progress'],
    ]);
    expect(ttpIds((await app.api('GET', '/risk/recommendations?limit=2', { token: viewer })).body)).toEqual(['T9501', 'T9508']);
    expect(await app.api('GET', '/risk/recommendations?limit=51', { token: viewer })).toMatchObject({
      status: 400,
      body: { field: 'limit' },
    });
  });

  it('top lists the uncovered techniques (not partial, not validated) and validates limit', async () => {
    expect(ttpIds((await app.api('GET', '/risk/top', { token: viewer })).body)).toEqual([
      'T9501',
      'T9508',
      'T9508.001',
      'T9503',
      'T9506',
      'T9505',
    ]);
    const three = (await app.api('GET', '/risk/top?limit=3', { token: viewer })).body;
    expect(three.map((item: any) => [item.ttp_id, item.status, item.score])).toEqual([
      ['T9501', 'not_evaluated', 80],
      ['T9508', 'not_covered', 76],
      ['T9508.001', 'not_evaluated', 50],
    ]);
    expect((await app.api('GET', '/risk/top?limit=100', { token: viewer })).status).toBe(200);
    for (const limit of ['0', '101', '-1', 'ten', '2.5']) {
      expect(await app.api('GET', `/risk/top?limit=${limit}`, { token: viewer })).toMatchObject({
        status: 400,
        body: { code: 'VALIDATION_ERROR', field: 'limit' },
      });
    }
  });
});

describe('GraphQL', () => {
  it('answers the same figures, and a technique links its profile', async () => {
    const { data } = await app.graphql(
      `{ riskTop(limit: 1) { ttpId score level impactLevel reason details }
         technique(ttpId: "T9504") { riskProfile { impact likelihood score actorCount tacticWeight status } }
         riskSummary { highestRiskTactic { tactic averageScore } levels { critical } }
         riskMatrix { rows { impactLevel cells { status count } } } }`,
      {},
      viewer,
    );
    expect(data.riskTop).toEqual([
      {
        ttpId: 'T9501',
        score: 80,
        level: 'critical',
        impactLevel: 'critical',
        reason: 'used by 3 actors, initial-access tactic (weight 1), not evaluated',
        details: expect.objectContaining({ actor_count: 3, prevalence: 1, impact: 1, likelihood: 0.8 }),
      },
    ]);
    expect(data.technique.riskProfile).toEqual({
      impact: 0.5,
      likelihood: 0.4,
      score: 20,
      actorCount: 1,
      tacticWeight: 0.8,
      status: 'partial',
    });
    expect(data.riskSummary).toEqual({ highestRiskTactic: { tactic: 'initial-access', averageScore: 78 }, levels: { critical: 2 } });
    expect(data.riskMatrix.rows[1].cells.find((cell: any) => cell.status === 'partial')).toEqual({ status: 'partial', count: 1 });
  });

  it('computeRisk is a mutation for leads; a technician is refused', async () => {
    const mutation = 'mutation { computeRisk { profiles removed levels { critical high medium low } } }';
    expect((await app.graphql(mutation, {}, await app.tokenFor('red_lead'))).data).toEqual({
      computeRisk: { profiles: 8, removed: 0, levels: { critical: 2, high: 2, medium: 2, low: 2 } },
    });
    const refused = await app.graphql(mutation, {}, await app.tokenFor('red_tech'));
    expect(refused.errors?.[0].extensions).toMatchObject({ code: 'FORBIDDEN' });
  });
});

describe('recomputation', () => {
  it('flags stale profiles after a change and refreshes them on compute', async () => {
    // T9503 becomes validated; T9502 is revoked by the catalog; T9511 (impact, no uses) is added.
    expect((await app.api('PATCH', '/techniques/T9503', { token: admin, body: { status_global: 'validated' } })).status).toBe(200);
    await app.services.prisma.technique.update({ where: { ttpId: 'T9502' }, data: { revoked: true } });
    await app.services.prisma.technique.create({
      data: { ttpId: 'T9511', name: 'Technique T9511', tactic: 'Impact', tactics: ['impact'] },
    });

    const before = (await app.api('GET', '/risk/profiles?tactic=discovery', { token: viewer })).body.items;
    expect(before.map((item: any) => [item.ttp_id, item.status, item.score, item.stale])).toEqual([
      ['T9503', 'not_covered', 45, true],
      ['T9502', 'validated', 6.25, true],
    ]);
    expect((await app.api('GET', '/risk/summary', { token: viewer })).body).toMatchObject({
      stale_profiles: 2,
      techniques_without_profile: 1,
    });

    const computed = await app.api('POST', '/risk/compute', { token: await app.tokenFor('red_lead') });
    // T9503: 0.5 × 0.1 × 100 = 5 (low); T9511: 1 × 0.25 = 0.25, 0.25 × 0.8 × 100 = 20 (medium); T9502 removed.
    // critical 80, 76; high 50; medium 30, 20, 20; low 15, 5
    expect(computed.body).toMatchObject({ profiles: 8, removed: 1, levels: { critical: 2, high: 1, medium: 3, low: 2 } });
    const after = (await app.api('GET', '/risk/profiles', { token: viewer })).body.items;
    expect(after.map((item: any) => [item.ttp_id, item.score, item.stale])).toEqual([
      ['T9501', 80, false],
      ['T9508', 76, false],
      ['T9508.001', 50, false],
      ['T9506', 30, false],
      ['T9504', 20, false], // 1 actor: before T9511 (0 actors) at the same score
      ['T9511', 20, false],
      ['T9505', 15, false],
      ['T9503', 5, false],
    ]);
    expect(ttpIds((await app.api('GET', '/risk/top', { token: viewer })).body)).toEqual([
      'T9501',
      'T9508',
      'T9508.001',
      'T9506',
      'T9511',
      'T9505',
    ]);
    expect((await app.api('GET', '/risk/summary', { token: viewer })).body).toMatchObject({
      total: 8,
      // (80 + 76 + 50 + 30 + 20 + 20 + 15 + 5) / 8 = 296 / 8
      average_score: 37,
      stale_profiles: 0,
      techniques_without_profile: 0,
    });
  });

  it('computes 1,000 techniques and 4,000 uses with one upsert statement', async () => {
    const prisma = app.services.prisma;
    const actors = await Promise.all(
      Array.from({ length: 40 }, (_, index) =>
        prisma.threatActor.create({ data: { stixId: `intrusion-set--bulk-${index}`, name: `Bulk actor ${index}` } }),
      ),
    );
    const statuses: CoverageStatus[] = ['not_evaluated', 'in_progress', 'validated', 'partial', 'not_covered'];
    await prisma.technique.createMany({
      data: Array.from({ length: 1000 }, (_, index) => ({
        ttpId: `B${String(index).padStart(4, '0')}`,
        name: `Bulk ${index}`,
        tactics: [['execution', 'discovery', 'persistence', 'impact'][index % 4]],
        statusGlobal: statuses[index % 5],
      })),
    });
    const bulk = await prisma.technique.findMany({
      where: { ttpId: { startsWith: 'B' } },
      select: { id: true },
      orderBy: { ttpId: 'asc' },
    });
    // technique i is used by actors i mod 40 … (i + 3) mod 40: 4 uses each, 4,000 in all
    await prisma.threatActorTechnique.createMany({
      data: bulk.flatMap((technique, index) =>
        [0, 1, 2, 3].map((offset) => ({
          stixId: `relationship--bulk-${index}-${offset}`,
          actorId: actors[(index + offset) % 40].id,
          techniqueId: technique.id,
        })),
      ),
    });
    let response!: ApiResponse;
    const statements = await countQueries(
      async () => (response = await app.api('POST', '/risk/compute', { token: admin })),
      /risk_profiles/,
    );
    expect(response.body).toMatchObject({ profiles: 1008, removed: 0 });
    expect(statements).toBe(1);
    // every bulk technique has 4 actors of a maximum of 4: prevalence 1, impact = tactic weight
    const sample = await app.api('GET', '/risk/profiles?tactic=persistence&limit=1', { token: viewer });
    // persistence 0.8 × 1 = 0.8; the first by score is not_covered: 0.8 × 0.9 × 100 = 72
    expect(sample.body).toMatchObject({ total: 250, items: [{ impact: 0.8, likelihood: 0.9, score: 72, actor_count: 4 }] });
  });

  it('rewrites the profiles in their pages: twenty computations leave the table its size, without a vacuum', async () => {
    const prisma = app.services.prisma;
    const size = async () => {
      const [row] = await prisma.$queryRaw<{ bytes: number }[]>`SELECT pg_relation_size('risk_profiles')::int AS bytes`;
      return row.bytes;
    };
    // A row version is reclaimed once no transaction could still see it. Every snapshot's horizon is the oldest
    // transaction running in the whole cluster, whatever its database: while one stays open (another test file's DROP
    // DATABASE, most of a second under load) every version since is kept. So each computation starts once the
    // transactions that were running when the last one committed have ended, as on a quiet server.
    let last = '0';
    const compute = async () => {
      // Within the test's own time limit, so that a transaction that never ends is named rather than timed out.
      await vi.waitFor(
        async () => {
          const [{ settled }] = await prisma.$queryRaw<{ settled: boolean }[]>`
            SELECT pg_snapshot_xmin(pg_current_snapshot()) >= ${last}::xid8 AS settled`;
          if (!settled) throw new Error(`a transaction older than xid ${last} is still running`);
        },
        { timeout: 20_000, interval: 20 },
      );
      expect((await app.api('POST', '/risk/compute', { token: admin })).body).toMatchObject({ profiles: 1008 });
      [{ last }] = await prisma.$queryRaw<{ last: string }[]>`SELECT pg_snapshot_xmax(pg_current_snapshot())::text AS last`;
    };
    await compute();
    const before = await size();
    for (let run = 0; run < 20; run += 1) await compute();
    // Each computation writes a new version of all 1,008 rows: on full pages each added a copy of the table (21
    // times its size here). A computation that could not reclaim the last one's versions adds half a table at most.
    expect(await size()).toBeLessThanOrEqual(before * 4);
  });
});
