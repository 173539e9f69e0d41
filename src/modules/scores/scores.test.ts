import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import type { DetectionResult, TestState } from '../../generated/prisma/enums.ts';
import { techniqueScores } from './technique-scores.ts';
import { useTestApp } from '../../../test/helpers/app.ts';

/**
 * The fixed dataset, scored with the default weights (coverage 0.5, detection 0.15, validation_freshness 0.15,
 * detection_rate 0.2; Σ = 1, so points = 100 × weight × value):
 *
 * | technique  | status        | validated tests (decided, detection)               | active rule | score                      |
 * | T1059      | validated     | 10 d detected, 200 d partially, 300 d not_detected  | yes         | 50 + 15 + 15 + 10 = 90     |
 * | T1059.001  | partial       | 227.5 d detected                                    | inactive    | 25 + 0 + 7.5 + 20 = 52.5   |
 * | T1547      | in_progress   | none                                                | yes         | 12.5 + 15 + 0 + 0 = 27.5   |
 * | T1070      | not_covered   | 400 d not_detected                                  | no          | 0                          |
 * | T1027      | not_evaluated | none                                                | no          | 0                          |
 * | CUSTOM-1   | validated     | none                                                | no          | 50                         |
 * | T1000      | revoked       | (not scored)                                        |             |                            |
 *
 * T1059: freshness 1 (latest validated 10 days ago ≤ 90), detection rate (1 + 0.5 + 0) / 3 = 0.5 → 0.2 × 0.5 × 100 = 10.
 * T1059.001: freshness (365 − 227.5) / 275 = 0.5 → 7.5; detection rate 1 → 20; its only rule is inactive → detection 0.
 * T1070: its validated test is 400 days old → freshness 0; detection rate 0 / 1 = 0.
 * Rejected and draft tests never count.
 */
const EXPECTED: Record<string, number> = { T1059: 90, 'T1059.001': 52.5, T1547: 27.5, T1070: 0, T1027: 0, 'CUSTOM-1': 50 };

const DAY = 86_400_000;
const daysAgo = (days: number) => new Date(Date.now() - days * DAY);

let admin: string;
let viewer: string;
let adminId: string;
const ids: Record<string, string> = {};
let actorId: string;

async function addTest(ttpId: string, state: TestState, decidedDaysAgo: number | null, detectionResult: DetectionResult | null) {
  await app.services.prisma.test.create({
    data: {
      techniqueId: ids[ttpId],
      name: `${ttpId} ${state}`,
      state,
      detectionResult,
      decidedAt: decidedDaysAgo === null ? null : daysAgo(decidedDaysAgo),
      createdById: adminId,
      lineageId: randomUUID(),
    },
  });
}

const app = useTestApp();

