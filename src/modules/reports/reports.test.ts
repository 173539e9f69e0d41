import { randomUUID } from 'node:crypto';
import { parse } from 'csv-parse/sync';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Prisma } from '../../generated/prisma/client.ts';
import { techniqueScores } from '../scores/technique-scores.ts';
import { useTestApp } from '../../../test/helpers/app.ts';

/**
 * A small fixed dataset (figures computed by hand below):
 *
 * techniques (active)  tactics                       platforms        status
 *   T1001              execution                     Windows          validated
 *   T1002              execution, defense-evasion    Windows, Linux   partial
 *   T1003              defense-evasion               Linux            partial
 *   T1004              defense-evasion               macOS            not_covered
 *   T1005              execution                     Windows          not_evaluated
 *   T1099 is revoked (left out of every figure).
 *
 * tests  technique  state       result              executed          decided           campaign  remediation
 *   tA   T1001      validated   detected            2024-10-10        2024-10-12        C1        not_applicable
 *   tB   T1001      rejected    -                   2024-11-01        2024-11-03        C1        -
 *   tC   T1002      validated   partially_detected  2024-11-15        2024-11-20        C1        in_progress
 *   tD   T1004      validated   not_detected        2024-12-31 23:30  2025-01-02        C1        pending
 *   tE   T1003      validated   partially_detected  now - 30 d        now - 20 d        -         pending
 *   tF   T1004      validated   not_detected        now - 15 d        now - 10 d        -         completed
 *   tG   T1002      in_review   -                   now - 5 d         -                 C1        -
 *   tH   T1004      draft       -                   -                 -                 -         -
 *   tI   T1001      validated   detected            now - 8 d         now - 3 d         -         -
 */
let viewer: string;
const ids: Record<string, string> = {};
const DAY = 86_400_000;
const now = Date.now();
const daysAgo = (days: number) => new Date(now - days * DAY);
const at = (iso: string) => new Date(iso);

/** The coverage of the 5 active techniques: 1 validated, 2 partial, 1 not covered, 1 not evaluated → (1 + 0.5 × 2) / 5 = 40.0 %. */
const COVERAGE = { validated: 1, partial: 2, not_covered: 1, in_progress: 0, not_evaluated: 1, coverage_percentage: 40 };

const NAMES = {
  T1001: 'Alpha, the "first" one',
  T1002: '=HYPERLINK("http://evil.example","click")',
  T1003: 'Multi\nline\r\nname',
  T1004: 'Plain technique',
  T1005: '@SUM(A1:A2)',
} as const;

