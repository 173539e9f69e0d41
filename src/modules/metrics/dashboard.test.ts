import pg from 'pg';
import { beforeAll, describe, expect, it } from 'vitest';
import { getOk, useTestApp } from '../../../test/helpers/app.ts';
import { DATASET_COVERAGE, seedMetricsDataset } from '../../../test/helpers/metrics-dataset.ts';

let viewer: string;
let data: Awaited<ReturnType<typeof seedMetricsDataset>>;

/** The SQL statements (text and parameters) the server sends to Postgres while `work` runs. */
async function statementsSent(work: () => Promise<unknown>, matching: RegExp) {
  const original = pg.Client.prototype.query;
  const seen: { text: string; values: unknown[] }[] = [];
  pg.Client.prototype.query = function (this: pg.Client, ...args: any[]) {
    const [config, values] = args;
    const text = typeof config === 'string' ? config : config?.text;
    if (typeof text === 'string' && matching.test(text)) seen.push({ text, values: values ?? config?.values ?? [] });
    return (original as any).apply(this, args);
  } as typeof original;
  try {
    await work();
  } finally {
    pg.Client.prototype.query = original;
  }
  return seen;
}

const get = (path: string, token = viewer) => getOk(app, path, token);

const app = useTestApp();

beforeAll(async () => {
  viewer = await app.tokenFor('viewer');
});

describe('an empty database', () => {
  it('the executive summary says there is nothing to measure yet', async () => {
    const summary = await get('/dashboard/executive');
    expect(summary).toMatchObject({
      sentences: [
        'No active technique is in the catalog yet, so coverage cannot be measured.',
        'No test was validated in the last 30 days.',
        'No remediation is open.',
      ],
      strongest_tactic: null,
      weakest_tactic: null,
      efficacy_rate: null,
    });
    expect(await get('/dashboard/kpis')).toMatchObject({ total_techniques: 0, covered_percentage: 0, campaigns: { total: 0 } });
  });
});

describe('dashboard', () => {
  beforeAll(async () => {
    data = await seedMetricsDataset(app);
    await app.services.cache.invalidate('analytics');
    const campaign = (status: 'draft' | 'active' | 'completed') =>
      app.services.prisma.campaign.create({ data: { name: `Campaign ${status}`, status, createdById: data.creator.id } });
    await Promise.all([campaign('draft'), campaign('active'), campaign('completed'), campaign('completed')]);
  });

  it('KPIs: techniques and covered percentage, tests by state, campaigns by status', async () => {
    expect(await get('/dashboard/kpis')).toEqual({
      total_techniques: 7,
      covered_percentage: 42.9, // (2 validated + 0.5 × 2 partial) / 7
      coverage: DATASET_COVERAGE,
      tests: { total: 13, draft: 1, red_executing: 1, blue_evaluating: 1, in_review: 2, rejected: 2, validated: 6 },
      campaigns: { total: 4, draft: 1, active: 1, completed: 2 },
    });
  });

  it('coverage by tactic: counts and percentage per tactic', async () => {
    const rows = await get('/dashboard/coverage-by-tactic');
    expect(rows.map((row: any) => [row.short_name, row.total, row.covered, row.coverage_percentage])).toEqual([
      ['initial-access', 1, 1, 100],
      ['execution', 3, 2, 50], // (1 validated + 0.5 × 1 partial) / 3
      ['persistence', 3, 0, 0],
      ['exfiltration', 0, 0, 0],
      ['cloud-ops', 1, 1, 50],
    ]);
  });

  it('the executive summary is written from the real figures', async () => {
    const summary = await get('/dashboard/executive');
    const sentences = [
      'Coverage stands at 42.9% across 7 active techniques: 2 validated, 2 partially covered, 1 not covered and 2 not yet concluded.',
      // strongest and weakest among tactics with techniques (Exfiltration has none)
      'The strongest tactic is Initial Access (100.0%) and the weakest is Persistence (0.0%).',
      // validated tests decided in the last 30 days: t1 t2 t3 t5 t12 (t13 was decided seven weeks ago)
      '5 tests were validated in the last 30 days.',
      // remediation pending (t11) or in progress (t12)
      '2 remediation items are open.',
      'Detection efficacy is 62.5% over 8 standing test results.',
    ];
    expect(summary).toMatchObject({
      sentences,
      summary: sentences.join(' '),
      coverage: { total_techniques: 7, coverage_percentage: 42.9 },
      strongest_tactic: { tactic: 'Initial Access', coverage_percentage: 100 },
      weakest_tactic: { tactic: 'Persistence', coverage_percentage: 0 },
      tests_validated_last_30_days: 5,
      open_remediation: 2,
      efficacy_rate: 62.5,
      efficacy_tests: 8,
    });
  });

  it('the executive summary over GraphQL matches, and follows the data', async () => {
    // T1098 (Persistence) becomes validated: Persistence (1 + 0) / 3 = 33.3 %
    await app.services.prisma.technique.update({ where: { id: data.techniques.T6.id }, data: { statusGlobal: 'validated' } });
    // The summary is cached with the operational KPIs; a coverage change (here made behind the service's back) clears it.
    await app.services.cache.invalidate('analytics');
    const result = await app.graphql(
      '{ executiveSummary { sentences weakestTactic { shortName coveragePercentage } coverage { coveragePercentage } } }',
      {},
      viewer,
    );
    expect(result.errors).toBeUndefined();
    // (3 + 0.5 × 2) / 7 = 57.1 %; weakest among Initial Access 100, Execution 50, Persistence 33.3, Cloud Ops 50 → Persistence
    expect(result.data.executiveSummary.coverage).toEqual({ coveragePercentage: 57.1 });
    expect(result.data.executiveSummary.weakestTactic).toEqual({ shortName: 'persistence', coveragePercentage: 33.3 });
    expect(result.data.executiveSummary.sentences[0]).toBe(
      'Coverage stands at 57.1% across 7 active techniques: 3 validated, 2 partially covered, 1 not covered and 1 not yet concluded.',
    );
    await app.services.prisma.technique.update({ where: { id: data.techniques.T6.id }, data: { statusGlobal: 'not_evaluated' } });
    await app.services.cache.invalidate('analytics');
  });
});

