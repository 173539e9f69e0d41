import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from '../../../test/helpers/app.ts';
import { team, type Team } from '../../../test/helpers/test-runs.ts';
import type { CoverageStatus } from '../../generated/prisma/enums.ts';

/**
 * A small fixed dataset with hand-computed detection confidence, revalidation queue order and the firing of every
 * alert rule type. Times are relative to now, so ages are exact up to the test's own few seconds.
 */
const DAY = 86_400_000;
const ago = (days: number) => new Date(Date.now() - days * DAY);

const app = useTestApp();
let t: Team;
const ids: Record<string, string> = {};

async function technique(ttpId: string, statusGlobal: CoverageStatus, platforms: string[] = []) {
  const row = await app.services.prisma.technique.create({
    data: { ttpId, name: `Technique ${ttpId}`, tactic: 'Execution', statusGlobal, platforms },
  });
  ids[ttpId] = row.id;
  return row.id;
}

async function asset(name: string, platform: string, status: 'active' | 'disabled' | 'retired', techniques: string[]) {
  const row = await app.services.prisma.detectionAsset.create({ data: { name, kind: 'siem_rule', platform, status } });
  for (const ttpId of techniques)
    await app.services.prisma.detectionAssetTechnique.create({ data: { assetId: row.id, techniqueId: ids[ttpId] } });
  return row.id;
}

const validation = (ttpId: string, assetId: string | null, validatedDaysAgo: number, validDays = 90) =>
  app.services.prisma.detectionValidation.create({
    data: {
      techniqueId: ids[ttpId],
      assetId,
      validatedAt: ago(validatedDaysAgo),
      validUntil: new Date(ago(validatedDaysAgo).getTime() + validDays * DAY),
    },
  });

async function decidedTest(ttpId: string, state: 'validated' | 'rejected', decidedDaysAgo: number) {
  const id = randomUUID();
  await app.services.prisma.test.create({
    data: {
      id,
      lineageId: id,
      name: `${state} ${ttpId}`,
      techniqueId: ids[ttpId],
      createdById: t.red_lead.id,
      state,
      decidedAt: ago(decidedDaysAgo),
      detectionResult: 'detected',
    },
  });
}

beforeAll(async () => {
  t = await team(app);
  // Coverage: T1 and T5 validated, T2 partial, T3 and T6 not covered, T4 not evaluated → (2 + 0.5) / 6 = 41.7 %.
  await technique('T0001', 'validated');
  await technique('T0002', 'partial');
  await technique('T0003', 'not_covered');
  await technique('T0004', 'not_evaluated');
  await technique('T0005', 'validated');
  await technique('T0006', 'not_covered');

  // T1: two active assets, a validation 45 of 90 days old.
  const a1 = await asset('Rule A', 'linux', 'active', ['T0001']);
  await asset('Rule B', 'linux', 'active', ['T0001']);
  await validation('T0001', a1, 45);
  // T2: one active and one disabled asset on Windows, a validation 30 of 90 days old, a Windows change 10 days ago
  // recorded without invalidating (a change the service would have applied: only the confidence sees it here).
  const a2 = await asset('EDR C', 'windows', 'active', ['T0002']);
  await asset('EDR D', 'windows', 'disabled', ['T0002']);
  await validation('T0002', a2, 30);
  await app.services.prisma.infrastructureChange.create({ data: { title: 'GPO change', changedAt: ago(10), platforms: ['windows'] } });
  // T3: a retired asset only, and a validation that expired 30 days ago.
  const a3 = await asset('Old IDS', 'network', 'retired', ['T0003']);
  await validation('T0003', a3, 120);
  // T4: no asset, a manual validation 9 of 90 days old.
  await validation('T0004', null, 9);
  // T5: covered by a test validated 100 days ago (older than the 90-day freshness window).
  await decidedTest('T0005', 'validated', 100);
  // Rejected tests: two in the last week, one older.
  await decidedTest('T0006', 'rejected', 1);
  await decidedTest('T0006', 'rejected', 3);
  await decidedTest('T0006', 'rejected', 10);
  // Threat actors: T6 used by two active actors and a revoked one; T3 by one.
  for (const [n, revoked, uses] of [
    [1, false, ['T0006', 'T0003']],
    [2, false, ['T0006']],
    [3, true, ['T0006']],
  ] as const) {
    const actor = await app.services.prisma.threatActor.create({
      data: { stixId: `intrusion-set--${randomUUID()}`, name: `Actor ${n}`, revoked },
    });
    for (const ttpId of uses) {
      await app.services.prisma.threatActorTechnique.create({
        data: { stixId: `relationship--${randomUUID()}`, actorId: actor.id, techniqueId: ids[ttpId] },
      });
    }
  }
  // Risk: T2 80, T5 65, T3 50 (T1 none).
  for (const [ttpId, score] of [
    ['T0002', 80],
    ['T0005', 65],
    ['T0003', 50],
  ] as const) {
    await app.services.prisma.riskProfile.create({
      data: { techniqueId: ids[ttpId], impact: 0.8, likelihood: 0.5, score, actorCount: 0, tacticWeight: 1 },
    });
  }
  // The latest snapshot said 60 % → a drop of 18.3 points.
  await app.services.prisma.snapshot.create({ data: { kind: 'manual', coveragePercentage: 60, summary: { total: 6, validated: 3 } } });
});

