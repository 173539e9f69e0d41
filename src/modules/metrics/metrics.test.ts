import { beforeAll, describe, expect, it } from 'vitest';
import { event } from '../../events/bus.ts';
import { getOk, useTestApp } from '../../../test/helpers/app.ts';
import { DATASET_COVERAGE, mondayOf, seedMetricsDataset } from '../../../test/helpers/metrics-dataset.ts';

let viewer: string;
let data: Awaited<ReturnType<typeof seedMetricsDataset>>;

const DAY = 86_400_000;
const get = (path: string, token = viewer) => getOk(app, path, token);

const app = useTestApp();

beforeAll(async () => {
  viewer = await app.tokenFor('viewer');
});

/** The whole-dataset KPIs (see metrics-dataset.ts for the rows). */
const OPERATIONAL = {
  // detection times of standing detected/partial results: t13 1800, t2 3600, t1 7200, t3 10800, t4 14400, t11 18000
  // mean 55800 / 6 = 9300; median = (7200 + 10800) / 2 = 9000 (rank 3.5); p90 rank 1 + 0.9 × 5 = 5.5 → 14400 + 0.5 × 3600 = 16200
  mttd: { count: 6, mean_seconds: 9300, median_seconds: 9000, p90_seconds: 16200 },
  // repairs: t7 6 h (from decided_at), t6 12 h (from blue submission: not_detected wins over rejected), t5 48 h
  // mean 66 / 3 = 22; median 12; p90 rank 1 + 0.9 × 2 = 2.8 → 12 + 0.8 × 36 = 40.8
  mttr: { count: 3, mean_hours: 22, median_hours: 12, p90_hours: 40.8 },
  // standing results t1 t2 t3 t4 t5 t11 t12 t13 (rejected t6 t7 and draft t10 left out): 4 detected, 2 partial, 2 not
  // rate (4 + 0.5 × 2) / 8 × 100 = 62.5
  efficacy: { tests: 8, detected: 4, partially_detected: 2, not_detected: 2, rate: 62.5 },
};

describe('an empty database', () => {
  it('answers zeros, and null for rates and durations that have nothing to measure', async () => {
    const zero = { validated: 0, partial: 0, not_covered: 0, in_progress: 0, not_evaluated: 0 };
    expect(await get('/metrics/summary')).toEqual({ total_techniques: 0, ...zero, coverage_percentage: 0 });
    expect(await get('/metrics/by-tactic')).toEqual([]);
    expect(await get('/metrics/test-pipeline')).toEqual({
      total: 0,
      draft: 0,
      red_executing: 0,
      blue_evaluating: 0,
      in_review: 0,
      rejected: 0,
      validated: 0,
    });
    const none = { approved: 0, rejected: 0, decided: 0, approval_rate: null, rejection_rate: null };
    expect(await get('/metrics/validation-rate')).toEqual({ red_lead: none, blue_lead: none });
    expect(await get('/metrics/recent-tests')).toEqual([]);
    expect(await get('/metrics/operational')).toMatchObject({
      mttd: { count: 0, mean_seconds: null, median_seconds: null, p90_seconds: null },
      mttr: { count: 0, mean_hours: null, median_hours: null, p90_hours: null },
      efficacy: { tests: 0, detected: 0, partially_detected: 0, not_detected: 0, rate: null },
    });
    expect((await get('/metrics/operational/by-team')).red).toEqual({
      executions: 0,
      successful_attacks: 0,
      attack_success_rate: null,
      execution: { count: 0, mean_seconds: null, median_seconds: null, p90_seconds: null },
    });
  });
});

