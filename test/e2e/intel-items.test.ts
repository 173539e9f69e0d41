import { fileURLToPath } from 'node:url';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { team, type Team } from '../helpers/test-runs.ts';
import { expectNoMisconduct, expectNothingExecutable, launchBrowser, seriousViolations, signingIn } from './browser.ts';

vi.setConfig({ testTimeout: 120_000 });

const RSS = fileURLToPath(new URL('../fixtures/osint/rss.xml', import.meta.url));

let app: TestApp;
let browser: Browser;
let t: Team;

beforeAll(async () => {
  [app, browser] = await Promise.all([startTestApp({ SOURCE_SYNC_SCHEDULES: 'false' }), launchBrowser()]);
  t = await team(app);
  await app.services.prisma.technique.create({ data: { ttpId: 'T1059', name: 'Command and Scripting Interpreter', tactic: 'Execution' } });
  const feed = await app.api('POST', '/osint/feeds', { token: t.admin.token, body: { name: 'Threat blog', kind: 'rss', location: RSS } });
  expect(feed.status).toBe(201);
  const run = await app.api('POST', `/osint/feeds/${feed.body.id}/sync`, { token: t.admin.token });
  expect(run.body).toMatchObject({ status: 'succeeded', items_added: 4 });
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await app?.close();
});

const signedIn = signingIn(() => ({ browser, url: app.url, team: t }));

describe('recent intel on the technique page', () => {
  it('a lead sees the feed items that mention the technique, as text, linked only to http(s) pages', async () => {
    const { context, page, misconduct } = await signedIn('blue_lead');
    await page.goto(`${app.url}/techniques/T1059`);
    const intel = page.getByRole('region', { name: 'Recent intel', exact: true });
    await intel.getByRole('link', { name: 'Another look at T1059' }).waitFor();
    expect(await intel.getByRole('link', { name: 'Another look at T1059' }).getAttribute('href')).toBe('https://blog.example/posts/4');
    await intel.getByText('Turla returns').waitFor();
    expect(await intel.getByRole('link', { name: 'Turla returns' }).count()).toBe(0);
    // T1059.001 is not in this catalog: its mention counts for the parent technique.
    await intel.getByRole('link', { name: 'Fancy Bear phishing wave uses T1566 and T1059.001' }).waitFor();
    expect(await intel.getByRole('listitem').count()).toBe(3);
    expect(await intel.textContent()).toContain('Flagged for review');
    await expectNothingExecutable(page);
    expect(await seriousViolations(page)).toEqual([]);
    expectNoMisconduct(misconduct);
    await context.close();
  });

  it('a viewer, who may not read the feeds, sees the technique without the section', async () => {
    const { context, page, misconduct } = await signedIn('viewer');
    await page.goto(`${app.url}/techniques/T1059`);
    await page.getByRole('heading', { name: 'T1059 Command and Scripting Interpreter' }).waitFor();
    await page.getByRole('region', { name: 'Tests', exact: true }).waitFor();
    expect(await page.getByRole('region', { name: 'Recent intel', exact: true }).count()).toBe(0);
    expectNoMisconduct(misconduct);
    await context.close();
  });
});
