import { beforeAll, describe, expect, it } from 'vitest';
import type { CoverageStatus } from '../../generated/prisma/enums.ts';
import { techniqueScores } from '../scores/technique-scores.ts';
import { dailySnapshotJob } from './jobs.ts';
import { jobDefinitions } from '../../../workers/definitions.ts';
import { useTestApp } from '../../../test/helpers/app.ts';

let admin: string;
let viewer: string;

/** Technique id by ttp id, for the fixed catalog below. */
const ids = new Map<string, string>();

async function technique(ttpId: string, statusGlobal: CoverageStatus, flags: { revoked?: boolean; deprecated?: boolean } = {}) {
  const row = await app.services.prisma.technique.create({ data: { ttpId, name: `Technique ${ttpId}`, statusGlobal, ...flags } });
  ids.set(ttpId, row.id);
}

const setStatus = (ttpId: string, statusGlobal: CoverageStatus) =>
  app.services.prisma.technique.update({ where: { ttpId }, data: { statusGlobal } });

/**
 * The scores a snapshot should hold now: each technique's score from the shared scoring contract, and the
 * organisation score as /scores/organization gives it (the mean technique score).
 */
async function expectedScores() {
  const scores = await techniqueScores(app.services);
  const byTtp = new Map([...scores.values()].map((score) => [score.ttpId, score.score]));
  const mean = [...byTtp.values()].reduce((sum, score) => sum + score, 0) / byTtp.size;
  await app.services.cache.invalidate('analytics'); // statuses are changed through Prisma here, without coverage events
  const organization = await app.api('GET', '/scores/organization', { token: await app.tokenFor('viewer') });
  expect(organization.body.score).toBeCloseTo(mean, 2);
  return { byTtp, mean: organization.body.score as number };
}

/** Midnight UTC `daysAgo` days before today, plus `hours`. */
function utcDay(daysAgo: number, hours = 0): Date {
  const now = new Date();
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() - daysAgo, hours));
}
const dateOf = (date: Date) => date.toISOString().slice(0, 10);
const backdate = (id: string, createdAt: Date) => app.services.prisma.snapshot.update({ where: { id }, data: { createdAt } });

const app = useTestApp();

beforeAll(async () => {
  admin = await app.tokenFor('admin');
  viewer = await app.tokenFor('viewer');
  await technique('T9501', 'validated');
  await technique('T9502', 'validated');
  await technique('T9503', 'partial');
  await technique('T9504', 'in_progress');
  await technique('T9505', 'not_covered');
  await technique('T9506', 'not_evaluated');
  await technique('T9507', 'validated', { revoked: true });
  await technique('T9508', 'validated', { deprecated: true });
});

/** The counts of the catalog above: T9501–T9506 active (T9507 revoked and T9508 deprecated are left out). */
const BASELINE = { total: 6, validated: 2, partial: 1, in_progress: 1, not_covered: 1, not_evaluated: 1 };
/** The counts after the second snapshot's status changes (see there). */
const CHANGED = { total: 6, validated: 3, partial: 1, in_progress: 1, not_covered: 1, not_evaluated: 0 };

let first: any;
let second: any;

