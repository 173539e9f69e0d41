import { randomBytes } from 'node:crypto';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { FILE_SERVER_ENV, type FileServer } from '../helpers/file-server.ts';
import { startSmtpServer, type TestSmtpServer } from '../helpers/smtp.ts';
import { team, type Team } from '../helpers/test-runs.ts';
import { startWebhookReceiver, type WebhookReceiver } from '../helpers/webhook-receiver.ts';
import {
  expectNoMisconduct,
  expectNoMisconductAndClose,
  launchBrowser,
  SCREENSHOTS,
  seriousViolations,
  serveAttackBundle,
  signingIn,
} from './browser.ts';

const HOSTILE_NAME = '<img src=x onerror=alert(1)> \u202Eevil\u202C';
const HOSTILE_DESCRIPTION = 'Run <script>alert(2)</script> or [open](javascript:alert(3)) or <a href="javascript:alert(4)">this</a>';
const HOSTILE_ACTION = '<svg onload=alert(5)>';
const WEBHOOK_SECRET = 'a-webhook-secret-of-enough-length';
const SMTP_PASSWORD = 'smtp-password-never-shown';

vi.setConfig({ testTimeout: 120_000 });

let app: TestApp;
let files: FileServer;
let smtp: TestSmtpServer;
let receiver: WebhookReceiver;
let browser: Browser;
let t: Team;
let hostileWebhookId: string;

beforeAll(async () => {
  [files, smtp, receiver] = await Promise.all([serveAttackBundle(), startSmtpServer(), startWebhookReceiver()]);
  [app, browser] = await Promise.all([
    startTestApp({
      SOURCE_SYNC_SCHEDULES: 'false',
      ...FILE_SERVER_ENV,
      WEBHOOK_ALLOWED_HOSTS: `127.0.0.1:${receiver.port}`,
      SMTP_ALLOWED_HOSTS: `127.0.0.1:${smtp.port}`,
    }),
    launchBrowser(),
  ]);
  t = await team(app);
  const hostileUser = await app.graphql(
    'mutation($input: CreateUserInput!) { createUser(input: $input) { id } }',
    {
      input: {
        username: `aa-hostile-${randomBytes(2).toString('hex')}`,
        displayName: HOSTILE_NAME,
        password: 'a temporary passphrase',
        role: 'viewer',
      },
    },
    t.admin.token,
  );
  expect(hostileUser.errors).toBeUndefined();
  const hostileWebhook = await app.graphql(
    'mutation($input: CreateWebhookInput!) { createWebhook(input: $input) { id } }',
    { input: { url: `${receiver.url}/hostile`, description: HOSTILE_DESCRIPTION, events: ['alert.fired'] } },
    t.admin.token,
  );
  expect(hostileWebhook.errors).toBeUndefined();
  hostileWebhookId = hostileWebhook.data.createWebhook.id;
  await app.services.prisma.auditLog.create({
    data: { username: HOSTILE_NAME, action: HOSTILE_ACTION, entityType: 'webhook', details: { note: HOSTILE_DESCRIPTION } },
  });
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await app?.close();
  await Promise.all([files?.close(), smtp?.close(), receiver?.close()]);
});

const signedIn = signingIn(() => ({ browser, url: app.url, team: t }));

const row = (page: Page, text: string) => page.getByRole('row').filter({ hasText: text });

describe('users', () => {
  it('an admin creates a user with a temporary password (who must change it), and deactivates it after confirming', async () => {
    const { context, page, misconduct } = await signedIn('admin');
    await page.getByRole('link', { name: 'Administration', exact: true }).click();
    await page.getByRole('heading', { name: 'Users', level: 1 }).waitFor();
    const username = `a0-new-${randomBytes(3).toString('hex')}`;
    await page.getByText('Create a user').click();
    await page.getByLabel('Username').fill(username);
    await page.getByLabel('Temporary password').fill('short');
    await page.getByLabel('Role', { exact: true }).selectOption('red_tech');
    await page.getByRole('button', { name: 'Create user' }).click();
    await expect.poll(() => page.locator('#new-password-error').textContent()).toMatch(/12/);
    await page.getByLabel('Temporary password').fill('a temporary passphrase');
    await page.getByRole('button', { name: 'Create user' }).click();
    await page
      .getByRole('status')
      .filter({ hasText: `${username} was created` })
      .waitFor();
    await row(page, username).getByRole('cell', { name: 'Must change at next sign-in' }).waitFor();
    expect(await row(page, username).getByLabel(`Role of ${username}`).inputValue()).toBe('red_tech');

    const ask = row(page, username).getByRole('button', { name: `Deactivate ${username}` });
    await ask.click();
    await row(page, username).getByRole('button', { name: 'Cancel' }).click();
    await expect.poll(() => ask.evaluate((button) => button === document.activeElement)).toBe(true);
    await ask.click();
    const confirm = row(page, username).getByRole('button', { name: 'Confirm deactivation' });
    await expect.poll(() => confirm.evaluate((button) => button === document.activeElement)).toBe(true);
    await confirm.click();
    await row(page, username).getByRole('cell', { name: 'Deactivated' }).waitFor();
    const stored = await app.services.prisma.user.findFirstOrThrow({ where: { username } });
    expect(stored).toMatchObject({ isActive: false, mustChangePassword: true, role: 'red_tech' });
    expectNoMisconduct(misconduct);
    await context.close();
  });
});

