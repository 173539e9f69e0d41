import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { createPath, seedPathCatalog } from '../helpers/attack-paths.ts';
import { team, type Team } from '../helpers/test-runs.ts';
import {
  expectNoMisconduct,
  expectNoMisconductAndClose,
  expectNothingExecutable,
  launchBrowser,
  SCREENSHOTS,
  seriousViolations,
  signingIn,
} from './browser.ts';

const HOSTILE_NAME = '<img src=x onerror=alert(1)>\u202Egnp.exe';
const HOSTILE_TEXT = 'See <script>alert(2)</script> or <a href="javascript:alert(3)">here</a> [x](javascript:alert(4))';
const DAY = 86_400_000;

vi.setConfig({ testTimeout: 120_000 });

let app: TestApp;
let browser: Browser;
let t: Team;
let ids: Record<string, string>;
let hostilePath: Record<string, any>;

const gql = async (token: string, document: string, variables: Record<string, unknown> = {}) => {
  const result = await app.graphql(document, variables, token);
  expect(result.errors, document).toBeUndefined();
  return result.data as Record<string, any>;
};

beforeAll(async () => {
  [app, browser] = await Promise.all([startTestApp({ SOURCE_SYNC_SCHEDULES: 'false' }), launchBrowser()]);
  t = await team(app);
  ids = await seedPathCatalog(app);
  const db = app.services.prisma;
  const hostileTechnique = await db.technique.create({
    data: { ttpId: 'CUSTOM-9', name: HOSTILE_NAME, tactics: ['execution'], isCustom: true, description: HOSTILE_TEXT },
  });
  ids['CUSTOM-9'] = hostileTechnique.id;
  // A validation that ran out (T1003) and one invalidated with a hostile reason: both belong in the revalidation queue.
  await db.detectionValidation.create({
    data: { techniqueId: ids.T1003!, validatedAt: new Date(Date.now() - 120 * DAY), validUntil: new Date(Date.now() - 30 * DAY) },
  });
  await db.detectionValidation.create({
    data: {
      techniqueId: hostileTechnique.id,
      validatedAt: new Date(Date.now() - 10 * DAY),
      validUntil: new Date(Date.now() + 80 * DAY),
      invalidatedAt: new Date(Date.now() - DAY),
      invalidatedReason: HOSTILE_TEXT,
    },
  });
  // An alert with a hostile title and note, of a rule that is off (so that evaluations leave it alone).
  const rule = await gql(t.blue_lead.token, 'mutation ($input: CreateAlertRuleInput!) { createAlertRule(input: $input) { id } }', {
    input: { name: HOSTILE_NAME, ruleType: 'confidence_below', severity: 'critical', parameters: { threshold: 50 }, enabled: false },
  });
  await db.alertInstance.create({
    data: {
      ruleId: rule.createAlertRule.id,
      ruleType: 'confidence_below',
      severity: 'critical',
      subject: HOSTILE_NAME,
      techniqueId: hostileTechnique.id,
      title: HOSTILE_NAME,
      note: HOSTILE_TEXT,
      firedAt: new Date(Date.now() - DAY),
    },
  });
  hostilePath = await createPath(app, t.red_lead, {
    name: HOSTILE_NAME,
    description: HOSTILE_TEXT,
    steps: [{ technique: 'CUSTOM-9', notes: HOSTILE_TEXT }, { technique: 'T1566' }],
  });
  const execution = await app.api('POST', `/attack-paths/${hostilePath.id}/executions`, {
    token: t.red_tech.token,
    body: { notes: HOSTILE_TEXT },
  });
  expect(execution.status).toBe(201);
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await app?.close();
});

const signedIn = signingIn(() => ({ browser, url: app.url, team: t }));

const openAlerts = async () => (await gql(t.viewer.token, '{ alertSummary { byStatus { open } } }')).alertSummary.byStatus.open as number;
const alertsLink = (page: Page) => page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: /^Alerts/ });
const linkName = (page: Page) => alertsLink(page).evaluate((link) => (link.textContent ?? '').replace(/\s+/g, ' ').trim());
const countText = (open: number) => (open ? `Alerts, ${open} open` : 'Alerts');