describe('snapshots', () => {
  it('a lead records every active technique with its status and score; summary, coverage and organisation score are exact', async () => {
    const events: unknown[] = [];
    const off = app.services.bus.on('snapshot.created', (event) => void events.push(event.payload));
    const lead = await app.tokenFor('red_lead');
    const expected = await expectedScores();
    const created = await app.api('POST', '/snapshots', { token: lead, body: { name: 'Baseline' } });
    off();
    expect(created.status).toBe(201);
    first = created.body;
    // Active techniques: T9501–T9506 (T9507 revoked and T9508 deprecated are left out) → total 6.
    // validated 2 (T9501, T9502), partial 1 (T9503); coverage = (2 + 0.5 × 1) / 6 × 100 = 41.67 → 41.7 (one decimal).
    expect(first).toMatchObject({
      name: 'Baseline',
      kind: 'manual',
      summary: BASELINE,
      coverage_percentage: 41.7,
      score: expected.mean,
    });
    expect(first.created_by).toBe((await app.api('GET', '/users/me', { token: lead })).body.id);
    expect(events).toEqual([{ snapshotId: first.id, kind: 'manual' }]);

    const read = await app.api('GET', `/snapshots/${first.id}`, { token: viewer });
    expect(read.status).toBe(200);
    expect(read.body.techniques).toEqual(
      (
        [
          ['T9501', 'validated'],
          ['T9502', 'validated'],
          ['T9503', 'partial'],
          ['T9504', 'in_progress'],
          ['T9505', 'not_covered'],
          ['T9506', 'not_evaluated'],
        ] as const
      ).map(([ttpId, status]) => ({
        technique_id: ids.get(ttpId),
        ttp_id: ttpId,
        name: `Technique ${ttpId}`,
        status,
        score: expected.byTtp.get(ttpId),
      })),
    );
  });

  it('the audit entry carries the kind and counts', async () => {
    const audit = await app.services.prisma.auditLog.findFirstOrThrow({ where: { action: 'create_snapshot', entityId: first.id } });
    expect(audit).toMatchObject({
      entityType: 'snapshot',
      details: { kind: 'manual', name: 'Baseline', ...BASELINE },
    });
  });

  it('a second snapshot after status changes; compare lists exactly the changed techniques, improvements, regressions and one-sided ones', async () => {
    await setStatus('T9503', 'validated'); // partial → validated: improved
    await setStatus('T9504', 'not_covered'); // in_progress → not_covered: regressed
    await setStatus('T9506', 'partial'); // not_evaluated → partial: improved
    await app.services.prisma.technique.update({ where: { ttpId: 'T9505' }, data: { deprecated: true } }); // only in the first
    await technique('T9509', 'in_progress'); // only in the second
    const expected = await expectedScores();
    const created = await app.api('POST', '/snapshots', { token: await app.tokenFor('blue_lead'), body: {} });
    expect(created.status).toBe(201);
    second = created.body;
    // T9501, T9502, T9503 validated; T9506 partial; T9509 in_progress; T9504 not_covered → total 6,
    // coverage (3 + 0.5 × 1) / 6 × 100 = 58.33 → 58.3.
    expect(second).toMatchObject({
      name: null,
      summary: CHANGED,
      coverage_percentage: 58.3,
      score: expected.mean,
    });

    const compare = await app.api('GET', `/snapshots/compare?a=${first.id}&b=${second.id}`, { token: viewer });
    expect(compare.status).toBe(200);
    const change = (ttpId: string, before: string, after: string, direction: string) => ({
      technique_id: ids.get(ttpId),
      ttp_id: ttpId,
      name: `Technique ${ttpId}`,
      before,
      after,
      change: direction,
    });
    expect(compare.body.changed).toMatchObject([
      change('T9503', 'partial', 'validated', 'improved'),
      change('T9504', 'in_progress', 'not_covered', 'regressed'),
      change('T9506', 'not_evaluated', 'partial', 'improved'),
    ]);
    expect(compare.body).toMatchObject({
      improved: 2,
      regressed: 1,
      unchanged: 2, // T9501 and T9502 stay validated
      only_in_a: [{ technique_id: ids.get('T9505'), ttp_id: 'T9505', name: 'Technique T9505', status: 'not_covered' }],
      only_in_b: [{ technique_id: ids.get('T9509'), ttp_id: 'T9509', name: 'Technique T9509', status: 'in_progress' }],
      coverage_change: 16.6, // 58.3 − 41.7
      a: { id: first.id, coverage_percentage: 41.7, validated: 2, total: 6 },
      b: { id: second.id, coverage_percentage: 58.3, validated: 3, total: 6 },
    });

    const reversed = await app.api('GET', `/snapshots/compare?a=${second.id}&b=${first.id}`, { token: viewer });
    expect(reversed.body).toMatchObject({ improved: 1, regressed: 2, unchanged: 2, coverage_change: -16.6 });
    expect(reversed.body.only_in_a.map((row: any) => row.ttp_id)).toEqual(['T9509']);

    const same = await app.api('GET', `/snapshots/compare?a=${first.id}&b=${first.id}`, { token: viewer });
    expect(same.body).toMatchObject({
      changed: [],
      improved: 0,
      regressed: 0,
      unchanged: 6,
      only_in_a: [],
      only_in_b: [],
      coverage_change: 0,
    });
  });

  it('lists snapshots newest first without technique rows, paginated and filtered by kind', async () => {
    const list = await app.api('GET', '/snapshots?limit=1', { token: viewer });
    expect(list.body).toMatchObject({ total: 2, offset: 0, limit: 1 });
    expect(list.body.items.map((item: any) => item.id)).toEqual([second.id]);
    expect(list.body.items[0].techniques).toBeUndefined();
    const next = await app.api('GET', '/snapshots?offset=1', { token: viewer });
    expect(next.body.items.map((item: any) => item.id)).toEqual([first.id]);
    expect((await app.api('GET', '/snapshots?kind=daily', { token: viewer })).body).toMatchObject({ total: 0, items: [] });
  });

  it('evolution gives every snapshot oldest first with date, coverage, score and counts; from/to narrow it', async () => {
    await backdate(first.id, utcDay(3, 10));
    const evolution = await app.api('GET', '/snapshots/evolution', { token: viewer });
    expect(evolution.body).toEqual([
      {
        id: first.id,
        name: 'Baseline',
        kind: 'manual',
        date: utcDay(3, 10).toISOString(),
        coverage_percentage: 41.7,
        score: first.score,
        ...BASELINE,
      },
      {
        id: second.id,
        name: null,
        kind: 'manual',
        date: second.created_at,
        coverage_percentage: 58.3,
        score: second.score,
        ...CHANGED,
      },
    ]);
    const narrowed = await app.api('GET', `/snapshots/evolution?from=${utcDay(1).toISOString()}`, { token: viewer });
    expect(narrowed.body.map((point: any) => point.id)).toEqual([second.id]);
    const upTo = await app.api('GET', `/snapshots/evolution?to=${utcDay(2).toISOString()}`, { token: viewer });
    expect(upTo.body.map((point: any) => point.id)).toEqual([first.id]);
  });

  it('GraphQL answers the same snapshot, comparison and evolution', async () => {
    const result = await app.graphql(
      `query ($a: UUID!, $b: UUID!) {
        snapshot(id: $a) { kind coveragePercentage summary { total validated } techniques { ttpId status } }
        snapshotComparison(a: $a, b: $b) { improved regressed changed { ttpId before after change } }
        snapshotEvolution { id }
      }`,
      { a: first.id, b: second.id },
      viewer,
    );
    expect(result.errors).toBeUndefined();
    expect(result.data.snapshot).toMatchObject({ kind: 'manual', coveragePercentage: 41.7, summary: { total: 6, validated: 2 } });
    expect(result.data.snapshot.techniques).toHaveLength(6);
    expect(result.data.snapshotComparison).toEqual({
      improved: 2,
      regressed: 1,
      changed: [
        { ttpId: 'T9503', before: 'partial', after: 'validated', change: 'improved' },
        { ttpId: 'T9504', before: 'in_progress', after: 'not_covered', change: 'regressed' },
        { ttpId: 'T9506', before: 'not_evaluated', after: 'partial', change: 'improved' },
      ],
    });
    expect(result.data.snapshotEvolution).toEqual([{ id: first.id }, { id: second.id }]);
  });
});