describe('on the fixed dataset', () => {
  beforeAll(async () => {
    data = await seedMetricsDataset(app);
    // Rows written straight to the database publish no event: start from a clean cache.
    await app.services.cache.invalidate('analytics');
  });

  describe('coverage metrics', () => {
    it('the summary counts active techniques (revoked and deprecated left out) and weighs partial coverage by half', async () => {
      expect(await get('/metrics/summary')).toEqual(DATASET_COVERAGE);
    });

    it('by tactic: matrix order, a technique under each of its tactics, empty catalog tactics kept, custom tactics last', async () => {
      const rows = await get('/metrics/by-tactic');
      expect(
        rows.map((row: any) => [
          row.tactic,
          row.tactic_id,
          row.total,
          row.validated,
          row.partial,
          row.not_covered,
          row.in_progress,
          row.not_evaluated,
          row.coverage_percentage,
        ]),
      ).toEqual([
        ['Initial Access', 'TA0001', 1, 1, 0, 0, 0, 0, 100], // 1 / 1
        ['Execution', 'TA0002', 3, 1, 1, 1, 0, 0, 50], // (1 + 0.5) / 3
        ['Persistence', 'TA0003', 3, 0, 0, 1, 1, 1, 0], // T1053 counts here too
        ['Exfiltration', 'TA0010', 0, 0, 0, 0, 0, 0, 0],
        ['Cloud Ops', null, 1, 0, 1, 0, 0, 0, 50], // custom tactic, no catalog entry
      ]);
      expect(rows[4]).toMatchObject({ short_name: 'cloud-ops', matrix_order: null, covered: 1 });
    });
  });

  describe('workflow metrics', () => {
    it('the test pipeline counts every state, zeros included', async () => {
      expect(await get('/metrics/test-pipeline')).toEqual({
        total: 13,
        draft: 1,
        red_executing: 1,
        blue_evaluating: 1,
        in_review: 2,
        rejected: 2,
        validated: 6,
      });
    });

    it('team activity: red done once submitted, pending in draft and red_executing; blue pending in blue_evaluating', async () => {
      // red completed = blue_evaluating 1 + in_review 2 + rejected 2 + validated 6 = 11; pending = draft 1 + red_executing 1
      // blue completed = in_review 2 + rejected 2 + validated 6 = 10; pending = blue_evaluating 1
      expect(await get('/metrics/team-activity')).toEqual({ red_completed: 11, red_pending: 2, blue_completed: 10, blue_pending: 1 });
    });

    it('validation rates of each lead side over its standing decisions', async () => {
      // red: approved t1 t2 t3 t4 t5 t6 t12 t13 = 8, rejected t7 = 1 → 8 / 9 = 88.9 %, 1 / 9 = 11.1 %
      // blue: approved t1 t2 t3 t5 t7 t12 t13 = 7, rejected t6 = 1 → 7 / 8 = 87.5 %, 12.5 %
      expect(await get('/metrics/validation-rate')).toEqual({
        red_lead: { approved: 8, rejected: 1, decided: 9, approval_rate: 88.9, rejection_rate: 11.1 },
        blue_lead: { approved: 7, rejected: 1, decided: 8, approval_rate: 87.5, rejection_rate: 12.5 },
      });
    });

    it('recent tests: the 10 most recently updated, newest first, with the technique ttp id', async () => {
      const recent = await get('/metrics/recent-tests');
      expect(recent.map((test: any) => test.name)).toEqual(['t13', 't12', 't11', 't10', 't9', 't8', 't7', 't6', 't5', 't4']);
      expect(recent[0]).toEqual({
        id: data.tests.t13.id,
        name: 't13',
        state: 'validated',
        technique_id: data.techniques.T1.id,
        ttp_id: 'T1566',
        technique_name: 'Technique T1566',
        updated_at: data.updatedAt(13).toISOString(),
      });
    });
  });

  describe('operational KPIs', () => {
    it('MTTD, MTTR and efficacy with medians and 90th percentiles as Postgres computes them', async () => {
      const kpis = await get('/metrics/operational');
      expect({ ...kpis, computed_at: undefined }).toEqual({ ...OPERATIONAL, computed_at: undefined });
      expect(Date.parse(kpis.computed_at)).toBeGreaterThan(Date.now() - 60_000);
    });

    it('GraphQL gives the same figures', async () => {
      const result = await app.graphql(
        `{ operationalKpis { mttd { count meanSeconds medianSeconds p90Seconds } mttr { count meanHours medianHours p90Hours }
           efficacy { tests detected partiallyDetected notDetected rate } }
           metricsSummary { totalTechniques coveragePercentage } }`,
        {},
        viewer,
      );
      expect(result.errors).toBeUndefined();
      expect(result.data).toEqual({
        operationalKpis: {
          mttd: { count: 6, meanSeconds: 9300, medianSeconds: 9000, p90Seconds: 16200 },
          mttr: { count: 3, meanHours: 22, medianHours: 12, p90Hours: 40.8 },
          efficacy: { tests: 8, detected: 4, partiallyDetected: 2, notDetected: 2, rate: 62.5 },
        },
        metricsSummary: { totalTechniques: 7, coveragePercentage: 42.9 },
      });
    });

    it('weekly trend over 30 days: every week present and zero-filled, results by blue submission, repairs by completion', async () => {
      const trend = await get('/metrics/operational/trend');
      const first = mondayOf(new Date(Date.now() - 30 * DAY));
      expect(trend.period).toBe('30d');
      expect(trend.from).toBe(first.toISOString());
      expect(trend.to).toBe(new Date(data.W.getTime() + 7 * DAY).toISOString());
      const starts = trend.weeks.map((week: any) => week.week_start);
      const expectedStarts = [];
      for (let week = first.getTime(); week <= data.W.getTime(); week += 7 * DAY) expectedStarts.push(new Date(week).toISOString());
      expect(starts).toEqual(expectedStarts);

      const byWeek = new Map(trend.weeks.map((week: any) => [week.week_start, week]));
      expect(byWeek.get(data.A.toISOString())).toEqual({
        week_start: data.A.toISOString(),
        // week A detections: t2 3600, t1 7200, t3 10800 → mean 7200, median 7200, p90 rank 2.8 → 7200 + 0.8 × 3600 = 10080
        mttd: { count: 3, mean_seconds: 7200, median_seconds: 7200, p90_seconds: 10080 },
        // t5 completed in week A after 48 h
        mttr: { count: 1, mean_hours: 48, median_hours: 48, p90_hours: 48 },
        // t1 t2 detected, t3 partial, t5 t12 not detected → (2 + 0.5) / 5 = 50 %
        efficacy: { tests: 5, detected: 2, partially_detected: 1, not_detected: 2, rate: 50 },
      });
      expect(byWeek.get(data.B.toISOString())).toEqual({
        week_start: data.B.toISOString(),
        // t4 14400, t11 18000 → mean = median = 16200; p90 rank 1.9 → 14400 + 0.9 × 3600 = 17640
        mttd: { count: 2, mean_seconds: 16200, median_seconds: 16200, p90_seconds: 17640 },
        // t7 6 h, t6 12 h → mean = median = 9; p90 rank 1.9 → 6 + 0.9 × 6 = 11.4
        mttr: { count: 2, mean_hours: 9, median_hours: 9, p90_hours: 11.4 },
        // t4 detected, t11 partial → (1 + 0.5) / 2 = 75 %
        efficacy: { tests: 2, detected: 1, partially_detected: 1, not_detected: 0, rate: 75 },
      });
      const empty = trend.weeks.filter((week: any) => week.week_start !== data.A.toISOString() && week.week_start !== data.B.toISOString());
      expect(empty.length).toBe(expectedStarts.length - 2);
      for (const week of empty) {
        expect(week).toMatchObject({
          mttd: { count: 0, mean_seconds: null, median_seconds: null, p90_seconds: null },
          mttr: { count: 0, mean_hours: null, median_hours: null, p90_hours: null },
          efficacy: { tests: 0, detected: 0, partially_detected: 0, not_detected: 0, rate: null },
        });
      }
    });

    it('90d and 1y trends reach further back (t13, seven weeks ago); other periods answer 400', async () => {
      const ninety = await get('/metrics/operational/trend?period=90d');
      expect(ninety.from).toBe(mondayOf(new Date(Date.now() - 90 * DAY)).toISOString());
      const old = ninety.weeks.find((week: any) => week.week_start === new Date(data.W.getTime() - 49 * DAY).toISOString());
      expect(old).toMatchObject({ mttd: { count: 1, mean_seconds: 1800 }, efficacy: { tests: 1, detected: 1, rate: 100 } });
      const year = await get('/metrics/operational/trend?period=1y');
      expect(year.weeks.length).toBeGreaterThanOrEqual(53);
      expect(year.weeks.at(-1).week_start).toBe(data.W.toISOString());

      for (const period of ['7d', '1Y', 'all', '30']) {
        const response = await app.api('GET', `/metrics/operational/trend?period=${period}`, { token: viewer });
        expect(response.status, period).toBe(400);
        expect(response.body).toMatchObject({ code: 'VALIDATION_ERROR', field: 'period' });
        expect(JSON.stringify(response.body.detail)).toContain('must be one of 30d, 90d, 1y');
      }
      const graphql = await app.graphql('{ operationalTrend(period: "2w") { period } }', {}, viewer);
      expect(graphql.errors?.[0].extensions).toMatchObject({ code: 'VALIDATION_ERROR' });
    });

    it('by team: red executions, attack success and execution time against blue evaluations, detection rate and timing', async () => {
      const teams = await get('/metrics/operational/by-team');
      expect(teams.red).toEqual({
        // standing red submissions: t1 t2 t3 t4 t5 t8 t11 t12 t13 = 9; attack_success recorded on 8 (not t12), true on 6 → 75 %
        executions: 9,
        successful_attacks: 6,
        attack_success_rate: 75,
        // execution → red submission: 600 600 1200 1800 3600 3600 3600 5400 7200 (sum 27600)
        // mean 3066.67 → 3066.7; median rank 5 → 3600; p90 rank 8.2 → 5400 + 0.2 × 1800 = 5760
        execution: { count: 9, mean_seconds: 3066.7, median_seconds: 3600, p90_seconds: 5760 },
      });
      expect(teams.blue).toEqual({
        evaluations: 8,
        detected: 4,
        partially_detected: 2,
        not_detected: 2,
        detection_rate: 62.5,
        // red → blue submission: 1200 1800 3600 3600 3600 10200 13200 14400 (sum 51600)
        // mean 6450; median rank 4.5 → 3600; p90 rank 7.3 → 13200 + 0.3 × 1200 = 13560
        evaluation: { count: 8, mean_seconds: 6450, median_seconds: 3600, p90_seconds: 13560 },
        mttd: OPERATIONAL.mttd,
      });
    });
  });

  describe('operational cache', () => {
    it('a second call is served from the cache until a coverage or test state change invalidates it', async () => {
      const first = await get('/metrics/operational');
      // A change made behind the service's back (no event) is not seen for five minutes…
      await app.services.prisma.test.update({ where: { id: data.tests.t11.id }, data: { detectionResult: 'detected' } });
      const cached = await get('/metrics/operational');
      expect(cached).toEqual(first);

      // …until coverage.changed is published: t11 now detected → (5 + 0.5) / 8 = 68.75 → 68.8
      await app.services.bus.publish([event('coverage.changed', { techniqueIds: [data.techniques.T2.id], reason: 'test' }, null)]);
      await expect
        .poll(async () => (await get('/metrics/operational')).efficacy)
        .toEqual({ tests: 8, detected: 5, partially_detected: 1, not_detected: 2, rate: 68.8 });
    });

    it('a real test transition (test.state_changed) refreshes the cached figures', async () => {
      const before = await get('/metrics/operational');
      const blueTech = await app.tokenFor('blue_tech');
      // t8 (blue_evaluating) gets a not_detected result and is submitted: one more standing result
      expect(
        (await app.api('PATCH', `/tests/${data.tests.t8.id}/blue`, { token: blueTech, body: { detection_result: 'not_detected' } })).status,
      ).toBe(200);
      expect(await get('/metrics/operational')).toEqual(before); // an edit is not a state change
      expect((await app.api('POST', `/tests/${data.tests.t8.id}/submit-blue`, { token: blueTech })).status).toBe(200);
      // 9 results: 5 detected, 1 partial, 3 not → (5 + 0.5) / 9 = 61.1
      await expect
        .poll(async () => (await get('/metrics/operational')).efficacy)
        .toEqual({ tests: 9, detected: 5, partially_detected: 1, not_detected: 3, rate: 61.1 });
    });
  });

  describe('access', () => {
    it('every role reads the metrics; anonymous callers get 401', async () => {
      for (const role of ['admin', 'red_tech', 'blue_lead'] as const) {
        expect((await app.api('GET', '/metrics/summary', { token: await app.tokenFor(role) })).body.total_techniques).toBe(7);
      }
      expect((await app.api('GET', '/metrics/operational')).status).toBe(401);
    });
  });
  describe('outcome table', () => {
    /** Rows of test_outcomes that differ from what test_outcome() derives from the tests as they stand now. */
    const drift = async () => {
      const [{ rows }] = await app.services.prisma.$queryRaw<{ rows: number }[]>`
        WITH derived AS (SELECT o.* FROM tests t CROSS JOIN LATERAL test_outcome(t) o)
        SELECT count(*)::int AS rows FROM ((TABLE test_outcomes EXCEPT TABLE derived) UNION ALL (TABLE derived EXCEPT TABLE test_outcomes)) d`;
      return rows;
    };
    const outcomeOf = (testId: string) => app.services.prisma.testOutcome.findUnique({ where: { testId } });

    it('the database keeps one row per test past red execution, through inserts, updates, reopening and deletion', async () => {
      expect(await drift()).toBe(0);
      const counted = await app.services.prisma.test.count({
        where: { state: { in: ['blue_evaluating', 'in_review', 'validated', 'rejected'] } },
      });
      expect(await app.services.prisma.testOutcome.count()).toBe(counted);

      // t12: validated, not_detected, remediation in progress → a standing result with no repair yet
      expect(await outcomeOf(data.tests.t12.id)).toMatchObject({
        isResult: true,
        isExecution: true,
        detectionResult: 'not_detected',
        repairHours: null,
      });
      const completedAt = new Date(data.tests.t12.blueSubmittedAt!.getTime() + 5 * 3_600_000);
      await app.services.prisma.test.update({ where: { id: data.tests.t12.id }, data: { remediationCompletedAt: completedAt } });
      expect(await outcomeOf(data.tests.t12.id)).toMatchObject({ repairHours: 5 });

      // reopened to draft: no longer counted; submitted again: counted again
      await app.services.prisma.test.update({ where: { id: data.tests.t12.id }, data: { state: 'draft' } });
      expect(await outcomeOf(data.tests.t12.id)).toBeNull();
      await app.services.prisma.test.updateMany({
        where: { id: { in: [data.tests.t12.id, data.tests.t10.id] } },
        data: { state: 'in_review' },
      });
      expect(await outcomeOf(data.tests.t10.id)).toMatchObject({ isResult: true, detectionResult: 'detected', detectSeconds: 3600 });

      await app.services.prisma.test.delete({ where: { id: data.tests.t12.id } });
      expect(await outcomeOf(data.tests.t12.id)).toBeNull();
      expect(await drift()).toBe(0);
    });

    it("a change that leaves a test's outcome as it was does not rewrite its row", async () => {
      const version = async (testId: string) =>
        (await app.services.prisma.$queryRaw<{ xmin: string }[]>`SELECT xmin::text FROM test_outcomes WHERE test_id = ${testId}::uuid`)[0]
          ?.xmin;
      const before = await version(data.tests.t10.id);
      expect(before).toBeDefined();
      await app.services.prisma.test.update({ where: { id: data.tests.t10.id }, data: { name: 'Renamed, same outcome' } });
      expect(await version(data.tests.t10.id)).toBe(before);
      // In the same statement, one test renamed and one whose outcome changes: only the second row is rewritten.
      const t4 = await version(data.tests.t4.id);
      await app.services.prisma.$executeRaw`
        UPDATE tests SET name = CASE WHEN id = ${data.tests.t10.id}::uuid THEN 'Renamed again' ELSE name END,
               detection_result = CASE WHEN id = ${data.tests.t4.id}::uuid THEN 'not_detected'::"DetectionResult" ELSE detection_result END
         WHERE id IN (${data.tests.t10.id}::uuid, ${data.tests.t4.id}::uuid)`;
      expect(await version(data.tests.t10.id)).toBe(before);
      expect(await version(data.tests.t4.id)).not.toBe(t4);
      expect(await outcomeOf(data.tests.t4.id)).toMatchObject({ detectionResult: 'not_detected', detectSeconds: null });
      expect(await drift()).toBe(0);
    });
  });
});