describe('the alerts inbox', () => {
  it('an alert the API fires appears live in the count, is acknowledged then resolved in the inbox, and the count follows', async () => {
    const { context, page, misconduct } = await signedIn('red_lead');
    await page.goto('/alerts');
    await page.getByRole('heading', { name: 'Alerts', level: 1 }).waitFor();
    const before = await openAlerts();
    await expect.poll(() => linkName(page)).toBe(countText(before));

    await gql(t.blue_lead.token, 'mutation ($input: CreateAlertRuleInput!) { createAlertRule(input: $input) { id } }', {
      input: { name: 'Coverage floor', ruleType: 'coverage_below', severity: 'high', parameters: { threshold: 100 } },
    });
    const fired = await gql(t.blue_lead.token, 'mutation { evaluateAlerts { fired } }');
    expect(fired.evaluateAlerts.fired).toBe(1);
    // The leads' notice of the alert refreshes the count at once (long before the one-minute timer).
    await expect.poll(() => linkName(page), { timeout: 5000 }).toBe(countText(before + 1));

    await page.reload();
    const row = page.getByRole('row').filter({ hasText: /Coverage \d+% is below 100%/ });
    await row.getByRole('cell', { name: 'Open', exact: true }).waitFor();
    await row.getByRole('button', { name: 'Acknowledge' }).click();
    await row.getByRole('button', { name: 'Confirm acknowledge' }).click();
    await row.getByRole('cell', { name: 'Acknowledged', exact: true }).waitFor();
    await expect.poll(() => linkName(page)).toBe(countText(before));
    expect(await row.getByRole('button').allTextContents()).toEqual(['Resolve', 'Dismiss']);
    await row.getByRole('button', { name: 'Resolve' }).click();
    await row.getByRole('button', { name: 'Confirm resolve' }).click();
    await row.getByRole('cell', { name: 'Resolved', exact: true }).waitFor();
    expect(await row.getByRole('button').count()).toBe(0);
    await page.screenshot({ path: `${SCREENSHOTS}alerts.png` });
    const stored = await app.services.prisma.alertInstance.findFirstOrThrow({ where: { ruleType: 'coverage_below' } });
    expect(stored).toMatchObject({ status: 'resolved', changedById: t.red_lead.id });

    await page.getByLabel('Status').selectOption('open');
    await expect.poll(() => page.url()).toContain('status=open');
    await expect
      .poll(() =>
        page
          .getByRole('row')
          .filter({ hasText: /Coverage \d+% is below/ })
          .count(),
      )
      .toBe(0);
    await page.getByLabel('Severity').selectOption('critical');
    await expect.poll(() => page.url()).toContain('severity=critical');
    await page.getByRole('cell', { name: HOSTILE_NAME }).first().waitFor();
    expectNoMisconduct(misconduct);
    await context.close();
  });
});

describe('notes and reasons', () => {
  it('a lead dismisses an alert with a note entered in its row, and aborts an execution with a reason; both are shown', async () => {
    const rule = await gql(t.blue_lead.token, 'mutation ($input: CreateAlertRuleInput!) { createAlertRule(input: $input) { id } }', {
      input: { name: 'Noted rule', ruleType: 'confidence_below', severity: 'low', parameters: { threshold: 50 }, enabled: false },
    });
    await app.services.prisma.alertInstance.create({
      data: { ruleId: rule.createAlertRule.id, ruleType: 'confidence_below', severity: 'low', subject: 'global', title: 'Noted alert' },
    });
    const path = await createPath(app, t.red_lead, { name: 'Aborted path', steps: [{ technique: 'T1566' }] });
    const execution = await app.api('POST', `/attack-paths/${path.id}/executions`, { token: t.red_lead.token, body: {} });
    expect(execution.status).toBe(201);

    const { context, page, misconduct } = await signedIn('blue_lead');
    await page.goto('/alerts?severity=low');
    const row = page.getByRole('row').filter({ hasText: 'Noted alert' });
    await row.getByRole('button', { name: 'Dismiss' }).click();
    await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute('name'))).toBe('note');
    await row.getByLabel('Note (optional)').fill(`Known noise ${HOSTILE_TEXT}`);
    await row.getByRole('button', { name: 'Confirm dismiss' }).click();
    await row.getByRole('cell', { name: 'Dismissed', exact: true }).waitFor();
    await row.getByText(`Note: Known noise ${HOSTILE_TEXT}`).waitFor();
    const stored = await app.services.prisma.alertInstance.findFirstOrThrow({ where: { title: 'Noted alert' } });
    expect(stored).toMatchObject({ status: 'dismissed', note: `Known noise ${HOSTILE_TEXT}`, changedById: t.blue_lead.id });

    await page.goto(`/attack-paths/${path.id}?execution=${execution.body.id}`);
    await expect.poll(() => page.getByTestId('execution-status').textContent()).toBe('Pending');
    await page.getByRole('button', { name: 'Abort the execution' }).click();
    await page.getByRole('button', { name: 'Cancel' }).click();
    await page.getByRole('button', { name: 'Abort the execution' }).click();
    await page.getByLabel('Reason for aborting (optional)').fill('Lab host down');
    await page.getByRole('button', { name: 'Confirm abort' }).click();
    await expect.poll(() => page.getByTestId('execution-status').textContent()).toBe('Aborted');
    await page.getByText('Aborted: Lab host down').waitFor();
    const aborted = await app.services.prisma.attackPathExecution.findUniqueOrThrow({ where: { id: execution.body.id } });
    expect(aborted).toMatchObject({ status: 'aborted', abortReason: 'Lab host down' });
    expectNoMisconduct(misconduct);
    await context.close();
  });
});