describe('posture history and the daily snapshot', () => {
  it('the daily job takes one snapshot per UTC day, as the system, even when run twice at once', async () => {
    const [one, two] = await Promise.all([dailySnapshotJob.run({}, app.services), dailySnapshotJob.run({}, app.services)]);
    const results = [one, two] as { created: boolean; snapshotId: string; day: string }[];
    expect(results.map((result) => result.created).sort()).toEqual([false, true]);
    expect(results[0].snapshotId).toBe(results[1].snapshotId);
    expect(results[0].day).toBe(dateOf(new Date()));
    const again = (await dailySnapshotJob.run({}, app.services)) as { created: boolean; snapshotId: string };
    expect(again).toMatchObject({ created: false, snapshotId: results[0].snapshotId });
    const daily = await app.services.prisma.snapshot.findMany({ where: { kind: 'daily' } });
    expect(daily).toHaveLength(1);
    expect(daily[0]).toMatchObject({ createdById: null, name: `Daily snapshot ${dateOf(new Date())}`, coveragePercentage: 58.3 });
    const audit = await app.services.prisma.auditLog.findFirstOrThrow({ where: { action: 'create_snapshot', entityId: daily[0].id } });
    expect(audit).toMatchObject({ userId: null, username: 'system', details: { kind: 'daily' } });

    // Yesterday's daily snapshot does not count for today.
    await backdate(daily[0].id, utcDay(1, 0));
    const today = (await dailySnapshotJob.run({}, app.services)) as { created: boolean; snapshotId: string };
    expect(today.created).toBe(true);
    expect(today.snapshotId).not.toBe(daily[0].id);
  });

  it('the daily job is registered on the maintenance queue at midnight UTC', async () => {
    const definition = jobDefinitions.find((job) => job.name === 'daily-snapshot');
    expect(definition).toMatchObject({ queue: 'maintenance', repeat: { pattern: '0 0 * * *', tz: 'UTC' } });
    const status = await app.services.jobs.status();
    const scheduled = status.jobs.find((job) => job.id === 'daily-snapshot' || job.name === 'daily-snapshot');
    expect(scheduled?.next_run_time).toBe(utcDay(-1).toISOString());
  });

  it('a lead takes an immediate posture snapshot; posture history keeps the last snapshot of each day over the period', async () => {
    const posture = await app.api('POST', '/dashboard/posture-snapshot', { token: await app.tokenFor('blue_lead') });
    expect(posture.status).toBe(201);
    expect(posture.body).toMatchObject({ kind: 'posture', coverage_percentage: 58.3, summary: { total: 6, validated: 3 } });

    // Days so far: 3 days ago → first (10:00); yesterday → the daily snapshot (00:00); today → second, today's daily, posture.
    // Add a later snapshot 3 days ago (18:00) with other figures, and one 100 days ago.
    await setStatus('T9501', 'partial');
    const evening = (await app.api('POST', '/snapshots', { token: admin, body: { name: 'Evening' } })).body;
    await backdate(evening.id, utcDay(3, 18));
    const old = (await app.api('POST', '/snapshots', { token: admin, body: { name: 'Old' } })).body;
    await backdate(old.id, utcDay(100, 12));
    const yesterday = await app.services.prisma.snapshot.findFirstOrThrow({ where: { kind: 'daily', createdAt: utcDay(1, 0) } });

    const history = await app.api('GET', '/dashboard/posture-history', { token: viewer });
    expect(history.status).toBe(200);
    // Evening: T9502, T9503 validated; T9501, T9506 partial; T9509 in_progress; T9504 not_covered
    // → coverage (2 + 0.5 × 2) / 6 × 100 = 50.
    expect(history.body).toEqual([
      {
        date: dateOf(utcDay(3)),
        snapshot_id: evening.id,
        coverage_percentage: 50,
        score: evening.score,
        total: 6,
        validated: 2,
        partial: 2,
        in_progress: 1,
        not_covered: 1,
        not_evaluated: 0,
      },
      {
        date: dateOf(utcDay(1)),
        snapshot_id: yesterday.id,
        coverage_percentage: 58.3,
        score: yesterday.score,
        ...CHANGED,
      },
      {
        date: dateOf(utcDay(0)),
        snapshot_id: posture.body.id,
        coverage_percentage: 58.3,
        score: posture.body.score,
        ...CHANGED,
      },
    ]);
    const year = await app.api('GET', '/dashboard/posture-history?period=1y', { token: viewer });
    expect(year.body.map((point: any) => [point.date, point.snapshot_id])).toEqual([
      [dateOf(utcDay(100)), old.id],
      [dateOf(utcDay(3)), evening.id],
      [dateOf(utcDay(1)), yesterday.id],
      [dateOf(utcDay(0)), posture.body.id],
    ]);
    const month = await app.api('GET', '/dashboard/posture-history?period=30d', { token: viewer });
    expect(month.body.map((point: any) => point.date)).toEqual([dateOf(utcDay(3)), dateOf(utcDay(1)), dateOf(utcDay(0))]);
    const graphql = await app.graphql('{ postureHistory(period: "30d") { date coveragePercentage validated } }', {}, viewer);
    expect(graphql.data.postureHistory).toEqual([
      { date: dateOf(utcDay(3)), coveragePercentage: 50, validated: 2 },
      { date: dateOf(utcDay(1)), coveragePercentage: 58.3, validated: 3 },
      { date: dateOf(utcDay(0)), coveragePercentage: 58.3, validated: 3 },
    ]);
  });
});