async function seed() {
  const db = app.services.prisma;
  const creator = await app.createUser({ role: 'red_lead', username: 'report_lead' });
  ids.creator = creator.id;
  await db.tactic.createMany({
    data: [
      { externalId: 'TA0002', shortName: 'execution', name: 'Execution', matrixOrder: 4 },
      { externalId: 'TA0003', shortName: 'persistence', name: 'Persistence', matrixOrder: 5 },
      { externalId: 'TA0005', shortName: 'defense-evasion', name: 'Defense Evasion', matrixOrder: 7 },
    ],
  });
  const technique = async (ttpId: string, data: Partial<Prisma.TechniqueCreateInput>) => {
    const row = await db.technique.create({ data: { ttpId, name: NAMES[ttpId as keyof typeof NAMES] ?? ttpId, ...data } });
    ids[ttpId] = row.id;
  };
  await technique('T1001', { tactics: ['execution'], tactic: 'Execution', platforms: ['Windows'], statusGlobal: 'validated' });
  await technique('T1002', {
    tactics: ['execution', 'defense-evasion'],
    tactic: 'Execution',
    platforms: ['Windows', 'Linux'],
    statusGlobal: 'partial',
  });
  await technique('T1003', { tactics: ['defense-evasion'], tactic: 'Defense Evasion', platforms: ['Linux'], statusGlobal: 'partial' });
  await technique('T1004', {
    tactics: ['defense-evasion'],
    tactic: 'Defense Evasion',
    platforms: ['macOS'],
    statusGlobal: 'not_covered',
    description: 'Hides things.',
  });
  await technique('T1005', { tactics: ['execution'], tactic: 'Execution', platforms: ['Windows'], statusGlobal: 'not_evaluated' });
  await technique('T1099', { tactics: ['execution'], platforms: ['Windows'], statusGlobal: 'validated', revoked: true });

  const actor = await db.threatActor.create({ data: { stixId: 'intrusion-set--reports-1', name: 'APT Test' } });
  for (const ttpId of ['T1002', 'T1005']) {
    await db.threatActorTechnique.create({
      data: { stixId: `relationship--reports-${ttpId}`, actorId: actor.id, techniqueId: ids[ttpId] },
    });
  }
  await db.riskProfile.create({ data: { techniqueId: ids.T1003, impact: 4, likelihood: 5, score: 80, actorCount: 0, tacticWeight: 1 } });

  const c1 = await db.campaign.create({
    data: {
      name: 'Operation Violet',
      type: 'purple',
      status: 'completed',
      createdById: creator.id,
      threatActorId: actor.id,
      completedAt: at('2024-12-15T12:00:00Z'),
    },
  });
  await db.campaign.create({ data: { name: 'Still running', status: 'active', createdById: creator.id } });
  ids.C1 = c1.id;

  const test = async (key: string, ttpId: string, data: Partial<Prisma.TestUncheckedCreateInput>) => {
    const id = randomUUID();
    await db.test.create({ data: { id, lineageId: id, techniqueId: ids[ttpId], createdById: creator.id, name: `Test ${key}`, ...data } });
    ids[key] = id;
  };
  await test('tA', 'T1001', {
    state: 'validated',
    detectionResult: 'detected',
    executionDate: at('2024-10-10T10:00:00Z'),
    decidedAt: at('2024-10-12T10:00:00Z'),
    campaignId: c1.id,
    remediationStatus: 'not_applicable',
    redValidationStatus: 'approved',
    blueValidationStatus: 'approved',
  });
  await test('tB', 'T1001', {
    state: 'rejected',
    executionDate: at('2024-11-01T09:00:00Z'),
    decidedAt: at('2024-11-03T09:00:00Z'),
    campaignId: c1.id,
    redValidationStatus: 'rejected',
  });
  await test('tC', 'T1002', {
    state: 'validated',
    detectionResult: 'partially_detected',
    executionDate: at('2024-11-15T09:00:00Z'),
    decidedAt: at('2024-11-20T09:00:00Z'),
    campaignId: c1.id,
    remediationStatus: 'in_progress',
    remediationSteps: 'Tune the rule',
    remediationAssigneeId: creator.id,
  });
  await test('tD', 'T1004', {
    state: 'validated',
    detectionResult: 'not_detected',
    executionDate: at('2024-12-31T23:30:00Z'),
    decidedAt: at('2025-01-02T09:00:00Z'),
    campaignId: c1.id,
    remediationStatus: 'pending',
  });
  await test('tE', 'T1003', {
    state: 'validated',
    detectionResult: 'partially_detected',
    executionDate: daysAgo(30),
    decidedAt: daysAgo(20),
    remediationStatus: 'pending',
  });
  await test('tF', 'T1004', {
    state: 'validated',
    detectionResult: 'not_detected',
    executionDate: daysAgo(15),
    decidedAt: daysAgo(10),
    remediationStatus: 'completed',
    remediationCompletedAt: daysAgo(1),
  });
  await test('tG', 'T1002', { state: 'in_review', executionDate: daysAgo(5), campaignId: c1.id });
  await test('tH', 'T1004', { state: 'draft' });
  await test('tI', 'T1001', { state: 'validated', detectionResult: 'detected', executionDate: daysAgo(8), decidedAt: daysAgo(3) });

  await db.snapshot.create({ data: { kind: 'daily', coveragePercentage: 20, createdAt: at('2024-09-30T00:00:00Z') } });
  await db.snapshot.create({ data: { kind: 'daily', coveragePercentage: 30, createdAt: at('2024-12-31T00:00:00Z') } });
}

const app = useTestApp();

beforeAll(async () => {
  viewer = await app.tokenFor('viewer');
  await seed();
});

const get = (path: string, token = viewer) => app.api('GET', path, { token });

async function download(path: string, token = viewer) {
  const response = await fetch(`${app.url}/api/v1${path}`, { headers: { authorization: `Bearer ${token}` } });
  return { status: response.status, headers: response.headers, bytes: new Uint8Array(await response.arrayBuffer()) };
}

/** The text of every page of a PDF (items joined by spaces, whitespace collapsed) and its page count. */
async function pdfText(bytes: Uint8Array): Promise<{ pages: number; text: string; pageTexts: string[] }> {
  const pdfjs = await import('pdfjs-dist/legacy/build/pdf.mjs');
  const pdf = await pdfjs.getDocument({ data: bytes, verbosity: 0 }).promise;
  const pageTexts: string[] = [];
  for (let number = 1; number <= pdf.numPages; number++) {
    const content = await (await pdf.getPage(number)).getTextContent();
    pageTexts.push(
      content.items
        .map((item) => ('str' in item ? item.str : ''))
        .join(' ')
        .replace(/\s+/g, ' '),
    );
  }
  await pdf.destroy();
  return { pages: pdf.numPages, text: pageTexts.join(' '), pageTexts };
}