describe('the revalidation queue', () => {
  it('a blue lead rebuilds the queue, sees each technique with its reasons, opens the technique and creates a test of it', async () => {
    const { context, page, misconduct } = await signedIn('blue_lead');
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Revalidation' }).click();
    await page.getByRole('heading', { name: 'Revalidation queue' }).waitFor();
    await page.getByRole('button', { name: 'Rebuild the queue' }).click();
    await page
      .getByRole('status')
      .filter({ hasText: /Queue rebuilt: \d+ added/ })
      .waitFor();
    const row = page.getByRole('row').filter({ has: page.getByRole('link', { name: 'T1003 OS Credential Dumping' }) });
    await row.getByText('Validation expired', { exact: true }).waitFor();
    await row.getByText(/The latest validation expired on \d{4}-\d{2}-\d{2}/).waitFor();
    const hostile = page.getByRole('row').filter({ has: page.getByRole('link', { name: `CUSTOM-9 ${HOSTILE_NAME}` }) });
    await hostile.getByText(`The latest validation was invalidated: ${HOSTILE_TEXT}`).waitFor();

    await page.getByLabel('Reason').selectOption('validation_expired');
    await expect.poll(() => page.url()).toContain('reason=validation_expired');
    await expect.poll(() => hostile.count()).toBe(0);
    await row.getByRole('button', { name: 'Create a test' }).click();
    await row.getByRole('status').getByRole('link', { name: 'Revalidate T1003' }).click();
    await page.getByRole('heading', { name: 'Revalidate T1003', level: 1 }).waitFor();
    const test = await app.services.prisma.test.findFirstOrThrow({ where: { name: 'Revalidate T1003' } });
    expect(test).toMatchObject({ techniqueId: ids.T1003, state: 'draft', createdById: t.blue_lead.id });
    await page.goBack();
    await page.getByRole('link', { name: 'T1003 OS Credential Dumping' }).click();
    await page.getByRole('heading', { name: 'T1003 OS Credential Dumping', level: 1 }).waitFor();
    expectNoMisconduct(misconduct);
    await context.close();
  });
});