describe('data sources', () => {
  it('a sync from a local file is followed live, at most every 2 s, until the run completes in the history', async () => {
    const { context, page, misconduct } = await signedIn('admin');
    await page.goto('/admin/data-sources');
    await page.getByRole('link', { name: 'ATT&CK Enterprise' }).click();
    await expect.poll(() => page.url()).toContain('source=');
    await page.getByLabel('Location').fill('relative/path');
    await page.getByRole('button', { name: 'Save source' }).click();
    await expect.poll(() => page.locator('#source-location-error').textContent()).toMatch(/absolute path/);
    await page.getByLabel('Location').fill(`${files.url}/attack.json`);
    await page.getByRole('button', { name: 'Save source' }).click();
    const saved = page.getByRole('status').filter({ hasText: 'Source saved.' });
    await saved.waitFor();
    // The form is mounted afresh once the saved source is read back: the confirmation stays.
    await page.waitForLoadState('networkidle');
    expect(await saved.isVisible()).toBe(true);

    const polls: number[] = [];
    page.on('request', (request) => request.postData()?.includes('query AdminDataSource(') && polls.push(Date.now()));
    await page.getByRole('button', { name: 'Sync now' }).click();
    const history = page.getByRole('table').filter({ has: page.getByText(/^Run history/) });
    await history.getByRole('row').filter({ hasText: 'manual' }).filter({ hasText: 'succeeded' }).waitFor({ timeout: 60_000 });
    await page.getByRole('status').filter({ hasText: 'Status: succeeded' }).waitFor();
    await page.screenshot({ path: `${SCREENSHOTS}admin-data-sources.png` });
    const gaps = polls.slice(1).map((at, index) => at - polls[index]);
    // The page asks again on its own at most every 2 s (a refetch right after the mutation aside).
    expect(gaps.filter((gap) => gap < 1900).length).toBeLessThanOrEqual(2);
    const settled = polls.length;
    await page.waitForTimeout(2500);
    expect(polls.length).toBe(settled);
    expectNoMisconduct(misconduct);
    await context.close();
  });
});

describe('webhooks', () => {
  it('creates a webhook with a write-only secret, sends a test seen in the delivery log, and redelivers it', async () => {
    const { context, page, misconduct } = await signedIn('admin');
    await page.goto('/admin/webhooks');
    await page.getByText('Create a webhook').click();
    const form = page.getByRole('form', { name: 'New webhook' });
    await form.getByLabel('URL').fill(`${receiver.url}/siem`);
    await form.getByLabel('Description').fill('SIEM');
    await form.getByLabel('Signing secret').fill(WEBHOOK_SECRET);
    await form.getByRole('checkbox', { name: 'test.validated' }).check();
    await form.getByRole('button', { name: 'Create webhook' }).click();
    const detail = page.getByRole('region', { name: `Webhook ${receiver.url}/siem` });
    await detail.waitFor();
    await detail.getByText('Deliveries are signed; the secret is never shown.').waitFor();
    expect(await detail.getByLabel('New signing secret').inputValue()).toBe('');

    await detail.getByRole('button', { name: 'Send a test' }).click();
    await detail.getByRole('row').filter({ hasText: 'webhook.test' }).filter({ hasText: 'succeeded' }).waitFor({ timeout: 20_000 });
    await expect.poll(() => receiver.at('/siem').length).toBe(1);
    await detail.getByRole('button', { name: /^Redeliver webhook\.test/ }).click();
    await detail.getByRole('status').filter({ hasText: 'delivery sent again' }).waitFor();
    await expect.poll(() => receiver.at('/siem').length, { timeout: 20_000 }).toBe(2);
    const [first, second] = receiver.at('/siem');
    expect(second.headers['webhook-id']).toBe(first.headers['webhook-id']);
    expect(first.headers['webhook-signature']).toBeTruthy();
    expect(await page.content()).not.toContain(WEBHOOK_SECRET);
    await page.screenshot({ path: `${SCREENSHOTS}admin-webhooks.png`, fullPage: true });

    await detail.getByLabel('Description').fill('SIEM (edited)');
    await detail.getByRole('button', { name: 'Save webhook' }).click();
    await page.getByRole('cell', { name: 'SIEM (edited)' }).waitFor();
    await page.waitForLoadState('networkidle');
    expect(await detail.getByRole('status').filter({ hasText: 'Webhook saved.' }).isVisible()).toBe(true);
    await detail.getByRole('button', { name: 'Delete webhook' }).click();
    await page.getByRole('button', { name: 'Confirm deletion' }).click();
    await page.getByRole('status').filter({ hasText: 'Webhook deleted.' }).waitFor();
    await expect.poll(() => page.getByRole('cell', { name: 'SIEM (edited)' }).count()).toBe(0);
    expectNoMisconduct(misconduct);
    await context.close();
  });
});

