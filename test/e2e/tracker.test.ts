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