describe('attack paths', () => {
  it('a red technician builds a path, runs it step by step to its summary, and a viewer watching sees it complete live', async () => {
    const { context, page, misconduct } = await signedIn('red_tech');
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Attack paths' }).click();
    await page.getByLabel('Name').fill('Phish to dump');
    await page.getByLabel('Description').fill('Initial access to credentials');
    await page.getByRole('button', { name: 'Create the path' }).click();
    await page.getByRole('heading', { name: 'Phish to dump', level: 1 }).waitFor();
    const pathId = page.url().split('/').pop()!;

    for (const [technique, expected] of [
      ['T1003', 'detected'],
      ['T1566', 'detected'],
      ['T1059.001', 'blocked'],
      ['T1041', 'detected'],
    ] as const) {
      await page.getByLabel('Technique (ATT&CK id, e.g. T1059.001)').fill(technique);
      await page.getByLabel('Expected outcome').selectOption(expected);
      await page.getByRole('button', { name: 'Add the step' }).click();
      await page.getByRole('link', { name: new RegExp(`^${technique.replace('.', '\\.')} `) }).waitFor();
    }
    await page.getByLabel('Technique (ATT&CK id, e.g. T1059.001)').fill('T9999');
    await page.getByRole('button', { name: 'Add the step' }).click();
    await expect.poll(() => page.locator('#step-technique-error').textContent()).toMatch(/names no technique/);
    expect(await page.getByLabel('Technique (ATT&CK id, e.g. T1059.001)').getAttribute('aria-describedby')).toBe('step-technique-error');

    const steps = () => page.getByRole('region', { name: 'Steps' }).getByRole('listitem').getByRole('link').allTextContents();
    await page.getByRole('button', { name: 'Move step 2 (T1566) up' }).click();
    await expect
      .poll(steps)
      .toEqual(['T1566 Phishing', 'T1003 OS Credential Dumping', 'T1059.001 PowerShell', 'T1041 Exfiltration Over C2 Channel']);
    await page.getByRole('button', { name: 'Remove step 4 (T1041)' }).click();
    await expect.poll(steps).toEqual(['T1566 Phishing', 'T1003 OS Credential Dumping', 'T1059.001 PowerShell']);

    await page.getByLabel('Execution notes').fill('Q4 exercise');
    await page.getByRole('button', { name: 'New execution' }).click();
    await expect.poll(() => page.url()).toContain('execution=');
    const status = page.getByTestId('execution-status');
    await expect.poll(() => status.textContent()).toBe('Pending');

    const watcher = await signedIn('viewer');
    await watcher.page.goto(new URL(page.url()).pathname + new URL(page.url()).search);
    await expect.poll(() => watcher.page.getByTestId('execution-status').textContent()).toBe('Pending');
    expect(await watcher.page.getByRole('main').getByRole('button').count()).toBe(0);

    await page.getByRole('button', { name: 'Start the execution' }).click();
    await expect.poll(() => status.textContent()).toBe('Running');
    await expect.poll(() => watcher.page.getByTestId('execution-status').textContent()).toBe('Running');
    expect(await page.getByRole('button', { name: 'Abort the execution' }).count()).toBe(0);
    for (const [position, outcome, notes] of [
      [1, 'succeeded', 'Mail delivered'],
      [2, 'detected', 'EDR alert on lsass access'],
      [3, 'blocked', ''],
    ] as const) {
      await page.getByLabel(`Outcome of step ${position}`).selectOption(outcome);
      if (notes) await page.getByLabel(`Notes for step ${position}`).fill(notes);
      await page.getByRole('button', { name: `Record step ${position}` }).click();
      await expect.poll(() => page.getByTestId(`outcome-${position}`).textContent()).toMatch(/^(Succeeded unnoticed|Detected|Blocked)/);
    }
    // The outcomes reach the watcher live, before the execution's status changes again.
    await expect.poll(() => watcher.page.getByTestId('outcome-2').textContent(), { timeout: 5_000 }).toMatch(/^Detected/);
    await expect.poll(() => watcher.page.getByTestId('outcome-3').textContent(), { timeout: 5_000 }).toMatch(/^Blocked/);
    expect(await watcher.page.getByTestId('execution-status').textContent()).toBe('Running');
    await page.getByRole('button', { name: 'Complete the execution' }).click();
    await expect.poll(() => status.textContent()).toBe('Completed');
    const summary = page.getByRole('region', { name: 'Summary' });
    await summary.getByText('3: 1 detected, 1 blocked, 0 not detected, 1 succeeded unnoticed, 0 skipped, 0 not recorded').waitFor();
    await summary.getByText('step 2, T1003 OS Credential Dumping').waitFor();
    await summary.getByText('step 3, T1059.001 PowerShell').waitFor();
    await summary.getByText('step 1, T1566 Phishing').waitFor();
    expect(await summary.getByText(/^\d+ (s|min)$/).count()).toBe(1);
    await page.screenshot({ path: `${SCREENSHOTS}attack-path.png`, fullPage: true });
    await expect.poll(() => watcher.page.getByTestId('execution-status').textContent()).toBe('Completed');
    await watcher.page.getByRole('region', { name: 'Summary' }).waitFor();
    expect(await watcher.page.getByRole('main').getByRole('button').count()).toBe(0);

    const stored = await gql(
      t.viewer.token,
      'query ($id: UUID!) { attackPath(id: $id) { executions { status steps { outcome outcomeNotes } } } }',
      {
        id: pathId,
      },
    );
    expect(stored.attackPath.executions[0]).toEqual({
      status: 'completed',
      steps: [
        { outcome: 'succeeded', outcomeNotes: 'Mail delivered' },
        { outcome: 'detected', outcomeNotes: 'EDR alert on lsass access' },
        { outcome: 'blocked', outcomeNotes: null },
      ],
    });
    for (const opened of [{ misconduct }, watcher]) expectNoMisconduct(opened.misconduct);
    await watcher.context.close();
    await context.close();
  });
});