/** Downloads a PDF report, checks its envelope and page furniture, and that its text holds every one of `says`. */
async function pdfReport(path: string, says: string[]) {
  const response = await download(path);
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toBe('application/pdf');
  expect(response.headers.get('content-disposition')).toMatch(/^attachment; filename="[a-z0-9.-]+-\d{4}-\d{2}-\d{2}\.pdf"$/i);
  expect(new TextDecoder().decode(response.bytes.slice(0, 5))).toBe('%PDF-');
  const parsed = await pdfText(response.bytes);
  expect(parsed.pages).toBeGreaterThanOrEqual(1);
  expect(parsed.pages).toBeLessThanOrEqual(6);
  parsed.pageTexts.forEach((page, index) => {
    expect(page).toContain(`Page ${index + 1} of ${parsed.pages}`);
    expect(page).toContain('© The MITRE Corporation');
  });
  for (const text of says) expect(parsed.text).toContain(text);
  return parsed;
}

describe('coverage summary (JSON)', () => {
  it('totals by status and the coverage percentage leave revoked techniques out', async () => {
    const { status, body } = await get('/reports/coverage-summary');
    expect(status).toBe(200);
    expect(body.totals).toEqual({ total: 5, ...COVERAGE });
    expect(body).toMatchObject({ tactic: null, platform: null });
  });

  it('lists every catalog tactic in matrix order; a technique counts under each of its tactics', async () => {
    const { body } = await get('/reports/coverage-summary');
    expect(body.by_tactic).toEqual([
      // Execution: T1001 validated, T1002 partial, T1005 not evaluated → (1 + 0.5) / 3 = 50.0 %
      {
        tactic: 'Execution',
        short_name: 'execution',
        tactic_id: 'TA0002',
        total: 3,
        validated: 1,
        partial: 1,
        not_covered: 0,
        in_progress: 0,
        not_evaluated: 1,
        coverage_percentage: 50,
      },
      {
        tactic: 'Persistence',
        short_name: 'persistence',
        tactic_id: 'TA0003',
        total: 0,
        validated: 0,
        partial: 0,
        not_covered: 0,
        in_progress: 0,
        not_evaluated: 0,
        coverage_percentage: 0,
      },
      // Defense Evasion: T1002 partial, T1003 partial, T1004 not covered → (0.5 × 2) / 3 = 33.3 %
      {
        tactic: 'Defense Evasion',
        short_name: 'defense-evasion',
        tactic_id: 'TA0005',
        total: 3,
        validated: 0,
        partial: 2,
        not_covered: 1,
        in_progress: 0,
        not_evaluated: 0,
        coverage_percentage: 33.3,
      },
    ]);
  });

  it('gives each technique its tactics, test counts and latest validated result', async () => {
    const { body } = await get('/reports/coverage-summary');
    const rows = Object.fromEntries(body.techniques.map((row: any) => [row.ttp_id, row]));
    expect(Object.keys(rows)).toEqual(['T1001', 'T1002', 'T1003', 'T1004', 'T1005']);
    // T1001: tA validated, tB rejected, tI validated (latest, detected, decided 3 days ago)
    expect(rows.T1001).toMatchObject({
      name: NAMES.T1001,
      tactics: ['Execution'],
      status: 'validated',
      tests_total: 3,
      tests_validated: 2,
      tests_rejected: 1,
      tests_open: 0,
      last_result: 'detected',
    });
    expect(rows.T1001.last_validated_at).toBe(daysAgo(3).toISOString());
    expect(rows.T1002).toMatchObject({
      tactics: ['Execution', 'Defense Evasion'],
      platforms: ['Windows', 'Linux'],
      tests_total: 2,
      tests_validated: 1,
      tests_open: 1,
      last_result: 'partially_detected',
      last_validated_at: '2024-11-20T09:00:00.000Z',
    });
    expect(rows.T1004).toMatchObject({
      status: 'not_covered',
      tests_total: 3,
      tests_validated: 2,
      tests_rejected: 0,
      tests_open: 1,
      last_result: 'not_detected',
    });
    expect(rows.T1005).toMatchObject({
      status: 'not_evaluated',
      tests_total: 0,
      tests_validated: 0,
      tests_open: 0,
      last_result: null,
      last_validated_at: null,
    });
  });

  it('filters by tactic (name, short name or TA id) and platform, and GraphQL answers the same', async () => {
    for (const tactic of ['Defense%20Evasion', 'defense-evasion', 'ta0005']) {
      const { body } = await get(`/reports/coverage-summary?tactic=${tactic}`);
      expect(body.techniques.map((row: any) => row.ttp_id)).toEqual(['T1002', 'T1003', 'T1004']);
      // 2 partial, 1 not covered → 1 / 3 = 33.3 %; per-tactic rows keep the filtered tactic only
      expect(body.totals).toMatchObject({ total: 3, partial: 2, not_covered: 1, coverage_percentage: 33.3 });
      expect(body.by_tactic.map((row: any) => row.short_name)).toEqual(['defense-evasion']);
    }
    const linux = await get('/reports/coverage-summary?platform=linux');
    // T1002 and T1003, both partial → 1 / 2 = 50.0 %
    expect(linux.body.totals).toMatchObject({ total: 2, partial: 2, coverage_percentage: 50 });
    const both = await get('/reports/coverage-summary?tactic=execution&platform=Windows');
    expect(both.body.techniques.map((row: any) => row.ttp_id)).toEqual(['T1001', 'T1002', 'T1005']);
    const graphql = await app.graphql(
      '{ coverageReport(filter: { platform: "Linux" }) { totals { total coveragePercentage } techniques { ttpId testsTotal } } }',
      {},
      viewer,
    );
    expect(graphql.data.coverageReport).toEqual({
      totals: { total: 2, coveragePercentage: 50 },
      techniques: [
        { ttpId: 'T1002', testsTotal: 2 },
        { ttpId: 'T1003', testsTotal: 1 },
      ],
    });
    expect(await get('/reports/coverage-summary?tactic=nowhere')).toMatchObject({
      status: 200,
      body: { totals: { total: 0, coverage_percentage: 0 } },
    });
    expect(await get(`/reports/coverage-summary?tactic=${'x'.repeat(101)}`)).toMatchObject({
      status: 400,
      body: { code: 'VALIDATION_ERROR', field: 'tactic' },
    });
  });
});