beforeAll(async () => {
  admin = await app.tokenFor('admin');
  viewer = await app.tokenFor('viewer');
  adminId = (await app.services.prisma.user.findFirstOrThrow({ where: { role: 'admin' } })).id;
  const db = app.services.prisma;
  await db.tactic.createMany({
    data: [
      { externalId: 'TA0005', shortName: 'defense-evasion', name: 'Defense Evasion', matrixOrder: 4 },
      { externalId: 'TA0001', shortName: 'initial-access', name: 'Initial Access', matrixOrder: 1 },
      { externalId: 'TA0002', shortName: 'execution', name: 'Execution', matrixOrder: 2 },
      { externalId: 'TA0003', shortName: 'persistence', name: 'Persistence', matrixOrder: 3 },
    ],
  });
  const techniques = [
    { ttpId: 'T1059', statusGlobal: 'validated', tactics: ['execution'] },
    { ttpId: 'T1059.001', statusGlobal: 'partial', tactics: ['execution'], isSubtechnique: true, parentTtpId: 'T1059' },
    { ttpId: 'T1547', statusGlobal: 'in_progress', tactics: ['persistence', 'defense-evasion'] },
    { ttpId: 'T1070', statusGlobal: 'not_covered', tactics: ['defense-evasion'] },
    { ttpId: 'T1027', statusGlobal: 'not_evaluated', tactics: ['defense-evasion'] },
    { ttpId: 'CUSTOM-1', statusGlobal: 'validated', tactics: ['custom-tactic'], tactic: 'Custom Tactic', isCustom: true },
    { ttpId: 'T1000', statusGlobal: 'validated', tactics: ['execution'], revoked: true },
  ] as const;
  for (const technique of techniques) {
    const row = await db.technique.create({
      data: { name: `Technique ${technique.ttpId}`, ...technique, tactics: [...technique.tactics] },
    });
    ids[technique.ttpId] = row.id;
  }
  await addTest('T1059', 'validated', 10, 'detected');
  await addTest('T1059', 'validated', 200, 'partially_detected');
  await addTest('T1059', 'validated', 300, 'not_detected');
  await addTest('T1059', 'rejected', 1, 'detected');
  await addTest('T1059', 'draft', null, null);
  await addTest('T1059.001', 'validated', 227.5, 'detected');
  await addTest('T1070', 'validated', 400, 'not_detected');
  await addTest('T1027', 'rejected', 5, 'detected');
  await addTest('T1000', 'validated', 1, 'detected');
  await db.detectionRule.createMany({
    data: [
      { title: 'PowerShell', techniqueIds: ['T1059', 'T1547'], ttpTechniqueId: 'T1059' },
      { title: 'Autorun', techniqueIds: ['T1547'], ttpTechniqueId: 'T1547' },
      { title: 'Retired', techniqueIds: ['T1059.001'], ttpTechniqueId: 'T1059.001', isActive: false },
    ],
  });
  const actor = await db.threatActor.create({ data: { stixId: 'intrusion-set--test-9999', externalId: 'G9999', name: 'Test Group' } });
  actorId = actor.id;
  await db.threatActorTechnique.createMany({
    data: ['T1059', 'T1070', 'T1000'].map((ttpId) => ({ stixId: `relationship--${ttpId}`, actorId: actor.id, techniqueId: ids[ttpId] })),
  });
  await db.threatActor.create({ data: { stixId: 'intrusion-set--test-9998', externalId: 'G9998', name: 'Idle Group' } });
});