describe('settings', () => {
  it('saves the SMTP settings with a write-only password and tells the outcome of a test e-mail in words', async () => {
    const { context, page, misconduct } = await signedIn('admin');
    await page.goto('/admin/email');
    await page.getByLabel('SMTP host').fill('127.0.0.1');
    await page.getByLabel('Port').fill(String(smtp.port));
    await page.getByLabel('Security').selectOption('none');
    await page.getByLabel('Username (empty: no authentication)').fill('mailer');
    await page.getByLabel('New password').fill(SMTP_PASSWORD);
    await page.getByLabel('Sender address').fill('violet@example.test');
    await page.getByLabel('Send notification e-mails').check();
    await page.getByRole('button', { name: 'Save e-mail settings' }).click();
    await page.getByText('A password is set; it is never shown.').waitFor();
    expect(await page.getByLabel('New password').inputValue()).toBe('');
    expect(await page.content()).not.toContain(SMTP_PASSWORD);

    await page.getByLabel('Send to (empty: your own address)').fill('ops@example.test');
    await page.getByRole('button', { name: 'Send test e-mail' }).click();
    await page
      .getByRole('status')
      .filter({ hasText: /^Sent to ops@example\.test/ })
      .waitFor({ timeout: 20_000 });
    await smtp.waitFor('ops@example.test');
    expect(smtp.logins).toContainEqual({ username: 'mailer', password: SMTP_PASSWORD });

    smtp.reject(550, 'mailbox unavailable', 1);
    await page.getByRole('button', { name: 'Send test e-mail' }).click();
    await page
      .getByRole('status')
      .filter({ hasText: /^Not sent to ops@example\.test/ })
      .waitFor({ timeout: 20_000 });
    smtp.accept();
    expectNoMisconduct(misconduct);
    await context.close();
  });

  it('refuses score weights that do not add up to 1 beside the fields, then saves valid ones', async () => {
    const { context, page, misconduct } = await signedIn('admin');
    await page.goto('/admin/score-weights');
    await page.getByLabel('Coverage').fill('0.9');
    await page.getByRole('button', { name: 'Save score weights' }).click();
    await page
      .getByRole('alert')
      .filter({ hasText: /must add up to 1/ })
      .waitFor();
    const weights = { Coverage: '0.4', Detection: '0.3', 'Validation freshness': '0.2', 'Detection rate': '0.1' };
    for (const [label, value] of Object.entries(weights)) await page.getByLabel(label, { exact: true }).fill(value);
    await page.getByRole('button', { name: 'Save score weights' }).click();
    await page.getByRole('status').filter({ hasText: 'Score weights saved.' }).waitFor();
    const stored = await app.graphql(
      '{ scoreConfig { weights { coverage detection validationFreshness detectionRate } } }',
      {},
      t.admin.token,
    );
    expect(stored.data.scoreConfig.weights).toEqual({ coverage: 0.4, detection: 0.3, validationFreshness: 0.2, detectionRate: 0.1 });
    expectNoMisconduct(misconduct);
    await context.close();
  });

  it('saves single sign-on settings and shows the status', async () => {
    const { context, page, misconduct } = await signedIn('admin');
    await page.goto('/admin/sso');
    await page.getByText('Single sign-on is not configured').waitFor();
    await page.getByLabel('IdP entity id').fill('https://idp.example.test/entity');
    await page.getByRole('button', { name: 'Save single sign-on settings' }).click();
    await page.getByRole('status').filter({ hasText: 'Single sign-on settings saved.' }).waitFor();
    expect(await page.getByLabel('IdP entity id').inputValue()).toBe('https://idp.example.test/entity');
    expectNoMisconduct(misconduct);
    await context.close();
  });
});