describe('detection confidence on a fixed dataset', () => {
  it('equals the hand-computed figures and terms', async () => {
    const dashboard = await app.api('GET', '/detection-lifecycle/dashboard', { token: t.viewer.token });
    const byTtp = Object.fromEntries(dashboard.body.techniques.map((row: any) => [row.ttp_id, row]));
    // round(100 × (0.2 × min(assets, 2)/2 + 0.8 × v) × 0.5^changes)
    expect(byTtp.T0001).toMatchObject({
      active_assets: 2,
      asset_term: 1,
      validation_term: 0.5,
      changes_since_validation: 0,
      confidence: 60,
    });
    expect(byTtp.T0002).toMatchObject({
      active_assets: 1,
      asset_term: 0.5,
      validation_term: 0.6667,
      changes_since_validation: 1,
      change_factor: 0.5,
      confidence: 32,
    });
    expect(byTtp.T0003).toMatchObject({ active_assets: 0, validation_term: 0, fresh_validations: 0, confidence: 0 });
    expect(byTtp.T0004).toMatchObject({ active_assets: 0, validation_term: 0.9, confidence: 72 });
    expect(dashboard.body).toMatchObject({ total: 4, average_confidence: 41, with_fresh_validation: 3, without_active_asset: 2 });
    expect(dashboard.body.techniques.map((row: any) => row.ttp_id)).toEqual(['T0003', 'T0002', 'T0001', 'T0004']);
  });
});

describe('revalidation queue on a fixed dataset', () => {
  it('lists the techniques with their reasons, highest risk first', async () => {
    const generated = await app.api('POST', '/ownership/revalidation-queue/generate', { token: t.blue_lead.token });
    expect(generated.body).toEqual({ added: 3, kept: 0, removed: 0, total: 3 });
    const queue = await app.api('GET', '/ownership/revalidation-queue', { token: t.blue_lead.token });
    expect(queue.body.items.map((entry: any) => [entry.technique.ttp_id, entry.reason, entry.risk_score])).toEqual([
      ['T0002', 'infrastructure_change', 80],
      ['T0005', 'coverage_stale', 65],
      ['T0003', 'validation_expired', 50],
    ]);
    expect(queue.body.items[0].detail).toBe('Infrastructure change since the latest validation: GPO change');
    // Generating again keeps the entries.
    expect((await app.api('POST', '/ownership/revalidation-queue/generate', { token: t.admin.token })).body).toEqual({
      added: 0,
      kept: 3,
      removed: 0,
      total: 3,
    });
  });
});