describe('technique scores', () => {
  it('a breakdown shows every term with value, weight and points, and the points add up to the score', async () => {
    const response = await app.api('GET', '/scores/technique/T1059', { token: viewer });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({
      technique_id: ids.T1059,
      ttp_id: 'T1059',
      status: 'validated',
      score: 90,
      inputs: { validated_tests: 3, detected_tests: 1, partially_detected_tests: 1, active_detection_rules: 1 },
    });
    expect(response.body.terms.map(({ description: _, ...term }: any) => term)).toEqual([
      { name: 'coverage', value: 1, weight: 0.5, points: 50 },
      { name: 'detection', value: 1, weight: 0.15, points: 15 },
      { name: 'validation_freshness', value: 1, weight: 0.15, points: 15 },
      // (1 detected + 0.5 partially + 0) / 3 validated tests
      { name: 'detection_rate', value: 0.5, weight: 0.2, points: 10 },
    ]);
    expect(new Date(response.body.inputs.last_validated_at).getTime()).toBeCloseTo(daysAgo(10).getTime(), -5);
    expect(response.body.formula).toContain('Σ');
  });

  it('freshness falls linearly from 90 to 365 days, inactive rules do not count, old validations give 0', async () => {
    const sub = await app.api('GET', '/scores/technique/T1059.001', { token: viewer });
    expect(sub.body.score).toBe(52.5);
    expect(Object.fromEntries(sub.body.terms.map((term: any) => [term.name, [term.value, term.points]]))).toEqual({
      coverage: [0.5, 25],
      detection: [0, 0],
      validation_freshness: [0.5, 7.5], // (365 − 227.5) / 275
      detection_rate: [1, 20],
    });
    const old = await app.api('GET', '/scores/technique/T1070', { token: viewer });
    expect(old.body.terms.map((term: any) => term.value)).toEqual([0, 0, 0, 0]);
    expect(old.body).toMatchObject({ score: 0, inputs: { validated_tests: 1, detected_tests: 0 } });
  });

  it('the shared techniqueScores contract gives the same scores for every active technique, and none for revoked ones', async () => {
    const scores = await techniqueScores(app.services);
    expect(Object.fromEntries([...scores.values()].map((score) => [score.ttpId, score.score]))).toEqual(EXPECTED);
    const t1547 = scores.get(ids.T1547)!;
    expect(t1547.terms).toEqual({
      coverage: { value: 0.25, weight: 0.5, points: 12.5 },
      detection: { value: 1, weight: 0.15, points: 15 },
      validation_freshness: { value: 0, weight: 0.15, points: 0 },
      detection_rate: { value: 0, weight: 0.2, points: 0 },
    });
    const some = await techniqueScores(app.services, [ids.T1070, ids.T1000, 'not-a-uuid']);
    expect([...some.keys()]).toEqual([ids.T1070]);
  });

  it('GraphQL gives the breakdown and the score of a technique as a field', async () => {
    const result = await app.graphql(
      '{ techniqueScore(ttpId: "T1547") { score terms { name points } inputs { activeDetectionRules } } technique(ttpId: "T1059") { score } }',
      {},
      viewer,
    );
    expect(result.data).toEqual({
      techniqueScore: {
        score: 27.5,
        terms: [
          { name: 'coverage', points: 12.5 },
          { name: 'detection', points: 15 },
          { name: 'validation_freshness', points: 0 },
          { name: 'detection_rate', points: 0 },
        ],
        inputs: { activeDetectionRules: 2 },
      },
      technique: { score: 90 },
    });
    const revoked = await app.graphql('{ technique(ttpId: "T1000") { score } }', {}, viewer);
    expect(revoked.data).toEqual({ technique: { score: null } });
  });

  it('unknown and revoked techniques answer 404', async () => {
    expect(await app.api('GET', '/scores/technique/T0000', { token: viewer })).toMatchObject({ status: 404, body: { code: 'NOT_FOUND' } });
    const revoked = await app.api('GET', '/scores/technique/T1000', { token: viewer });
    expect(revoked).toMatchObject({ status: 404, body: { code: 'NOT_FOUND' } });
    expect(revoked.body.detail).toContain('revoked or deprecated');
  });
});