describe('the audit log', () => {
  it('filters by action on the server, with the filter in the URL', async () => {
    const { context, page, misconduct } = await signedIn('admin');
    await page.goto('/admin/audit-log');
    await page.getByLabel('Action').selectOption('create_webhook');
    await expect.poll(() => page.url()).toContain('action=create_webhook');
    const total = (await app.graphql('{ auditLogs(filter: { action: "create_webhook" }) { total } }', {}, t.admin.token)).data.auditLogs
      .total;
    await page.getByText(`${total} ${total === 1 ? 'entry' : 'entries'}, newest first`).waitFor();
    const actions = await page.locator('tbody tr td:nth-child(3)').allTextContents();
    expect(actions.length).toBe(Math.min(total, 25));
    expect(new Set(actions)).toEqual(new Set(['create_webhook']));
    await page.reload();
    await page.getByText(`${total} ${total === 1 ? 'entry' : 'entries'}, newest first`).waitFor();
    await expect.poll(() => page.getByLabel('Action').inputValue()).toBe('create_webhook');
    expectNoMisconduct(misconduct);
    await context.close();
  });
});

describe('who may open the administration', () => {
  it('a non-admin opening /admin/webhooks sees "Not allowed" and no administration link', async () => {
    const { context, page } = await signedIn('red_lead');
    expect(await page.getByRole('link', { name: 'Administration', exact: true }).count()).toBe(0);
    await page.goto('/admin/webhooks');
    await page.getByRole('heading', { name: 'Not allowed' }).waitFor();
    expect(await page.getByRole('navigation', { name: 'Administration' }).count()).toBe(0);
    expect(await page.getByRole('table').count()).toBe(0);
    await context.close();
  });
});

describe('hostile content', () => {
  it('names, descriptions and audit entries with markup, scripts, javascript: links and bidi characters stay text', async () => {
    const { context, page, misconduct } = await signedIn('admin');
    await page.goto('/admin/users');
    await page.getByRole('cell', { name: HOSTILE_NAME }).waitFor();
    await page.goto(`/admin/webhooks?webhook=${hostileWebhookId}`);
    await page.getByRole('cell', { name: HOSTILE_DESCRIPTION }).waitFor();
    expect(
      await page
        .getByRole('region', { name: /^Webhook / })
        .getByLabel('Description')
        .inputValue(),
    ).toBe(HOSTILE_DESCRIPTION);
    await page.goto('/admin/audit-log');
    await page.getByLabel('Action').selectOption(HOSTILE_ACTION);
    await page.getByText('1 entry, newest first').waitFor();
    await page.getByRole('cell', { name: HOSTILE_ACTION }).waitFor();
    await page.getByRole('cell', { name: HOSTILE_NAME }).waitFor();
    await page.getByRole('cell', { name: JSON.stringify({ note: HOSTILE_DESCRIPTION }) }).waitFor();
    expect(await page.locator('main a[href^="javascript:"], main img, main script, main svg').count()).toBe(0);
    await expectNoMisconductAndClose({ context, page, misconduct });
  });
});

describe('accessibility', () => {
  for (const scheme of ['light', 'dark'] as const) {
    it(`every administration page has no serious or critical axe violation in the ${scheme} theme`, async () => {
      const admin = await signedIn('admin', scheme);
      const sourceId = (await app.services.prisma.dataSource.findFirstOrThrow({ where: { kind: 'attack_enterprise' } })).id;
      const pages: [string, string, () => Promise<unknown>][] = [
        ['users', '/admin/users', () => admin.page.getByRole('cell', { name: t.viewer.username, exact: true }).waitFor()],
        ['data-sources', `/admin/data-sources?source=${sourceId}`, () => admin.page.getByText(/^Run history/).waitFor()],
        ['webhooks', `/admin/webhooks?webhook=${hostileWebhookId}`, () => admin.page.getByText(/^Delivery log/).waitFor()],
        ['trackers', '/admin/trackers', () => admin.page.getByText(/^Connections .*newest first$/).waitFor()],
        ['feeds', '/admin/feeds', () => admin.page.getByText(/^Feeds \(\d+\), by name$/).waitFor()],
        ['email', '/admin/email', () => admin.page.getByLabel('SMTP host').waitFor()],
        ['sso', '/admin/sso', () => admin.page.getByLabel('IdP entity id').waitFor()],
        ['score-weights', '/admin/score-weights', () => admin.page.getByLabel('Coverage').waitFor()],
        ['audit-log', '/admin/audit-log', () => admin.page.getByText(/(entry|entries), newest first/).waitFor()],
      ];
      const found: Record<string, unknown> = {};
      for (const [name, path, ready] of pages) {
        await admin.page.goto(path);
        await ready();
        for (const details of await admin.page.locator('details').all())
          await details.evaluate((element) => element.setAttribute('open', ''));
        found[name] = await seriousViolations(admin.page);
      }
      expectNoMisconduct(admin.misconduct);
      await admin.context.close();
      expect(found).toEqual(Object.fromEntries(Object.keys(found).map((page) => [page, []])));
    });
  }
});