describe('coverage CSV', () => {
  const asCell = (value: unknown) => {
    const text = value == null ? '' : Array.isArray(value) ? value.join('; ') : String(value);
    return /^[=+\-@\t\r]/.test(text) ? `'${text}` : text;
  };

  it('is an RFC 4180 download that parses back to the JSON rows, with formula cells neutralised', async () => {
    const response = await download('/reports/coverage-csv');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(response.headers.get('content-disposition')).toMatch(/^attachment; filename="coverage-report-\d{4}-\d{2}-\d{2}\.csv"$/);
    const text = new TextDecoder('utf-8', { ignoreBOM: true }).decode(response.bytes);
    expect(text.charCodeAt(0)).toBe(0xfeff);
    const header =
      'ttp_id,name,tactics,platforms,status,tests_total,tests_validated,tests_rejected,tests_open,last_result,last_validated_at';
    expect(text.slice(1)).toMatch(new RegExp(`^${header}\r\n`));
    expect(text.endsWith('\r\n')).toBe(true);
    // quoted fields: commas and doubled quotes, embedded line breaks
    expect(text).toContain('"Alpha, the ""first"" one"');
    expect(text).toContain('"Multi\nline\r\nname"');

    const records: Record<string, string>[] = parse(text, { bom: true, columns: true });
    const json = (await get('/reports/coverage-summary')).body.techniques;
    expect(records).toEqual(json.map((row: any) => Object.fromEntries(header.split(',').map((column) => [column, asCell(row[column])]))));
    const byId = Object.fromEntries(records.map((record) => [record.ttp_id, record]));
    expect(byId.T1001.name).toBe('Alpha, the "first" one');
    expect(byId.T1002.name).toBe(`'${NAMES.T1002}`);
    expect(byId.T1003.name).toBe('Multi\nline\r\nname');
    expect(byId.T1005.name).toBe(`'${NAMES.T1005}`);
    expect(byId.T1002).toMatchObject({
      tactics: 'Execution; Defense Evasion',
      platforms: 'Windows; Linux',
      tests_total: '2',
      last_result: 'partially_detected',
    });
    expect(byId.T1005).toMatchObject({ last_result: '', last_validated_at: '' });
  });

  it('takes the same filters and refuses a parameter given twice', async () => {
    const response = await download('/reports/coverage-csv?tactic=TA0005&platform=macos');
    const records: Record<string, string>[] = parse(new TextDecoder().decode(response.bytes), { bom: true, columns: true });
    expect(records.map((record) => record.ttp_id)).toEqual(['T1004']);
    expect(await get('/reports/coverage-csv?tactic=a&tactic=b')).toMatchObject({ status: 400, body: { field: 'tactic' } });
  });
});