describe('alert rules on a fixed dataset', () => {
  const cases = [
    ['coverage_below', { threshold: 50 }, [['global', { coverage_percentage: 41.7, threshold: 50 }]]],
    ['coverage_below', { threshold: 40 }, []],
    ['coverage_drop', { points: 10 }, [['global', { coverage_percentage: 41.7, snapshot_percentage: 60, drop: 18.3 }]]],
    ['coverage_drop', { points: 20 }, []],
    ['validation_expired', {}, [['T0003', { ttp_id: 'T0003' }]]],
    ['actor_technique_uncovered', { min_actors: 2 }, [['T0006', { actors: 2, status: 'not_covered' }]]],
    ['actor_technique_uncovered', { min_actors: 3 }, []],
    ['confidence_below', { threshold: 50 }, [['T0002', { confidence: 32, active_assets: 1 }]]],
    ['rejected_tests', { count: 2, window_days: 7 }, [['global', { rejected: 2, count: 2, window_days: 7 }]]],
    ['rejected_tests', { count: 3, window_days: 7 }, []],
  ] as const;

  it('fires exactly the hand-computed subjects of every rule type, once', async () => {
    const rules: string[] = [];
    for (const [ruleType, parameters] of cases) {
      const created = await app.api('POST', '/alerts/rules', {
        token: t.red_lead.token,
        body: { name: `${ruleType} ${JSON.stringify(parameters)}`, rule_type: ruleType, severity: 'medium', parameters },
      });
      expect(created.status, JSON.stringify(created.body)).toBe(201);
      rules.push(created.body.id);
    }
    const first = await app.api('POST', '/alerts/evaluate', { token: t.blue_lead.token });
    expect(first.body).toMatchObject({ rules_evaluated: rules.length, fired: 6 });
    for (const [index, [, , expected]] of cases.entries()) {
      const fired = (await app.api('GET', `/alerts?rule_id=${rules[index]}`, { token: t.viewer.token })).body.items;
      expect(
        fired.map((alert: any) => alert.subject),
        cases[index][0],
      ).toEqual(expected.map(([subject]) => (subject === 'global' ? 'global' : ids[subject])));
      for (const [i, [, figures]] of expected.entries()) expect(fired[i].figures).toMatchObject(figures);
    }
    expect((await app.api('POST', '/alerts/evaluate', { token: t.blue_lead.token })).body.fired).toBe(0);

    const summary = await app.api('GET', '/alerts/summary', { token: t.viewer.token });
    expect(summary.body).toMatchObject({
      total: 6,
      by_status: { open: 6, acknowledged: 0, resolved: 0, dismissed: 0 },
      by_severity: { medium: 6, high: 0 },
      by_rule_type: {
        coverage_below: 1,
        coverage_drop: 1,
        validation_expired: 1,
        actor_technique_uncovered: 1,
        confidence_below: 1,
        rejected_tests: 1,
      },
    });
  });

  it('fires again after an alert closes only once the cooldown has passed', async () => {
    const [alert] = (await app.api('GET', '/alerts?rule_type=validation_expired', { token: t.viewer.token })).body.items;
    await app.api('POST', `/alerts/${alert.id}/resolve`, { token: t.blue_lead.token });
    expect((await app.api('POST', '/alerts/evaluate', { token: t.blue_lead.token })).body.fired).toBe(0);
    await app.api('PATCH', `/alerts/rules/${alert.rule_id}`, { token: t.blue_lead.token, body: { cooldown_minutes: 0 } });
    const again = await app.api('POST', '/alerts/evaluate', { token: t.blue_lead.token });
    expect(again.body.fired).toBe(1);
  });
});

describe('validation_expired and an invalidated latest validation', () => {
  it('does not fire when the latest validation was invalidated, even though an older one expired; the queue says invalidated', async () => {
    await technique('T0007', 'not_covered');
    await validation('T0007', null, 200);
    const latest = await validation('T0007', null, 20);
    await app.services.prisma.detectionValidation.update({
      where: { id: latest.id },
      data: { invalidatedAt: ago(5), invalidatedReason: 'rule removed' },
    });
    const rule = await app.api('POST', '/alerts/rules', {
      token: t.red_lead.token,
      body: { name: 'expired, again', rule_type: 'validation_expired', severity: 'low', cooldown_minutes: 0 },
    });
    await app.api('POST', '/alerts/evaluate', { token: t.blue_lead.token });
    const fired = (await app.api('GET', `/alerts?rule_id=${rule.body.id}`, { token: t.viewer.token })).body.items;
    expect(fired.map((alert: any) => alert.subject)).not.toContain(ids.T0007);
    await app.api('POST', '/ownership/revalidation-queue/generate', { token: t.blue_lead.token });
    const queue = (await app.api('GET', '/ownership/revalidation-queue', { token: t.blue_lead.token })).body.items;
    expect(queue.filter((entry: any) => entry.technique.ttp_id === 'T0007').map((entry: any) => entry.reason)).toEqual([
      'validation_invalidated',
    ]);
  });
});