describe('tactic, threat actor and organisation scores', () => {
  it('a tactic averages its techniques (each counted under every tactic it has), by short name, TA id or name', async () => {
    // defense-evasion: T1547 27.5, T1070 0, T1027 0 → 27.5 / 3 = 9.1666… → 9.17
    const expected = {
      tactic: { id: 'TA0005', short_name: 'defense-evasion', name: 'Defense Evasion', order: 4 },
      score: 9.17,
      technique_count: 3,
      coverage: { validated: 0, partial: 0, in_progress: 1, not_covered: 1, not_evaluated: 1, coverage_percentage: 0 },
    };
    for (const key of ['defense-evasion', 'TA0005', 'defense%20evasion']) {
      const response = await app.api('GET', `/scores/tactic/${key}`, { token: viewer });
      expect(response.status, key).toBe(200);
      expect(response.body).toMatchObject(expected);
    }
    // execution: (90 + 52.5) / 2 = 71.25; coverage (1 validated + 0.5 × 1 partial) / 2 = 75 %
    const execution = await app.api('GET', '/scores/tactic/execution', { token: viewer });
    expect(execution.body).toMatchObject({
      score: 71.25,
      technique_count: 2,
      coverage: { validated: 1, partial: 1, coverage_percentage: 75 },
    });
    const empty = await app.api('GET', '/scores/tactic/TA0001', { token: viewer });
    expect(empty.body).toMatchObject({ score: null, technique_count: 0, coverage: { coverage_percentage: null } });
    for (const key of ['custom-tactic', 'Custom%20Tactic']) {
      const custom = await app.api('GET', `/scores/tactic/${key}`, { token: viewer });
      expect(custom.body).toMatchObject({
        tactic: { id: null, short_name: 'custom-tactic', name: 'Custom Tactic', order: null },
        score: 50,
        technique_count: 1,
      });
    }
    expect(await app.api('GET', '/scores/tactic/nowhere', { token: viewer })).toMatchObject({ status: 404, body: { code: 'NOT_FOUND' } });
  });

  it('a threat actor is scored on the active techniques it uses, by G id or uuid', async () => {
    // T1059 90 and T1070 0 (T1000 is revoked) → 45; coverage (1 + 0) / 2 = 50 %
    const byGroupId = await app.api('GET', '/scores/threat-actor/g9999', { token: viewer });
    expect(byGroupId.status).toBe(200);
    expect(byGroupId.body).toMatchObject({
      threat_actor: { id: actorId, external_id: 'G9999', name: 'Test Group' },
      score: 45,
      technique_count: 2,
      coverage: { validated: 1, partial: 0, in_progress: 0, not_covered: 1, not_evaluated: 0, coverage_percentage: 50 },
      techniques: [
        { ttp_id: 'T1070', status: 'not_covered', score: 0 },
        { ttp_id: 'T1059', status: 'validated', score: 90 },
      ],
    });
    expect((await app.api('GET', `/scores/threat-actor/${actorId}`, { token: viewer })).body.score).toBe(45);
    const idle = await app.api('GET', '/scores/threat-actor/G9998', { token: viewer });
    expect(idle.body).toMatchObject({ score: null, technique_count: 0, techniques: [] });
    expect((await app.api('GET', '/scores/threat-actor/G0001', { token: viewer })).status).toBe(404);
    expect((await app.api('GET', `/scores/threat-actor/${randomUUID()}`, { token: viewer })).status).toBe(404);
    expect((await app.api('GET', '/scores/threat-actor/apt-nothing', { token: viewer })).status).toBe(400);
  });

  it('the organisation score is the mean over active techniques, with every tactic in matrix order', async () => {
    // (90 + 52.5 + 27.5 + 0 + 0 + 50) / 6 = 220 / 6 = 36.666… → 36.67
    const response = await app.api('GET', '/scores/organization', { token: viewer });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({
      score: 36.67,
      technique_count: 6,
      weights: { coverage: 0.5, detection: 0.15, validation_freshness: 0.15, detection_rate: 0.2 },
    });
    expect(response.body.by_tactic).toEqual([
      { id: 'TA0001', short_name: 'initial-access', name: 'Initial Access', order: 1, score: null, technique_count: 0 },
      { id: 'TA0002', short_name: 'execution', name: 'Execution', order: 2, score: 71.25, technique_count: 2 },
      { id: 'TA0003', short_name: 'persistence', name: 'Persistence', order: 3, score: 27.5, technique_count: 1 },
      { id: 'TA0005', short_name: 'defense-evasion', name: 'Defense Evasion', order: 4, score: 9.17, technique_count: 3 },
      { id: null, short_name: 'custom-tactic', name: 'Custom Tactic', order: null, score: 50, technique_count: 1 },
    ]);
    const graphql = await app.graphql('{ organizationScore { score techniqueCount } }', {}, viewer);
    expect(graphql.data).toEqual({ organizationScore: { score: 36.67, techniqueCount: 6 } });
  });

  it('the organisation score is served from the cache until analytics are invalidated', async () => {
    const first = await app.api('GET', '/scores/organization', { token: viewer });
    // A change that publishes no event: the cached answer stands.
    await app.services.prisma.technique.update({ where: { id: ids.T1027 }, data: { statusGlobal: 'validated' } });
    const cached = await app.api('GET', '/scores/organization', { token: viewer });
    expect(cached.body).toEqual(first.body);
    await app.services.cache.invalidate('analytics');
    // T1027 now scores 50 (coverage only): (220 + 50) / 6 = 45
    const fresh = await app.api('GET', '/scores/organization', { token: viewer });
    expect(fresh.body.score).toBe(45);
    expect(fresh.body.computed_at > first.body.computed_at).toBe(true);
    await app.services.prisma.technique.update({ where: { id: ids.T1027 }, data: { statusGlobal: 'not_evaluated' } });
    await app.services.cache.invalidate('analytics');
  });
});

