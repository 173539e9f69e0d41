import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Browser } from 'playwright-core';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { FILE_SERVER_ENV, serveFiles, type FileServer } from '../helpers/file-server.ts';
import { team, technique, type Team } from '../helpers/test-runs.ts';
import { expectNoMisconduct, launchBrowser, seriousViolations, signingIn } from './browser.ts';

vi.setConfig({ testTimeout: 120_000 });

const RSS = readFileSync(new URL('../fixtures/osint/rss.xml', import.meta.url));

let app: TestApp;
let browser: Browser;
let feeds: FileServer;
let t: Team;

beforeAll(async () => {
  feeds = await serveFiles((path) => (path === '/blog.xml' ? RSS : undefined), { contentType: 'application/rss+xml' });
  [app, browser] = await Promise.all([startTestApp({ ...FILE_SERVER_ENV, SOURCE_SYNC_SCHEDULES: 'false' }), launchBrowser()]);
  t = await team(app);
  for (const ttpId of ['T1566', 'T1059', 'T1059.001']) await technique(app, ttpId);
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await app?.close();
  await feeds?.close();
});

const signedIn = signingIn(() => ({ browser, url: app.url, team: t }));

describe('the threat-intel feeds admin page', () => {
  it('an admin adds an RSS feed, syncs it, reads its items with their technique links, edits it and deletes it', async () => {
    const { context, page, misconduct } = await signedIn('admin');
    await page.goto('/admin/feeds');
    await page.getByRole('heading', { name: 'Threat-intel feeds' }).waitFor();

    await page.getByText('Add a feed').click();
    const form = page.getByRole('form', { name: 'New feed' });
    await form.getByLabel('Name', { exact: true }).fill('Threat blog');
    await form.getByLabel('Kind').selectOption('rss');
    await form.getByLabel('Location (URL or file path)').fill(`${feeds.url}/blog.xml`);
    await form.getByLabel('Schedule (cron, UTC)').fill('every minute');
    await form.getByRole('button', { name: 'Add feed' }).click();
    const refused = form.getByRole('alert');
    await refused.waitFor();
    expect(await form.getByLabel('Schedule (cron, UTC)').getAttribute('aria-describedby')).toBe('new-feed-schedule-error');

    await form.getByLabel('Schedule (cron, UTC)').fill('');
    await form.getByRole('button', { name: 'Add feed' }).click();
    const detail = page.getByRole('region', { name: 'Feed Threat blog' });
    await detail.waitFor();
    const row = page.getByRole('row').filter({ has: page.getByRole('link', { name: 'Threat blog' }) });
    expect(await row.getByRole('cell').allTextContents()).toEqual([
      'Threat blog',
      'RSS',
      `${feeds.url}/blog.xml`,
      'On request',
      'Yes',
      'never run',
      '—',
      '—',
      '—',
    ]);
    expect(await seriousViolations(page)).toEqual([]);

    await detail.getByRole('button', { name: 'Sync now' }).click();
    const result = detail.getByRole('status').filter({ hasText: /^Sync / });
    await result.waitFor();
    expect(await result.textContent()).toMatch(/4 items read, 4 added/);
    await detail.getByText('Items: 4, most recent first').waitFor();
    await detail.getByText('Run history: 1 runs, newest first').waitFor();
    await expect.poll(() => row.getByRole('cell').nth(7).textContent()).toBe('4');

    const phishing = detail.getByRole('link', { name: 'Fancy Bear phishing wave uses T1566 and T1059.001' });
    expect(await phishing.getAttribute('href')).toBe('https://blog.example/posts/1');
    const phishingRow = detail.getByRole('row').filter({ has: page.getByRole('link', { name: /^Fancy Bear phishing/ }) });
    expect(await phishingRow.getByRole('link', { name: 'T1566', exact: true }).getAttribute('href')).toBe('/techniques/T1566');
    expect(await phishingRow.getByRole('link', { name: 'T1059.001', exact: true }).getAttribute('href')).toBe('/techniques/T1059.001');
    // The hostile item: its markup is inert text and its javascript: link is no link at all.
    const turla = detail.getByRole('row').filter({ hasText: 'Turla returns' });
    await turla.waitFor();
    expect(await turla.getByRole('link', { name: /Turla/ }).count()).toBe(0);
    expect(await turla.getByRole('link', { name: 'T1059', exact: true }).getAttribute('href')).toBe('/techniques/T1059');
    expect(await page.locator('main a[href^="javascript:"], main img, main script').count()).toBe(0);
    expect(await seriousViolations(page)).toEqual([]);

    await detail.getByLabel('Name', { exact: true }).fill('Threat blog (daily)');
    await detail.getByLabel('Schedule (cron, UTC)').fill('0 6 * * *');
    await detail.getByLabel('Enabled').uncheck();
    await detail.getByRole('button', { name: 'Save feed' }).click();
    const renamed = page.getByRole('region', { name: 'Feed Threat blog (daily)' });
    await renamed.waitFor();
    const stored = await app.services.prisma.osintFeed.findFirstOrThrow({ where: { name: 'Threat blog (daily)' } });
    expect([stored.schedule, stored.enabled]).toEqual(['0 6 * * *', false]);
    await page.getByRole('row').filter({ hasText: '0 6 * * *' }).waitFor();

    await renamed.getByRole('button', { name: 'Delete feed' }).click();
    await page.getByRole('button', { name: 'Confirm deletion' }).click();
    await page.getByRole('status').filter({ hasText: 'Feed deleted.' }).waitFor();
    await expect.poll(() => page.getByRole('link', { name: /Threat blog/ }).count()).toBe(0);
    expect(await app.services.prisma.osintFeed.count()).toBe(0);
    expectNoMisconduct(misconduct);
    await context.close();
  });

  it('is not shown to a lead', async () => {
    const { context, page } = await signedIn('red_lead');
    await page.goto('/admin/feeds');
    await page.getByRole('heading', { name: 'Not allowed' }).waitFor();
    expect(await page.getByRole('heading', { name: 'Threat-intel feeds' }).count()).toBe(0);
    await context.close();
  });
});
