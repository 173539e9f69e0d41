import { randomUUID } from 'node:crypto';
import type { Page, Request } from 'playwright-core';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { syncTtp } from '../../src/modules/data-sources/attack-sync.ts';
import type { TestApp } from '../helpers/app.ts';
import type { FileServer } from '../helpers/file-server.ts';
import { advance, createTest, type Team } from '../helpers/test-runs.ts';
import {
  closeAll,
  expectNoMisconduct,
  expectNothingExecutable,
  seriousViolations,
  signingIn,
  startWithAttackBundle,
  techniqueIdOf,
} from './browser.ts';

const HOSTILE = '<img src=x onerror=alert(1)> Shield \u202Eexe.gnp\u202C';
const HOSTILE_HOW = 'Apply <script>alert(2)</script> and [read](javascript:alert(3)) <a href="javascript:alert(4)">this</a>';

vi.setConfig({ testTimeout: 120_000 });

let app: TestApp;
let files: FileServer;
let browser: Browser;
let t: Team;
const techniqueIds: Record<string, string> = {};

beforeAll(async () => {
  ({ files, app, browser, t } = await startWithAttackBundle());
  await syncTtp(app.services, { userId: t.admin.id, username: t.admin.username });
  for (const ttpId of ['T1003', 'T1059']) techniqueIds[ttpId] = await techniqueIdOf(app, ttpId);
  const hostile = await app.services.prisma.mitigation.create({
    data: { stixId: `course-of-action--${randomUUID()}`, externalId: 'M9999', name: HOSTILE, description: HOSTILE_HOW },
  });
  await app.services.prisma.techniqueMitigation.create({
    data: { stixId: `relationship--${randomUUID()}`, techniqueId: techniqueIds.T1059, mitigationId: hostile.id, description: HOSTILE_HOW },
  });
}, 180_000);

afterAll(() => closeAll(browser, app, files));

const signedIn = signingIn(() => ({ browser, url: app.url, team: t }));

/** A campaign made through the API by the red lead, with `names` as its tests (drafts of T1003). */
async function campaignWith(name: string, names: string[]) {
  const created = await app.api('POST', '/campaigns', { token: t.red_lead.token, body: { name } });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  const id = created.body.id as string;
  const tests: string[] = [];
  for (const testName of names) {
    const test = await createTest(app, t.red_lead, techniqueIds.T1003, { name: testName, campaign_id: id });
    tests.push(test.id);
  }
  return { id, tests };
}

/** Marks the page's document: the mark is gone if the page was reloaded. */
const mark = (page: Page) => page.evaluate(() => Object.assign(window, { unreloaded: true }));
const stillUnreloaded = (page: Page) => page.evaluate(() => (window as unknown as { unreloaded?: boolean }).unreloaded === true);

const testRow = (page: Page, name: string) =>
  page
    .getByRole('region', { name: 'Tests' })
    .getByRole('row')
    .filter({ has: page.getByRole('link', { name }) });