describe('score history', () => {
  const WEEK = 7 * DAY;
  /** Monday 00:00 UTC of the week holding `date`. */
  const weekStart = (date: Date) => {
    const day = new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), date.getUTCDate()));
    return new Date(day.getTime() - ((day.getUTCDay() + 6) % 7) * DAY);
  };

  it('gives one point per week from the last snapshot of that week, nulls for weeks without one', async () => {
    const twoWeeksBack = weekStart(daysAgo(14));
    const fourWeeksBack = weekStart(daysAgo(28));
    const tenWeeksBack = weekStart(daysAgo(70));
    const snapshot = (at: Date, score: number, coveragePercentage: number) =>
      app.services.prisma.snapshot.create({ data: { kind: 'manual', createdAt: at, score, coveragePercentage } });
    await snapshot(new Date(twoWeeksBack.getTime() + 3_600_000), 30, 20);
    const last = await snapshot(new Date(twoWeeksBack.getTime() + 2 * DAY), 35.5, 25);
    await snapshot(new Date(fourWeeksBack.getTime() + DAY), 20, 10);
    await snapshot(new Date(tenWeeksBack.getTime() + DAY), 10, 5);

    const month = await app.api('GET', '/scores/history?period=30d', { token: viewer });
    expect(month.status).toBe(200);
    const weeks = month.body.weeks as any[];
    const first = weekStart(daysAgo(30));
    expect(weeks).toHaveLength((weekStart(new Date()).getTime() - first.getTime()) / WEEK + 1);
    expect(new Date(weeks[0].week_start).getTime()).toBe(first.getTime());
    const at = (start: Date) => weeks.find((week) => new Date(week.week_start).getTime() === start.getTime());
    expect(at(twoWeeksBack)).toMatchObject({ snapshot_id: last.id, score: 35.5, coverage_percentage: 25 });
    expect(at(fourWeeksBack)).toMatchObject({ score: 20, coverage_percentage: 10 });
    expect(at(weekStart(daysAgo(7)))).toEqual({
      week_start: weekStart(daysAgo(7)).toISOString(),
      snapshot_id: null,
      snapshot_at: null,
      score: null,
      coverage_percentage: null,
    });
    expect(weeks.filter((week) => week.score !== null)).toHaveLength(2);

    const quarter = await app.api('GET', '/scores/history', { token: viewer });
    expect(quarter.body.period).toBe('90d');
    expect(quarter.body.weeks.filter((week: any) => week.score !== null).map((week: any) => week.score)).toEqual([10, 20, 35.5]);
    const year = await app.api('GET', '/scores/history?period=1y', { token: viewer });
    expect(year.body.weeks.length).toBeGreaterThanOrEqual(53);
    expect(await app.api('GET', '/scores/history?period=2w', { token: viewer })).toMatchObject({ status: 400, body: { field: 'period' } });
  });
});