describe('activity feed', () => {
  const minute = 60_000;

  beforeAll(async () => {
    const base = Date.now() - 2 * 60 * minute;
    await app.services.prisma.auditLog.createMany({
      data: Array.from({ length: 25 }, (_, i) => ({
        username: 'alice',
        action: 'update_technique',
        entityType: 'technique',
        entityId: `T9${String(i + 1).padStart(3, '0')}`,
        timestamp: new Date(base + (i + 1) * minute),
        details: { secret: 'not for the feed' },
      })),
    });
    // newer, but personal or security records: only the audit log shows them
    await app.services.prisma.auditLog.createMany({
      data: [
        { username: 'bob', action: 'login_failed', entityType: 'user', timestamp: new Date(base + 30 * minute) },
        { username: 'bob', action: 'create_api_key', entityType: 'api_key', timestamp: new Date(base + 31 * minute) },
        { username: 'bob', action: 'read_notification', entityType: 'notification', timestamp: new Date(base + 32 * minute) },
      ],
    });
  });

  it('lists the latest 20 entries, newest first: who, action, entity, when', async () => {
    const feed = await get('/dashboard/activity');
    expect(feed).toHaveLength(20);
    expect(feed.map((entry: any) => entry.entity_id)).toEqual(Array.from({ length: 20 }, (_, i) => `T9${String(25 - i).padStart(3, '0')}`));
    expect(Object.keys(feed[0]).sort()).toEqual(['action', 'entity_id', 'entity_type', 'id', 'timestamp', 'user_id', 'username']);
    expect(feed[0]).toMatchObject({ username: 'alice', action: 'update_technique', entity_type: 'technique', user_id: null });
  });

  it('takes a limit up to 100; other limits answer 400', async () => {
    expect((await get('/dashboard/activity?limit=3')).map((entry: any) => entry.entity_id)).toEqual(['T9025', 'T9024', 'T9023']);
    expect(await get('/dashboard/activity?limit=100')).toHaveLength(25);
    for (const limit of ['0', '101', 'ten', '-1']) {
      const response = await app.api('GET', `/dashboard/activity?limit=${limit}`, { token: viewer });
      expect(response.status, limit).toBe(400);
      expect(response.body).toMatchObject({ code: 'VALIDATION_ERROR', field: 'limit' });
    }
  });

  it('reads the newest entries through the audit_logs timestamp index, not a scan', async () => {
    await app.services.prisma.$executeRaw`
      INSERT INTO audit_logs (id, username, action, entity_type, timestamp)
      SELECT gen_random_uuid(), 'load', 'update_test', 'test', now() - make_interval(secs => n)
        FROM generate_series(1, 20000) AS n`;
    await app.services.prisma.$executeRaw`ANALYZE audit_logs`;
    const [statement] = await statementsSent(() => get('/dashboard/activity'), /FROM "public"\."audit_logs"/);
    const plan = await app.services.prisma.$queryRawUnsafe<{ 'QUERY PLAN': string }[]>(`EXPLAIN ${statement.text}`, ...statement.values);
    const text = plan.map((line) => line['QUERY PLAN']).join('\n');
    expect(text).toMatch(/Index Scan using audit_logs_timestamp_idx/);
    expect(text).not.toMatch(/Seq Scan|Sort Method: external/);
  });
});
