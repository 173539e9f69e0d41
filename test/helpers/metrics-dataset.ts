import { randomUUID } from 'node:crypto';
import type { TestApp } from './app.ts';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

/** Monday 00:00 UTC of the week holding `date` (Postgres' date_trunc('week', … AT TIME ZONE 'UTC')). */
export function mondayOf(date: Date): Date {
  const day = new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), date.getUTCDate()));
  return new Date(day.getTime() - ((day.getUTCDay() + 6) % 7) * DAY);
}

/**
 * The fixed analytics dataset. Timestamps hang off W, this week's Monday: week A starts W − 14 d, week B
 * W − 7 d, one old test sits in W − 49 d. Every expected figure in the metrics and dashboard tests is computed
 * by hand from the table below.
 *
 * Techniques (active: 7) — statuses set by hand:
 *   T1566 initial-access validated · T1059 execution validated · T1059.001 execution partial (sub-technique)
 *   T1053 execution + persistence not_covered · T1547 persistence in_progress · T1098 persistence not_evaluated
 *   CUSTOM-1 "Cloud Ops" (no catalog tactic) partial · T1000 revoked and T1001 deprecated (not counted)
 * Tactics: Initial Access (1), Execution (2), Persistence (3), Exfiltration (4, no technique).
 *
 * Tests (offsets in seconds from execution_date; e = execution, r = red submitted, b = blue submitted):
 *   t1  validated  detected   A+0h   r+3600  b+7200   attack ✓  red ✓ blue ✓ decided b+1h
 *   t2  validated  detected   A+24h  r+1800  b+3600   attack ✓  red ✓ blue ✓
 *   t3  validated  partial    A+48h  r+600   b+10800  attack ✗  red ✓ blue ✓
 *   t4  in_review  detected   B+0h   r+1200  b+14400  attack ✓  red ✓ blue –
 *   t5  validated  not_det.   A+72h  r+3600  b+7200   attack ✓  red ✓ blue ✓; remediation completed b+48h
 *   t6  rejected   not_det.   B+24h  r+3600  b+7200   attack ✓  red ✓ blue ✗ decided b+1h; remediation completed b+12h
 *   t7  rejected   detected   B+48h  r+3600  b+7200   attack ✓  red ✗ blue ✓ decided b+1h; remediation completed decided+6h
 *   t8  blue_evaluating       B+72h  r+5400           attack ✗
 *   t9  red_executing         B+80h
 *   t10 draft (reopened: stale detected result and stamps from A)
 *   t11 in_review  partial    B+96h  r+3600  b+18000  attack ✓  remediation pending
 *   t12 validated  not_det.   A+96h  r+7200  b+10800  attack –  red ✓ blue ✓; remediation in_progress
 *   t13 validated  detected   W−49d  r+600   b+1800   attack ✓  red ✓ blue ✓
 * updated_at: t1 … t13 at W − 1 d + 1 … 13 minutes.
 */
/**
 * The dataset's coverage summary: 7 active techniques, validated 2 (T1566, T1059), partial 2 (T1059.001, CUSTOM-1),
 * not_covered 1, in_progress 1, not_evaluated 1 → (2 + 0.5 × 2) / 7 × 100 = 42.857… → 42.9 %.
 */
export const DATASET_COVERAGE = {
  total_techniques: 7,
  validated: 2,
  partial: 2,
  not_covered: 1,
  in_progress: 1,
  not_evaluated: 1,
  coverage_percentage: 42.9,
};