describe('the campaign page, live', () => {
  it("shows another person's test transition, activation, edit and deletion within seconds, without a reload", async () => {
    const { id, tests } = await campaignWith('Live purple week', ['Dump LSASS', 'Read SAM']);
    const watcher = await signedIn('viewer');
    const lead = await signedIn('red_lead');
    const page = watcher.page;
    await page.goto(`/campaigns/${id}`);
    await page.getByRole('heading', { name: 'Live purple week' }).waitFor();
    expect(await testRow(page, 'Dump LSASS').textContent()).toContain('Draft');
    await mark(page);
    const status = page.getByRole('status').filter({ hasText: /moved to|^The campaign/ });

    // A transition made through the API by a red technician.
    await advance(app, t, tests[0], 'red_executing');
    await expect.poll(() => testRow(page, 'Dump LSASS').textContent(), { timeout: 5_000 }).toContain('Red executing');
    await expect.poll(() => status.textContent(), { timeout: 5_000 }).toBe('Dump LSASS moved to Red executing.');

    // The campaign activated by the red lead on their own page.
    await lead.page.goto(`/campaigns/${id}`);
    await lead.page.getByRole('button', { name: 'Activate campaign' }).click();
    await lead.page.getByTestId('campaign-status').filter({ hasText: 'Active' }).waitFor();
    await expect.poll(() => page.getByTestId('campaign-status').textContent(), { timeout: 5_000 }).toBe('Active');
    await expect.poll(() => status.textContent(), { timeout: 5_000 }).toBe('The campaign is now Active.');

    // Renamed through the API, then a test validated: the heading and the progress follow.
    const renamed = await app.api('PATCH', `/campaigns/${id}`, { token: t.blue_lead.token, body: { name: 'Live purple fortnight' } });
    expect(renamed.status, JSON.stringify(renamed.body)).toBe(200);
    await page.getByRole('heading', { name: 'Live purple fortnight' }).waitFor({ timeout: 5_000 });
    // A test renamed through the API: its row follows, and the page says so.
    const testRenamed = await app.api('PATCH', `/tests/${tests[1]}`, { token: t.red_lead.token, body: { name: 'Read the SAM hive' } });
    expect(testRenamed.status, JSON.stringify(testRenamed.body)).toBe(200);
    await testRow(page, 'Read the SAM hive').waitFor({ timeout: 5_000 });
    await page.getByRole('status').filter({ hasText: 'Read the SAM hive was changed.' }).waitFor({ timeout: 5_000 });
    await advance(app, t, tests[1], 'validated');
    await expect.poll(() => page.getByTestId('campaign-progress').textContent(), { timeout: 5_000 }).toContain('1 of 2 validated (50%)');
    expect(await stillUnreloaded(page)).toBe(true);

    const deleted = await app.api('DELETE', `/campaigns/${id}`, { token: t.red_lead.token });
    expect(deleted.status, JSON.stringify(deleted.body)).toBe(204);
    await page.getByRole('alert').filter({ hasText: 'This campaign was deleted meanwhile.' }).waitFor({ timeout: 5_000 });
    expect(await stillUnreloaded(page)).toBe(true);
    expectNoMisconduct(watcher.misconduct);
    expectNoMisconduct(lead.misconduct);
    await watcher.context.close();
    await lead.context.close();
  });
});

describe('the technique page, mitigations', () => {
  it("lists the technique's ATT&CK mitigations with how each applies, from the synced catalog", async () => {
    const { context, page, misconduct } = await signedIn('viewer');
    await page.goto('/techniques/T1003');
    const section = page.getByRole('region', { name: 'Mitigations' });
    await section.getByText('M1043 Credential Access Protection').waitFor();
    const expected = await app.services.prisma.techniqueMitigation.findMany({
      where: { techniqueId: techniqueIds.T1003 },
      include: { mitigation: true },
    });
    expect(expected.length).toBeGreaterThan(5);
    const names = await section.locator('dt').allTextContents();
    expect(names.sort()).toEqual(expected.map(({ mitigation }) => `${mitigation.externalId} ${mitigation.name}`).sort());
    await section.getByText('Ensure Domain Controller backups are properly secured.').waitFor();

    await page.goto('/techniques/T1059');
    const hostile = page.getByRole('region', { name: 'Mitigations' }).locator('div').filter({ hasText: 'M9999' });
    await hostile.waitFor();
    expect(await hostile.locator('dt').textContent()).toBe(`M9999 ${HOSTILE}`);
    expect(await hostile.locator('dd').textContent()).toContain('<script>alert(2)</script>');
    await expectNothingExecutable(page);
    expectNoMisconduct(misconduct);
    await context.close();
  });
});

/** The search requests the page made for suggestions, by the text they asked about. */
function suggestRequests(page: Page): string[] {
  const asked: string[] = [];
  page.on('request', (request: Request) => {
    const body = request.postDataJSON() as { query?: string; variables?: { query?: string } } | null;
    if (request.url().endsWith('/graphql') && body?.query?.includes('query Suggest')) asked.push(body.variables?.query ?? '');
  });
  return asked;
}

