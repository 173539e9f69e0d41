import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from '../../../test/helpers/app.ts';
import { team, technique, type Team } from '../../../test/helpers/test-runs.ts';

const DAY = 86_400_000;
const WEEK = 7 * DAY;
/** Monday 00:00 UTC of the week holding `date`. */
const mondayOf = (date: Date) => {
  const day = new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), date.getUTCDate()));
  return new Date(day.getTime() - ((day.getUTCDay() + 6) % 7) * DAY);
};

const app = useTestApp();
let t: Team;
const now = new Date();
const thisWeek = mondayOf(now);
const lastWeek = new Date(thisWeek.getTime() - WEEK);
/** Times inside a week, never in the future. */
const inWeek = (monday: Date, hours: number) => new Date(Math.min(monday.getTime() + hours * 3_600_000, now.getTime() - 60_000));

beforeAll(async () => {
  t = await team(app);
  const tech = await technique(app);
  // Last week: a snapshot at 40 % with 4 validated techniques, one test executed. This week: a snapshot at 55 %
  // with 6, two tests executed, one alert fired.
  await app.services.prisma.snapshot.create({
    data: { coveragePercentage: 40, summary: { validated: 4 }, createdAt: inWeek(lastWeek, 30) },
  });
  await app.services.prisma.snapshot.create({
    data: { coveragePercentage: 55, summary: { validated: 6 }, createdAt: inWeek(thisWeek, 1) },
  });
  for (const executed of [inWeek(lastWeek, 50), inWeek(thisWeek, 2), inWeek(thisWeek, 3)]) {
    const id = randomUUID();
    await app.services.prisma.test.create({
      data: {
        id,
        lineageId: id,
        name: 'executed',
        techniqueId: tech.id,
        createdById: t.red_lead.id,
        state: 'red_executing',
        executionDate: executed,
      },
    });
  }
  const rule = await app.services.prisma.alertRule.create({
    data: { name: 'r', ruleType: 'coverage_below', severity: 'low', parameters: { threshold: 90 } },
  });
  await app.services.prisma.alertInstance.create({
    data: { ruleId: rule.id, ruleType: 'coverage_below', severity: 'low', subject: 'global', title: 'x', firedAt: inWeek(thisWeek, 1) },
  });
  // A validation made 30 days before this week's end, valid 90 days.
  const weekEnd = new Date(thisWeek.getTime() + WEEK);
  await app.services.prisma.detectionValidation.create({
    data: { techniqueId: tech.id, validatedAt: new Date(weekEnd.getTime() - 30 * DAY), validUntil: new Date(weekEnd.getTime() + 60 * DAY) },
  });
});

describe('GET /analytics', () => {
  it('answers weekly points with the hand-computed figures of the last two weeks', async () => {
    const response = await app.api('GET', '/analytics?period=30d', { token: t.viewer.token });
    expect(response.status).toBe(200);
    const points = response.body.points as any[];
    expect(points.length).toBeGreaterThanOrEqual(5);
    const at = (monday: Date) => points.find((point) => Date.parse(point.week_start) === monday.getTime());
    expect(at(thisWeek)).toMatchObject({ coverage_percentage: 55, validated_techniques: 6, tests_executed: 2, alerts_fired: 1 });
    // 30 of 90 days used at this week's end: 1 − 30/90 = 0.667 → 67.
    expect(at(thisWeek).detection_confidence).toBe(67);
    expect(at(lastWeek)).toMatchObject({ coverage_percentage: 40, validated_techniques: 4, tests_executed: 1, alerts_fired: 0 });
    expect(points[0]).toMatchObject({ coverage_percentage: null, validated_techniques: null, tests_executed: 0 });
    expect(points.at(-1).efficacy).toEqual({ tests: 0, detected: 0, partially_detected: 0, not_detected: 0, rate: null });
    expect(response.body).toMatchObject({ period: '30d', from: points[0].week_start });
  });

  it('covers a year in weekly points and refuses an unknown period', async () => {
    const year = await app.api('GET', '/analytics?period=1y', { token: t.viewer.token });
    expect(year.body.points.length).toBeGreaterThanOrEqual(52);
    expect(year.body.points.length).toBeLessThanOrEqual(54);
    // A year ago: no snapshot yet (unknown coverage) and no validation yet (no confidence).
    expect(year.body.points[0]).toMatchObject({
      coverage_percentage: null,
      validated_techniques: null,
      detection_confidence: null,
      alerts_fired: 0,
    });
    expect(await app.api('GET', '/analytics?period=2w', { token: t.viewer.token })).toMatchObject({
      status: 400,
      body: { code: 'VALIDATION_ERROR', field: 'period' },
    });
  });
});