describe('test results', () => {
  it('counts every test by state and result', async () => {
    const { body } = await get('/reports/test-results');
    expect(body.total).toBe(9);
    expect(body.by_state).toEqual({ draft: 1, red_executing: 0, blue_evaluating: 0, in_review: 1, rejected: 1, validated: 6 });
    // validated: 2 detected (tA, tI), 2 partial (tC, tE), 2 missed (tD, tF); tB, tG, tH have none
    expect(body.by_detection_result).toEqual({ detected: 2, partially_detected: 2, not_detected: 2, none: 3 });
    // most recently updated first
    const updated = body.items.map((item: { updated_at: string }) => item.updated_at);
    expect(updated).toEqual([...updated].sort().reverse());
  });

  it('filters on execution_date; a date alone as date_to includes that whole day', async () => {
    const { body } = await get('/reports/test-results?date_from=2024-10-01&date_to=2024-12-31');
    // tA, tB, tC and tD (executed 2024-12-31 23:30)
    expect(body.items.map((test: any) => test.id)).toEqual([ids.tD, ids.tC, ids.tB, ids.tA]);
    expect(body.total).toBe(4);
    expect(body.by_state).toMatchObject({ validated: 3, rejected: 1, draft: 0, in_review: 0 });
    expect(body.by_detection_result).toEqual({ detected: 1, partially_detected: 1, not_detected: 1, none: 1 });
    expect(body.items[0]).toMatchObject({
      name: 'Test tD',
      state: 'validated',
      detection_result: 'not_detected',
      technique: { id: ids.T1004, ttp_id: 'T1004', name: 'Plain technique' },
      execution_date: '2024-12-31T23:30:00.000Z',
      decided_at: '2025-01-02T09:00:00.000Z',
      campaign_id: ids.C1,
    });
    expect(body.items[3]).toMatchObject({ red_validation_status: 'approved', blue_validation_status: 'approved' });
    const timestamp = await get('/reports/test-results?date_from=2024-10-01&date_to=2024-12-31T12:00:00Z');
    expect(timestamp.body.total).toBe(3);
  });

  it('the state filter selects the rows, while by_state still shows the whole range', async () => {
    const { body } = await get('/reports/test-results?state=validated&date_from=2024-10-01&date_to=2024-12-31&limit=2');
    expect(body).toMatchObject({ total: 3, offset: 0, limit: 2 });
    expect(body.items.map((test: any) => test.id)).toEqual([ids.tD, ids.tC]);
    expect(body.by_state).toMatchObject({ validated: 3, rejected: 1 });
    const graphql = await app.graphql(
      '{ testResultsReport(filter: { state: rejected }) { total items { name technique { ttpId } } } }',
      {},
      viewer,
    );
    expect(graphql.data.testResultsReport).toEqual({ total: 1, items: [{ name: 'Test tB', technique: { ttpId: 'T1001' } }] });
  });

  it('refuses bad dates, reversed ranges, unknown states and oversized pages', async () => {
    expect(await get('/reports/test-results?date_from=2024-02-30')).toMatchObject({ status: 400, body: { field: 'date_from' } });
    expect(await get('/reports/test-results?date_to=yesterday')).toMatchObject({ status: 400, body: { field: 'date_to' } });
    expect(await get('/reports/test-results?date_from=2024-12-01&date_to=2024-11-01')).toMatchObject({
      status: 400,
      body: { field: 'date_to' },
    });
    expect(await get('/reports/test-results?state=finished')).toMatchObject({ status: 400, body: { field: 'state' } });
    expect(await get('/reports/test-results?limit=201')).toMatchObject({ status: 400, body: { field: 'limit' } });
  });
});

describe('remediation status', () => {
  it('lists tests with tracked remediation and counts them by status', async () => {
    const { body } = await get('/reports/remediation-status');
    expect(body.total).toBe(5);
    expect(body.by_status).toEqual({ pending: 2, in_progress: 1, completed: 1, not_applicable: 1 });
    const tc = body.items.find((item: any) => item.id === ids.tC);
    expect(tc).toMatchObject({
      name: 'Test tC',
      remediation_status: 'in_progress',
      remediation_steps: 'Tune the rule',
      technique: { ttp_id: 'T1002' },
      remediation_assignee: ids.creator,
      remediation_assignee_user: { id: ids.creator, username: 'report_lead', display_name: null },
    });
    expect(body.items.find((item: any) => item.id === ids.tD)).toMatchObject({
      remediation_assignee: null,
      remediation_assignee_user: null,
    });
  });

  it('filters by status and refuses an unknown one', async () => {
    const { body } = await get('/reports/remediation-status?status=pending');
    expect(body.items.map((item: any) => item.id).sort()).toEqual([ids.tD, ids.tE].sort());
    expect(body).toMatchObject({ total: 2, by_status: { pending: 2, in_progress: 1, completed: 1, not_applicable: 1 } });
    expect(await get('/reports/remediation-status?status=done')).toMatchObject({
      status: 400,
      body: { code: 'VALIDATION_ERROR', field: 'status' },
    });
  });
});