describe('search suggestions', () => {
  it('suggest as you type after two characters and a pause, are chosen with the keyboard only, and never show a stale answer', async () => {
    const { context, page, misconduct } = await signedIn('viewer');
    const asked = suggestRequests(page);
    const box = page.getByRole('combobox', { name: 'Search techniques, tests and playbooks' });
    const listbox = page.getByRole('listbox', { name: 'Suggestions' });
    for (let tab = 0; tab < 5 && !(await box.evaluate((element) => element === document.activeElement)); tab++)
      await page.keyboard.press('Tab');
    expect(await box.evaluate((element) => element === document.activeElement)).toBe(true);

    await page.keyboard.type('T');
    await page.waitForTimeout(600);
    expect(await box.getAttribute('aria-expanded')).toBe('false');
    expect(asked).toEqual([]);

    await page.keyboard.type('1003', { delay: 30 });
    await listbox.getByRole('option', { name: 'Technique T1003 OS Credential Dumping' }).waitFor();
    expect(await box.getAttribute('aria-expanded')).toBe('true');
    expect(asked.at(-1)).toBe('T1003');
    expect(asked.length).toBeLessThanOrEqual(2);
    expect(asked.every((text) => text.length >= 2)).toBe(true);
    const options = listbox.getByRole('option');
    const count = await options.count();
    expect(await options.nth(count - 1).textContent()).toBe('All results Search for “T1003”');

    const active = async () => {
      const id = await box.getAttribute('aria-activedescendant');
      return id ? page.locator(`[id="${id}"]`).textContent() : null;
    };
    expect(await active()).toBeNull();
    await page.keyboard.press('ArrowDown');
    expect(await active()).toBe('Technique T1003 OS Credential Dumping');
    expect(await options.first().getAttribute('aria-selected')).toBe('true');
    await page.keyboard.press('ArrowUp');
    expect(await active()).toBe('All results Search for “T1003”');
    await page.keyboard.press('ArrowDown');
    expect(await active()).toBe('Technique T1003 OS Credential Dumping');
    await page.keyboard.press('Escape');
    expect(await box.getAttribute('aria-expanded')).toBe('false');
    expect(await box.getAttribute('aria-activedescendant')).toBeNull();
    expect(await listbox.isHidden()).toBe(true);
    await page.keyboard.press('ArrowDown');
    expect(await active()).toBe('Technique T1003 OS Credential Dumping');
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: 'T1003 OS Credential Dumping' }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/techniques/T1003');
    expect(await box.inputValue()).toBe('');

    // A slow answer to an earlier text is not shown once the text has changed.
    await page.route('**/graphql', async (route) => {
      const body = route.request().postDataJSON() as { variables?: { query?: string } } | null;
      if (body?.variables?.query === 'T1059') await new Promise((resolve) => setTimeout(resolve, 1_500));
      await route.continue().catch(() => undefined);
    });
    await box.focus();
    await page.keyboard.type('T1059');
    await expect.poll(() => asked.at(-1)).toBe('T1059');
    for (let i = 0; i < 5; i++) await page.keyboard.press('Backspace');
    await page.keyboard.type('T1003');
    await listbox.getByRole('option', { name: 'Technique T1003 OS Credential Dumping' }).waitFor();
    await page.waitForTimeout(2_000);
    expect(await listbox.getByRole('option', { name: /T1059/ }).count()).toBe(0);
    expect(await listbox.getByRole('option', { name: 'Technique T1003 OS Credential Dumping' }).count()).toBe(1);
    await page.unroute('**/graphql');

    // Enter with no option chosen opens the results page.
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: 'Search results for “T1003”' }).waitFor();
    expectNoMisconduct(misconduct);
    await context.close();
  });
});

describe('accessibility', () => {
  for (const scheme of ['light', 'dark'] as const) {
    it(`the technique page with mitigations, the open suggestions and a live campaign page have no serious axe violation in the ${scheme} theme`, async () => {
      const { context, page, misconduct } = await signedIn('blue_lead', scheme);
      const found: Record<string, unknown> = {};
      await page.goto('/techniques/T1059');
      await page.getByRole('region', { name: 'Mitigations' }).getByText('M9999').waitFor();
      found.technique = await seriousViolations(page);

      await page.getByRole('combobox', { name: 'Search techniques, tests and playbooks' }).focus();
      await page.keyboard.type('cred');
      await page.getByRole('listbox', { name: 'Suggestions' }).getByRole('option').first().waitFor();
      await page.keyboard.press('ArrowDown');
      found.suggestions = await seriousViolations(page);
      await page.keyboard.press('Escape');

      const { id, tests } = await campaignWith(`Accessible live ${scheme}`, ['Kerberoast']);
      await page.goto(`/campaigns/${id}`);
      await page.getByRole('heading', { name: `Accessible live ${scheme}` }).waitFor();
      await advance(app, t, tests[0], 'red_executing');
      await page.getByRole('status').filter({ hasText: 'Kerberoast moved to Red executing.' }).waitFor({ timeout: 5_000 });
      found.campaign = await seriousViolations(page);
      expect(found).toEqual({ technique: [], suggestions: [], campaign: [] });
      expectNoMisconduct(misconduct);
      await context.close();
    });
  }
});