describe('score config', () => {
  it('admins read the weights (created with the defaults); others may not', async () => {
    const config = await app.api('GET', '/scores/config', { token: admin });
    expect(config.status).toBe(200);
    expect(config.body).toMatchObject({
      weights: { coverage: 0.5, detection: 0.15, validation_freshness: 0.15, detection_rate: 0.2 },
      defaults: { coverage: 0.5, detection: 0.15, validation_freshness: 0.15, detection_rate: 0.2 },
    });
    expect(config.body.terms.map((term: any) => term.name)).toEqual(['coverage', 'detection', 'validation_freshness', 'detection_rate']);
    expect(await app.services.prisma.scoreConfig.count()).toBe(1);
    for (const role of ['viewer', 'red_lead', 'blue_tech'] as const) {
      const token = await app.tokenFor(role);
      expect((await app.api('GET', '/scores/config', { token })).status).toBe(403);
      expect((await app.api('PATCH', '/scores/config', { token, body: { weights: { coverage: 0.5 } } })).status).toBe(403);
    }
  });

  it('weights are validated: known terms only, each from 0 to 1, adding up to 1', async () => {
    const patch = (body: unknown) => app.api('PATCH', '/scores/config', { token: admin, body });
    expect(await patch({ weights: { coverage: -0.1, detection: 0.75 } })).toMatchObject({
      status: 400,
      body: { code: 'VALIDATION_ERROR', field: 'weights.coverage' },
    });
    expect(await patch({ weights: { detection_rate: 1.5 } })).toMatchObject({ status: 400, body: { field: 'weights.detection_rate' } });
    const sum = await patch({ weights: { coverage: 0.9 } });
    expect(sum).toMatchObject({ status: 400, body: { field: 'weights' } });
    expect(sum.body.detail).toContain('1.4');
    expect(await patch({ weights: { reach: 0.1 } })).toMatchObject({ status: 400, body: { code: 'VALIDATION_ERROR' } });
    expect(await patch({ weights: {} })).toMatchObject({ status: 400, body: { field: 'weights' } });
    expect((await patch({})).status).toBe(400);
    expect((await patch({ weights: { coverage: 'half' } })).status).toBe(400);
    expect((await app.api('GET', '/scores/config', { token: admin })).body.weights.coverage).toBe(0.5);
  });

  it('a valid change is audited, rescoring every technique and dropping the cached organisation score', async () => {
    const before = await app.api('GET', '/scores/organization', { token: viewer });
    expect(before.body.score).toBe(36.67);
    // 0.4 + 0.25 + 0.15 + 0.2 = 1
    const updated = await app.api('PATCH', '/scores/config', { token: admin, body: { weights: { coverage: 0.4, detection: 0.25 } } });
    expect(updated.status).toBe(200);
    expect(updated.body.weights).toEqual({ coverage: 0.4, detection: 0.25, validation_freshness: 0.15, detection_rate: 0.2 });
    expect(updated.body.updated_by).toBe(adminId);
    const audit = await app.services.prisma.auditLog.findFirstOrThrow({ where: { action: 'update_score_config' } });
    expect(audit).toMatchObject({ entityType: 'score_config', entityId: '1', userId: adminId });
    expect(audit.details).toMatchObject({ before: { coverage: 0.5, detection: 0.15 }, after: { coverage: 0.4, detection: 0.25 } });

    // T1059.001: 0.4 × 0.5 × 100 + 0 + 0.15 × 0.5 × 100 + 0.2 × 1 × 100 = 20 + 7.5 + 20 = 47.5
    const sub = await app.api('GET', '/scores/technique/T1059.001', { token: viewer });
    expect(sub.body.score).toBe(47.5);
    expect(sub.body.terms[0]).toMatchObject({ name: 'coverage', weight: 0.4, points: 20 });
    // T1547: 0.4 × 0.25 × 100 + 0.25 × 100 = 10 + 25 = 35; T1059 stays 40 + 25 + 15 + 10 = 90; CUSTOM-1: 40
    // organisation: (90 + 47.5 + 35 + 0 + 0 + 40) / 6 = 212.5 / 6 = 35.4166… → 35.42
    const after = await app.api('GET', '/scores/organization', { token: viewer });
    expect(after.body).toMatchObject({ score: 35.42, weights: { coverage: 0.4, detection: 0.25 } });

    const graphql = await app.graphql(
      'mutation { updateScoreConfig(input: { weights: { coverage: 0.5, detection: 0.15 } }) { weights { coverage detection validationFreshness detectionRate } } }',
      {},
      admin,
    );
    expect(graphql.data).toEqual({
      updateScoreConfig: { weights: { coverage: 0.5, detection: 0.15, validationFreshness: 0.15, detectionRate: 0.2 } },
    });
    expect((await app.api('GET', '/scores/organization', { token: viewer })).body.score).toBe(36.67);
  });
});