describe('generated documents', () => {
  it('a PDF is rendered once per content: the same figures give the same file, changed figures a new one', async () => {
    const first = await download('/reports/generate/coverage-summary');
    const again = await download('/reports/generate/coverage-summary');
    expect(Buffer.from(again.bytes).equals(Buffer.from(first.bytes))).toBe(true);
    const technique = await app.services.prisma.technique.findFirstOrThrow({
      where: { statusGlobal: 'not_evaluated', revoked: false, deprecated: false },
    });
    await app.services.prisma.technique.update({ where: { id: technique.id }, data: { statusGlobal: 'not_covered' } });
    try {
      const changed = await download('/reports/generate/coverage-summary');
      expect(Buffer.from(changed.bytes).equals(Buffer.from(first.bytes))).toBe(false);
    } finally {
      await app.services.prisma.technique.update({ where: { id: technique.id }, data: { statusGlobal: 'not_evaluated' } });
    }
  });

  it('coverage summary: JSON figures and a PDF that shows them', async () => {
    const { status, body } = await get('/reports/generate/coverage-summary?format=json');
    expect(status).toBe(200);
    expect(body).toMatchObject({ kind: 'coverage_summary', title: 'Coverage summary' });
    expect(body.coverage).toEqual({ total_techniques: 5, ...COVERAGE });
    expect(body.by_tactic.map((row: any) => [row.tactic, row.coverage_percentage])).toEqual([
      ['Execution', 50],
      ['Persistence', 0],
      ['Defense Evasion', 33.3],
    ]);
    expect(body.techniques).toHaveLength(5);
    const graphql = await app.graphql('{ generatedReport(kind: coverage_summary) }', {}, viewer);
    expect({ ...graphql.data.generatedReport, generated_at: null }).toEqual({ ...body, generated_at: null });

    const pdf = await pdfReport('/reports/generate/coverage-summary', [
      'Coverage summary',
      'Coverage 40.0%',
      'Techniques 5',
      'Validated 1',
      'Partial 2',
      'Not covered 1',
      'Not evaluated 1',
      'Techniques by coverage status',
      'Coverage by tactic',
    ]);
    expect(pdf.text).toMatch(/Execution 3 1 1 0 0 1 50\.0%/);
    expect(pdf.text).toMatch(/Defense Evasion 3 0 2 1 0 0 33\.3%/);
    expect(pdf.text).toContain('T1004 Plain technique Defense Evasion Not covered 3 2 Not detected');
  });

  it('executive summary: coverage, the last 90 days of testing, detection rate and top gaps', async () => {
    const { body } = await get('/reports/generate/executive-summary?format=json');
    expect(body.coverage.coverage_percentage).toBe(40);
    // in the last 90 days: executed tE, tF, tG, tI; validated tE (partial), tF (missed), tI (detected) → (1 + 0.5) / 3 = 50.0 %
    expect(body.tests).toEqual({
      executed: 4,
      validated: 3,
      rejected: 0,
      open_now: 2,
      detected: 1,
      partially_detected: 1,
      not_detected: 1,
      detection_rate: 50,
    });
    expect(body.remediation).toEqual({ pending: 2, in_progress: 1, completed: 1, not_applicable: 1 });
    expect(body.campaigns).toEqual({ active: 1, completed_in_period: 0 });
    // not covered first, then partial by risk score (T1003: 80) then by actors, then never evaluated
    expect(body.top_gaps).toEqual([
      { ttp_id: 'T1004', name: 'Plain technique', status: 'not_covered', risk_score: null, actor_count: 0, tests_total: 3 },
      { ttp_id: 'T1003', name: NAMES.T1003, status: 'partial', risk_score: 80, actor_count: 0, tests_total: 1 },
      { ttp_id: 'T1002', name: NAMES.T1002, status: 'partial', risk_score: null, actor_count: 1, tests_total: 2 },
      { ttp_id: 'T1005', name: NAMES.T1005, status: 'not_evaluated', risk_score: null, actor_count: 1, tests_total: 0 },
    ]);
    expect(new Date(body.period.to).getTime() - new Date(body.period.from).getTime()).toBe(90 * DAY);

    await pdfReport('/reports/generate/executive-summary', [
      'Executive summary',
      'Coverage 40.0%',
      'Tests executed 4',
      'Tests validated 3',
      'Detection rate 50.0%',
      'Open tests now 2',
      'Top coverage gaps',
      'T1004 Plain technique Not covered - 0 3',
      'T1003',
    ]);
  });

  it('quarterly summary of a past quarter: activity by month, trend from snapshots, completed campaigns', async () => {
    const { body } = await get('/reports/generate/quarterly-summary?year=2024&quarter=4&format=json');
    expect(body.period).toEqual({
      year: 2024,
      quarter: 4,
      from: '2024-10-01T00:00:00.000Z',
      to: '2025-01-01T00:00:00.000Z',
      label: 'Q4 2024',
    });
    // executed tA, tB, tC, tD; validated tA (detected), tC (partial) — tD was decided in January; rejected tB → (1 + 0.5) / 2 = 75.0 %
    expect(body.tests).toEqual({
      executed: 4,
      validated: 2,
      rejected: 1,
      open_now: 2,
      detected: 1,
      partially_detected: 1,
      not_detected: 0,
      detection_rate: 75,
    });
    expect(body.by_month).toEqual([
      { month: '2024-10', executed: 1, validated: 1, rejected: 0 },
      { month: '2024-11', executed: 2, validated: 1, rejected: 1 },
      { month: '2024-12', executed: 1, validated: 0, rejected: 0 },
    ]);
    // snapshots of 2024-09-30 (20 %) and 2024-12-31 (30 %)
    expect(body.coverage_trend).toEqual({ start: 20, end: 30, change: 10 });
    expect(body.campaigns).toEqual({
      active: 1,
      completed_in_period: 1,
      // C1 holds tA, tB, tC, tD, tG; validated tA, tC, tD
      completed: [{ id: ids.C1, name: 'Operation Violet', completed_at: '2024-12-15T12:00:00.000Z', tests_total: 5, tests_validated: 3 }],
    });

    await pdfReport('/reports/generate/quarterly-summary?year=2024&quarter=4', [
      'Quarterly summary Q4 2024',
      'Coverage 40.0%',
      'Coverage at start 20.0%',
      'Coverage at end 30.0%',
      'Change +10.0 pts',
      'Tests executed 4',
      'Tests validated 2',
      'Detection rate 75.0%',
      'Tests validated per month',
      '2024-11 2 1 1',
      'Operation Violet 2024-12-15 5 3',
    ]);
  });

  it('quarterly summary defaults to the current quarter and validates year and quarter', async () => {
    const today = new Date();
    const quarter = Math.floor(today.getUTCMonth() / 3) + 1;
    const { body } = await get('/reports/generate/quarterly-summary?format=json');
    expect(body.period).toMatchObject({ year: today.getUTCFullYear(), quarter, label: `Q${quarter} ${today.getUTCFullYear()}` });
    // a running quarter ends at the live coverage
    expect(body.coverage_trend.end).toBe(40);
    expect(await get('/reports/generate/quarterly-summary?quarter=5&format=json')).toMatchObject({
      status: 400,
      body: { field: 'quarter' },
    });
    expect(await get('/reports/generate/quarterly-summary?year=later')).toMatchObject({ status: 400, body: { field: 'year' } });
    expect(await get('/reports/generate/quarterly-summary?year=2100&quarter=1')).toMatchObject({ status: 400, body: { field: 'quarter' } });
  });

  it('purple campaign: the campaign, its test figures per state and technique, and every test', async () => {
    const { body } = await get(`/reports/generate/purple-campaign/${ids.C1}?format=json`);
    expect(body).toMatchObject({ kind: 'purple_campaign', title: 'Purple campaign: Operation Violet' });
    expect(body.campaign).toMatchObject({
      id: ids.C1,
      status: 'completed',
      threat_actor: 'APT Test',
      completed_at: '2024-12-15T12:00:00.000Z',
    });
    // tA detected, tC partial, tD missed (validated); tB rejected; tG in review → (1 + 0.5) / 3 = 50.0 %
    expect(body.figures).toEqual({
      total: 5,
      by_state: { draft: 0, red_executing: 0, blue_evaluating: 0, in_review: 1, rejected: 1, validated: 3 },
      detected: 1,
      partially_detected: 1,
      not_detected: 1,
      detection_rate: 50,
    });
    expect(body.techniques).toEqual([
      {
        ttp_id: 'T1001',
        name: NAMES.T1001,
        status: 'validated',
        tests_total: 2,
        tests_validated: 1,
        detected: 1,
        partially_detected: 0,
        not_detected: 0,
      },
      {
        ttp_id: 'T1002',
        name: NAMES.T1002,
        status: 'partial',
        tests_total: 2,
        tests_validated: 1,
        detected: 0,
        partially_detected: 1,
        not_detected: 0,
      },
      {
        ttp_id: 'T1004',
        name: 'Plain technique',
        status: 'not_covered',
        tests_total: 1,
        tests_validated: 1,
        detected: 0,
        partially_detected: 0,
        not_detected: 1,
      },
    ]);
    expect(body.tests.map((test: any) => test.name)).toEqual(['Test tA', 'Test tB', 'Test tC', 'Test tG', 'Test tD']);
    expect(body.tests[0]).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      name: 'Test tA',
      ttp_id: 'T1001',
      state: 'validated',
      detection_result: 'detected',
      red_validation_status: expect.any(String),
      blue_validation_status: expect.any(String),
      execution_date: expect.toBeOneOf([null, expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/)]),
      decided_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
    });

    await pdfReport(`/reports/generate/purple-campaign/${ids.C1}`, [
      'Purple campaign: Operation Violet',
      'Threat actor APT Test',
      'Tests 5',
      'Validated 3',
      'Rejected 1',
      'Detection rate 50.0%',
      'Tests by state',
      'Test tG T1002 In review',
    ]);
  });

  it('technique: by ttp id or id, with score, risk and tests', async () => {
    const { body } = await get('/reports/generate/technique/T1004?format=json');
    expect(body.technique).toMatchObject({
      id: ids.T1004,
      ttp_id: 'T1004',
      tactics: ['Defense Evasion'],
      platforms: ['macOS'],
      status: 'not_covered',
      description: 'Hides things.',
    });
    // tD and tF missed, tH draft → 0 / 2 = 0.0 %
    expect(body.figures).toMatchObject({ total: 3, by_state: { validated: 2, draft: 1 }, detected: 0, not_detected: 2, detection_rate: 0 });
    const expected = (await techniqueScores(app.services, [ids.T1004])).get(ids.T1004)!;
    expect(body.score).toEqual({ score: expected.score, terms: expected.terms });
    expect(body.risk).toBeNull();
    expect(body.threat_actors).toEqual({ count: 0, names: [] });
    // The latest tests, newest first.
    expect(body.tests.map((test: any) => [test.name, test.state, test.campaign])).toEqual([
      ['Test tH', 'draft', null],
      ['Test tF', 'validated', null],
      ['Test tD', 'validated', 'Operation Violet'],
    ]);
    const byId = await get(`/reports/generate/technique/${ids.T1003}?format=json`);
    expect(byId.body).toMatchObject({ technique: { ttp_id: 'T1003' }, risk: { score: 80, impact: 4, likelihood: 5 } });

    // T1002: tC partially detected (validated), tG in review → 0.5 / 1 = 50.0 %
    await pdfReport('/reports/generate/technique/T1002', [
      'Technique T1002:',
      'Threat actors 1: APT Test',
      'Tests 2',
      'Validated 1',
      'Detection rate 50.0%',
      'Test tC Validated Partially detected',
    ]);
  });

  it('technicians may not generate documents; unknown subjects are 404 and unknown formats 400', async () => {
    for (const role of ['red_tech', 'blue_tech'] as const) {
      const token = await app.tokenFor(role);
      expect(await get('/reports/generate/coverage-summary', token)).toMatchObject({ status: 403, body: { code: 'FORBIDDEN' } });
      const graphql = await app.graphql('{ generatedReport(kind: executive_summary) }', {}, token);
      expect(graphql.errors?.[0].extensions.code).toBe('FORBIDDEN');
      // they still read the JSON reports
      expect((await get('/reports/coverage-summary', token)).status).toBe(200);
    }
    for (const role of ['red_lead', 'blue_lead', 'admin'] as const) {
      expect((await get('/reports/generate/coverage-summary?format=json', await app.tokenFor(role))).status).toBe(200);
    }
    expect(await get(`/reports/generate/purple-campaign/${randomUUID()}`)).toMatchObject({ status: 404, body: { code: 'NOT_FOUND' } });
    expect(await get('/reports/generate/purple-campaign/not-a-uuid')).toMatchObject({ status: 404 });
    expect(await get('/reports/generate/technique/T0000')).toMatchObject({ status: 404, body: { code: 'NOT_FOUND' } });
    expect(await get('/reports/generate/coverage-summary?format=docx')).toMatchObject({
      status: 400,
      body: { code: 'VALIDATION_ERROR', field: 'format' },
    });
    const missingId = await app.graphql('{ generatedReport(kind: technique) }', {}, viewer);
    expect(missingId.errors?.[0].extensions.code).toBe('VALIDATION_ERROR');
  });
});