describe('roles', () => {
  it('a viewer sees no action buttons or forms, no revalidation link, and the queue by its URL says "Not allowed"', async () => {
    const { context, page } = await signedIn('viewer');
    await page.goto('/alerts');
    await page.getByRole('cell', { name: HOSTILE_NAME }).first().waitFor();
    expect(
      await page
        .getByRole('main')
        .getByRole('button', { name: /Acknowledge|Resolve|Dismiss/ })
        .count(),
    ).toBe(0);
    expect(await page.getByRole('columnheader', { name: 'Actions' }).count()).toBe(0);
    expect(await page.getByRole('link', { name: 'Revalidation' }).count()).toBe(0);
    await page.goto('/revalidation');
    await page.getByRole('heading', { name: 'Not allowed' }).waitFor();
    await page.goto('/attack-paths');
    await page.getByRole('link', { name: HOSTILE_NAME }).waitFor();
    expect(await page.getByRole('button', { name: 'Create the path' }).count()).toBe(0);
    await page.goto(`/attack-paths/${hostilePath.id}`);
    await page.getByRole('heading', { name: 'Executions' }).waitFor();
    expect(await page.getByRole('main').getByRole('button').count()).toBe(0);
    expect(await page.locator('main :is(input, select, textarea)').count()).toBe(0);
    await context.close();
  });
});

describe('hostile content', () => {
  it('names, notes and reasons with markup, scripts, javascript: links and bidi characters stay text on every page', async () => {
    const { context, page, misconduct } = await signedIn('admin');
    await page.goto('/alerts?severity=critical');
    await page.getByText(`Note: ${HOSTILE_TEXT}`).waitFor();
    await page.goto('/revalidation');
    await page.getByRole('button', { name: 'Rebuild the queue' }).click();
    await page.getByText(`The latest validation was invalidated: ${HOSTILE_TEXT}`).waitFor();
    await page.goto('/attack-paths');
    await page.getByRole('link', { name: HOSTILE_NAME }).click();
    await page.getByRole('heading', { name: HOSTILE_NAME, level: 1 }).waitFor();
    await page.getByText(HOSTILE_TEXT, { exact: true }).first().waitFor();
    await page.getByRole('link', { name: /Pending/ }).click();
    await page.getByTestId('execution-status').waitFor();
    await page.getByRole('cell', { name: `CUSTOM-9 ${HOSTILE_NAME}` }).waitFor();
    await expectNothingExecutable(page);
    await expectNoMisconductAndClose({ context, page, misconduct });
  });
});

describe('accessibility', () => {
  for (const scheme of ['light', 'dark'] as const) {
    it(`the alerts, revalidation and attack path pages have no serious or critical axe violation in the ${scheme} theme`, async () => {
      const admin = await signedIn('admin', scheme);
      const { page } = admin;
      const execution = (await app.services.prisma.attackPathExecution.findFirstOrThrow({ where: { pathId: hostilePath.id } })).id;
      const pages: [string, string, () => Promise<unknown>][] = [
        ['alerts', '/alerts', () => page.getByRole('cell', { name: HOSTILE_NAME }).first().waitFor()],
        ['revalidation', '/revalidation', () => page.getByRole('button', { name: 'Rebuild the queue' }).waitFor()],
        ['attack-paths', '/attack-paths', () => page.getByRole('link', { name: HOSTILE_NAME }).waitFor()],
        ['attack-path', `/attack-paths/${hostilePath.id}?execution=${execution}`, () => page.getByTestId('execution-status').waitFor()],
      ];
      const found: Record<string, unknown> = {};
      for (const [name, path, ready] of pages) {
        await page.goto(path);
        await ready();
        found[name] = await seriousViolations(page);
      }
      await page.goto('/alerts?severity=critical');
      await page.getByRole('row').filter({ hasText: HOSTILE_NAME }).getByRole('button', { name: 'Acknowledge' }).click();
      await page.getByLabel('Note (optional)').waitFor();
      found['alert-note'] = await seriousViolations(page);
      await page.goto(`/attack-paths/${hostilePath.id}?execution=${execution}`);
      await page.getByRole('button', { name: 'Abort the execution' }).click();
      await page.getByLabel('Reason for aborting (optional)').waitFor();
      found['abort-reason'] = await seriousViolations(page);
      await admin.context.close();
      expect(found).toEqual(Object.fromEntries(Object.keys(found).map((name) => [name, []])));
    });
  }
});
