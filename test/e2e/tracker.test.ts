import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Browser } from 'playwright-core';
import { startFakeGithub, type FakeGithub } from '../fixtures/tracker-servers.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { advance, createTest, team, technique, type Team } from '../helpers/test-runs.ts';
import { expectNoMisconduct, launchBrowser, seriousViolations, signingIn } from './browser.ts';

vi.setConfig({ testTimeout: 120_000 });

const TOKEN = 'ghp_e2eTrackerToken0123456789';

let app: TestApp;
let browser: Browser;
let github: FakeGithub;
let t: Team;
let testId: string;

beforeAll(async () => {
  github = await startFakeGithub(TOKEN, 'acme/detections');
  [app, browser] = await Promise.all([
    startTestApp({ SOURCE_SYNC_SCHEDULES: 'false', TRACKER_ALLOWED_HOSTS: `127.0.0.1:${new URL(github.url).port}` }),
    launchBrowser(),
  ]);
  t = await team(app);
  const connection = await app.api('POST', '/tracker/connections', {
    token: t.admin.token,
    body: { name: 'GitHub', kind: 'github', base_url: github.url, project: 'acme/detections', credential: TOKEN },
  });
  expect(connection.status).toBe(201);
  const { id: techniqueId } = await technique(app);
  testId = (await createTest(app, t.red_lead, techniqueId, { name: 'Kerberoasting' })).id;
  await advance(app, t, testId, 'rejected');
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await app?.close();
  await github?.close();
});

const signedIn = signingIn(() => ({ browser, url: app.url, team: t }));

describe('the tracker issue on the test page', () => {
  it('is not offered to a technician', async () => {
    const { context, page, misconduct } = await signedIn('red_tech');
    await page.goto(`/tests/${testId}`);
    await page.getByRole('heading', { name: 'Kerberoasting' }).waitFor();
    await page.getByRole('heading', { name: 'Remediation' }).waitFor();
    expect(await page.getByRole('button', { name: 'Create tracker issue' }).count()).toBe(0);
    expectNoMisconduct(misconduct);
    await context.close();
  });

  it('a lead creates the issue of a rejected test and sees its link and status', async () => {
    const { context, page, misconduct } = await signedIn('blue_lead');
    await page.goto(`/tests/${testId}`);
    const create = page.getByRole('button', { name: 'Create tracker issue' });
    await create.waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    await create.click();
    const link = page.getByRole('link', { name: '1', exact: true });
    await link.waitFor();
    expect(await link.getAttribute('href')).toBe(`${github.url}/acme/detections/issues/1`);
    expect(await page.getByTestId('tracker-status').textContent()).toBe('Open (in the tracker: open)');
    expect(await page.getByRole('button', { name: 'Create tracker issue' }).count()).toBe(0);
    expect(github.issues.size).toBe(1);
    expect(await seriousViolations(page)).toEqual([]);
    expectNoMisconduct(misconduct);
    await context.close();
  });
});

describe('the tracker connections admin page', () => {
  it('an admin adds a connection with a write-only token, sees a refused address beside its field, syncs, and deletes it', async () => {
    const { context, page, misconduct } = await signedIn('admin');
    await page.goto('/admin/trackers');
    await page.getByRole('heading', { name: 'Issue trackers' }).waitFor();
    await page.getByRole('link', { name: 'GitHub', exact: true }).waitFor();

    await page.getByText('Add a connection').click();
    const form = page.getByRole('form', { name: 'New tracker connection' });
    await form.getByLabel('Name', { exact: true }).fill('GitHub mirror');
    await form.getByLabel('Tracker').selectOption('github');
    await form.getByLabel('Base URL').fill('http://10.1.2.3:8080');
    await form.getByLabel('Repository (owner/repo)').fill('acme/detections');
    await form.getByLabel('API token').fill(TOKEN);
    await form.getByRole('button', { name: 'Add connection' }).click();
    const refused = form.getByRole('alert');
    await refused.waitFor();
    expect(await refused.textContent()).toMatch(/not a public address/);
    expect(await form.getByLabel('Base URL').getAttribute('aria-describedby')).toBe('new-tracker-baseUrl-error');

    await form.getByLabel('Base URL').fill(github.url);
    await form.getByRole('button', { name: 'Add connection' }).click();
    const detail = page.getByRole('region', { name: 'Connection GitHub mirror' });
    await detail.waitFor();
    expect(await detail.getByLabel('New API token').inputValue()).toBe('');
    expect(await detail.getByTestId('tracker-last-error').textContent()).toBe('None');
    expect(await detail.getByText(`/api/v1/tracker/webhooks/`).textContent()).toMatch(
      /^http:\/\/.+\/api\/v1\/tracker\/webhooks\/[0-9a-f-]{36}$/,
    );
    expect(await page.content()).not.toContain(TOKEN);
    expect(await seriousViolations(page)).toEqual([]);

    await detail.getByLabel('Status mapping (JSON)').fill('{ "closed:duplicate": ');
    await detail.getByRole('button', { name: 'Save connection' }).click();
    await detail.getByText('Status mapping is not valid JSON').waitFor();
    await detail.getByLabel('Status mapping (JSON)').fill('{ "closed:duplicate": "not_applicable" }');
    await detail.getByRole('button', { name: 'Save connection' }).click();
    await detail.getByRole('status').filter({ hasText: 'Connection saved.' }).waitFor();
    const stored = await app.services.prisma.trackerConnection.findFirstOrThrow({ where: { name: 'GitHub mirror' } });
    expect(stored.statusMapping).toEqual({ 'closed:duplicate': 'not_applicable' });

    await detail.getByRole('button', { name: 'Sync now' }).click();
    await detail.getByRole('status').filter({ hasText: 'Sync queued.' }).waitFor();

    await detail.getByRole('button', { name: 'Delete connection' }).click();
    await page.getByRole('button', { name: 'Confirm deletion' }).click();
    await page.getByRole('status').filter({ hasText: 'Connection deleted.' }).waitFor();
    await expect.poll(() => page.getByRole('link', { name: 'GitHub mirror' }).count()).toBe(0);
    expect(await app.services.prisma.trackerConnection.count({ where: { name: 'GitHub mirror' } })).toBe(0);
    expectNoMisconduct(misconduct);
    await context.close();
  });

  it("lists a connection's linked issues with a link to the tracker and to the subject", async () => {
    const { context, page, misconduct } = await signedIn('admin');
    await page.goto('/admin/trackers');
    await page.getByRole('link', { name: 'GitHub', exact: true }).click();
    const detail = page.getByRole('region', { name: 'Connection GitHub' });
    const row = detail.getByRole('row').filter({ has: page.getByRole('link', { name: '1', exact: true }) });
    await row.waitFor();
    expect(await row.getByRole('link', { name: '1', exact: true }).getAttribute('href')).toBe(`${github.url}/acme/detections/issues/1`);
    expect(await row.getByRole('link', { name: 'test' }).getAttribute('href')).toBe(`/tests/${testId}`);
    expect(page.url()).toMatch(/[?&]connection=[0-9a-f-]{36}/);
    expectNoMisconduct(misconduct);
    await context.close();
  });

  it('is not shown to a lead', async () => {
    const { context, page } = await signedIn('red_lead');
    await page.goto('/admin/trackers');
    await page.getByRole('heading', { name: 'Not allowed' }).waitFor();
    expect(await page.getByRole('heading', { name: 'Issue trackers' }).count()).toBe(0);
    await context.close();
  });
});