export async function seedMetricsDataset(app: TestApp) {
  const db = app.services.prisma;
  const W = mondayOf(new Date());
  const A = new Date(W.getTime() - 14 * DAY);
  const B = new Date(W.getTime() - 7 * DAY);
  const at = (from: Date, ms: number) => new Date(from.getTime() + ms);
  const s = (seconds: number) => seconds * 1000;

  await db.tactic.createMany({
    data: [
      { externalId: 'TA0001', shortName: 'initial-access', name: 'Initial Access', matrixOrder: 1 },
      { externalId: 'TA0002', shortName: 'execution', name: 'Execution', matrixOrder: 2 },
      { externalId: 'TA0003', shortName: 'persistence', name: 'Persistence', matrixOrder: 3 },
      { externalId: 'TA0010', shortName: 'exfiltration', name: 'Exfiltration', matrixOrder: 4 },
    ],
  });
  const technique = (ttpId: string, tactic: string, tactics: string[], statusGlobal: string, extra: Record<string, unknown> = {}) =>
    db.technique.create({ data: { ttpId, name: `Technique ${ttpId}`, tactic, tactics, statusGlobal: statusGlobal as never, ...extra } });
  const T1 = await technique('T1566', 'Initial Access', ['initial-access'], 'validated');
  const T2 = await technique('T1059', 'Execution', ['execution'], 'validated');
  const T3 = await technique('T1059.001', 'Execution', ['execution'], 'partial', { isSubtechnique: true, parentTtpId: 'T1059' });
  const T4 = await technique('T1053', 'Execution', ['execution', 'persistence'], 'not_covered');
  const T5 = await technique('T1547', 'Persistence', ['persistence'], 'in_progress');
  const T6 = await technique('T1098', 'Persistence', ['persistence'], 'not_evaluated');
  await technique('CUSTOM-1', 'Cloud Ops', ['cloud-ops'], 'partial', { isCustom: true });
  await technique('T1000', 'Execution', ['execution'], 'validated', { revoked: true });
  await technique('T1001', 'Persistence', ['persistence'], 'validated', { deprecated: true });

  const creator = await app.createUser({ role: 'red_lead' });
  const updatedAt = (n: number) => new Date(W.getTime() - DAY + n * 60_000);
  const test = (n: number, techniqueId: string, data: Record<string, unknown>) => {
    const id = randomUUID();
    return db.test.create({
      data: { id, lineageId: id, name: `t${n}`, techniqueId, createdById: creator.id, updatedAt: updatedAt(n), ...data },
    });
  };
  const timeline = (execution: Date, red?: number, blue?: number) => ({
    executionDate: execution,
    redSubmittedAt: red === undefined ? null : at(execution, s(red)),
    blueSubmittedAt: blue === undefined ? null : at(execution, s(blue)),
  });
  const approved = { redValidationStatus: 'approved', blueValidationStatus: 'approved' } as const;

  const e1 = A,
    e2 = at(A, 24 * HOUR),
    e3 = at(A, 48 * HOUR),
    e5 = at(A, 72 * HOUR),
    e12 = at(A, 96 * HOUR);
  const e4 = B,
    e6 = at(B, 24 * HOUR),
    e7 = at(B, 48 * HOUR),
    e8 = at(B, 72 * HOUR),
    e9 = at(B, 80 * HOUR),
    e11 = at(B, 96 * HOUR);
  const e13 = new Date(W.getTime() - 49 * DAY);

  const tests = {
    t1: await test(1, T1.id, {
      state: 'validated',
      detectionResult: 'detected',
      attackSuccess: true,
      ...timeline(e1, 3600, 7200),
      ...approved,
      decidedAt: at(e1, s(7200 + 3600)),
    }),
    t2: await test(2, T2.id, {
      state: 'validated',
      detectionResult: 'detected',
      attackSuccess: true,
      ...timeline(e2, 1800, 3600),
      ...approved,
      decidedAt: at(e2, s(3600 + 3600)),
    }),
    t3: await test(3, T3.id, {
      state: 'validated',
      detectionResult: 'partially_detected',
      attackSuccess: false,
      ...timeline(e3, 600, 10800),
      ...approved,
      decidedAt: at(e3, s(10800 + 3600)),
    }),
    t4: await test(4, T4.id, {
      state: 'in_review',
      detectionResult: 'detected',
      attackSuccess: true,
      ...timeline(e4, 1200, 14400),
      redValidationStatus: 'approved',
    }),
    t5: await test(5, T4.id, {
      state: 'validated',
      detectionResult: 'not_detected',
      attackSuccess: true,
      ...timeline(e5, 3600, 7200),
      ...approved,
      decidedAt: at(e5, s(7200 + 3600)),
      remediationStatus: 'completed',
      remediationCompletedAt: at(e5, s(7200) + 48 * HOUR),
    }),
    t6: await test(6, T5.id, {
      state: 'rejected',
      detectionResult: 'not_detected',
      attackSuccess: true,
      ...timeline(e6, 3600, 7200),
      redValidationStatus: 'approved',
      blueValidationStatus: 'rejected',
      decidedAt: at(e6, s(7200 + 3600)),
      remediationStatus: 'completed',
      remediationCompletedAt: at(e6, s(7200) + 12 * HOUR),
    }),
    t7: await test(7, T5.id, {
      state: 'rejected',
      detectionResult: 'detected',
      attackSuccess: true,
      ...timeline(e7, 3600, 7200),
      redValidationStatus: 'rejected',
      blueValidationStatus: 'approved',
      decidedAt: at(e7, s(7200 + 3600)),
      remediationStatus: 'completed',
      remediationCompletedAt: at(e7, s(7200 + 3600) + 6 * HOUR),
    }),
    t8: await test(8, T5.id, { state: 'blue_evaluating', attackSuccess: false, ...timeline(e8, 5400) }),
    t9: await test(9, T5.id, { state: 'red_executing', ...timeline(e9) }),
    t10: await test(10, T6.id, { state: 'draft', detectionResult: 'detected', ...timeline(at(A, HOUR), 1800, 3600) }),
    t11: await test(11, T2.id, {
      state: 'in_review',
      detectionResult: 'partially_detected',
      attackSuccess: true,
      ...timeline(e11, 3600, 18000),
      remediationStatus: 'pending',
    }),
    t12: await test(12, T3.id, {
      state: 'validated',
      detectionResult: 'not_detected',
      ...timeline(e12, 7200, 10800),
      ...approved,
      decidedAt: at(e12, s(10800 + 3600)),
      remediationStatus: 'in_progress',
    }),
    t13: await test(13, T1.id, {
      state: 'validated',
      detectionResult: 'detected',
      attackSuccess: true,
      ...timeline(e13, 600, 1800),
      ...approved,
      decidedAt: at(e13, s(1800 + 3600)),
    }),
  };
  return { W, A, B, creator, techniques: { T1, T2, T3, T4, T5, T6 }, tests, updatedAt };
}