describe('access and bad input', () => {
  it('only leads and admins take snapshots; only admins delete them, and the deletion is audited', async () => {
    for (const role of ['red_tech', 'blue_tech', 'viewer'] as const) {
      const token = await app.tokenFor(role);
      expect(await app.api('POST', '/snapshots', { token, body: {} })).toMatchObject({ status: 403, body: { code: 'FORBIDDEN' } });
      expect((await app.api('POST', '/dashboard/posture-snapshot', { token })).status).toBe(403);
    }
    const lead = await app.tokenFor('red_lead');
    expect((await app.api('DELETE', `/snapshots/${first.id}`, { token: lead })).status).toBe(403);
    expect((await app.api('DELETE', `/snapshots/${first.id}`, { token: admin })).status).toBe(204);
    expect(await app.api('GET', `/snapshots/${first.id}`, { token: viewer })).toMatchObject({ status: 404, body: { code: 'NOT_FOUND' } });
    expect(await app.services.prisma.snapshotTechnique.count({ where: { snapshotId: first.id } })).toBe(0);
    const audit = await app.services.prisma.auditLog.findFirstOrThrow({ where: { action: 'delete_snapshot', entityId: first.id } });
    expect(audit).toMatchObject({ entityType: 'snapshot', details: { name: 'Baseline', kind: 'manual' } });
    expect((await app.api('DELETE', `/snapshots/${first.id}`, { token: admin })).status).toBe(404);
  });

  it('compare needs two snapshot ids: missing or malformed → 400, unknown → 404', async () => {
    const missing = await app.api('GET', `/snapshots/compare?a=${second.id}`, { token: viewer });
    expect(missing).toMatchObject({ status: 400, body: { code: 'VALIDATION_ERROR', field: 'b' } });
    expect((await app.api('GET', '/snapshots/compare', { token: viewer })).status).toBe(400);
    const malformed = await app.api('GET', `/snapshots/compare?a=nope&b=${second.id}`, { token: viewer });
    expect(malformed).toMatchObject({ status: 400, body: { code: 'VALIDATION_ERROR', field: 'a' } });
    const unknown = await app.api('GET', `/snapshots/compare?a=${second.id}&b=${first.id}`, { token: viewer });
    expect(unknown).toMatchObject({ status: 404, body: { code: 'NOT_FOUND', detail: `Snapshot ${first.id} not found` } });
  });

  it('bad ids, names, periods and dates answer 4xx naming the field', async () => {
    expect((await app.api('GET', '/snapshots/not-a-uuid', { token: viewer })).status).toBe(400);
    expect((await app.api('DELETE', '/snapshots/not-a-uuid', { token: admin })).status).toBe(400);
    expect(await app.api('POST', '/snapshots', { token: admin, body: { name: '  ' } })).toMatchObject({
      status: 400,
      body: { field: 'name' },
    });
    expect(await app.api('POST', '/snapshots', { token: admin, body: { colour: 'red' } })).toMatchObject({
      status: 400,
      body: { field: 'colour' },
    });
    expect(await app.api('GET', '/dashboard/posture-history?period=7d', { token: viewer })).toMatchObject({
      status: 400,
      body: { field: 'period' },
    });
    expect(await app.api('GET', '/snapshots/evolution?from=yesterday', { token: viewer })).toMatchObject({
      status: 400,
      body: { field: 'from' },
    });
    const reversed = await app.api('GET', `/snapshots/evolution?from=${utcDay(0).toISOString()}&to=${utcDay(1).toISOString()}`, {
      token: viewer,
    });
    expect(reversed).toMatchObject({ status: 400, body: { field: 'to' } });
    expect(await app.api('GET', '/snapshots?limit=500', { token: viewer })).toMatchObject({ status: 400, body: { field: 'limit' } });
    expect(await app.api('GET', '/snapshots?kind=weekly', { token: viewer })).toMatchObject({ status: 400, body: { field: 'kind' } });
  });
});

describe('scale', () => {
  it('a snapshot of a 1,000-technique catalog copies every technique in one statement', async () => {
    await app.services.prisma.technique.createMany({
      data: Array.from({ length: 1000 }, (_, index) => ({
        ttpId: `T7${String(index).padStart(3, '0')}`,
        name: `Bulk ${index}`,
        statusGlobal: index % 4 === 0 ? ('validated' as const) : ('not_evaluated' as const),
      })),
    });
    const created = await app.api('POST', '/snapshots', { token: admin, body: { name: 'Scale' } });
    expect(created.status).toBe(201);
    // 6 earlier active techniques (T9502, T9503 validated; T9501, T9506 partial) + 1,000 bulk ones (every 4th validated: 250)
    // → (252 + 0.5 × 2) / 1006 × 100 = 25.15 → 25.1.
    expect(created.body).toMatchObject({ summary: { total: 1006, validated: 252, partial: 2 }, coverage_percentage: 25.1 });
    expect(await app.services.prisma.snapshotTechnique.count({ where: { snapshotId: created.body.id } })).toBe(1006);
  });
});
