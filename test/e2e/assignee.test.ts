import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { team, type Team } from '../helpers/test-runs.ts';
import { expectNoMisconduct, expectNothingExecutable, launchBrowser, seriousViolations, signingIn } from './browser.ts';

const HOSTILE_NAME = '<img src=x onerror=alert(1)> \u202Eevil\u202C';
const HOSTILE_TEMPLATE = '<script>fetch("https://evil.example/")</script> template';
const HOSTILE_DESCRIPTION = 'Run <script>alert(2)</script> then [open](javascript:alert(3)) or <a href="javascript:alert(4)">this</a>';
const TTP_ID = `T9${String(Math.floor(Math.random() * 1000)).padStart(3, '0')}.001`;

vi.setConfig({ testTimeout: 120_000 });

let app: TestApp;
let browser: Browser;
let t: Team;
let hostileTech: { id: string; username: string };

beforeAll(async () => {
  [app, browser] = await Promise.all([startTestApp({ SOURCE_SYNC_SCHEDULES: 'false' }), launchBrowser()]);
  t = await team(app);
  await app.services.prisma.technique.create({ data: { ttpId: TTP_ID, name: `Technique ${TTP_ID}`, tactic: 'Execution' } });
  hostileTech = await app.createUser({ role: 'red_tech', username: 'aa-hostile-tech' });
  await app.services.prisma.user.update({ where: { id: hostileTech.id }, data: { displayName: HOSTILE_NAME } });
  const template = await app.graphql(
    'mutation ($input: CreateTestTemplateInput!) { createTestTemplate(input: $input) { id } }',
    { input: { name: HOSTILE_TEMPLATE, description: HOSTILE_DESCRIPTION, ttpTechniqueId: TTP_ID, platform: 'Linux' } },
    t.red_lead.token,
  );
  expect(template.errors).toBeUndefined();
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await app?.close();
});

const signedIn = signingIn(() => ({ browser, url: app.url, team: t }));

const assignee = (page: Page) => page.getByRole('definition').nth(3);

describe('assigning tests', () => {
  it('a lead creates a test with an assignee, sees them on the test page and the board card, then changes the assignee', async () => {
    const { context, page, misconduct } = await signedIn('red_lead');
    await page.goto(`/tests/new?technique=${TTP_ID}`);
    await page.getByRole('heading', { name: 'New test' }).waitFor();
    await page.getByLabel('Name').fill('Assigned from the form');
    await expect.poll(() => page.getByLabel('Assignee (optional)').locator('option').count()).toBeGreaterThan(1);
    await page.getByLabel('Assignee (optional)').selectOption(hostileTech.id);
    expect(await seriousViolations(page)).toEqual([]);
    await page.getByRole('button', { name: 'Create test' }).click();
    await page.getByRole('heading', { name: 'Assigned from the form' }).waitFor();
    await expect.poll(() => assignee(page).textContent()).toBe(HOSTILE_NAME);
    const id = page.url().split('/').pop()!;
    expect((await app.services.prisma.test.findUniqueOrThrow({ where: { id } })).assignedToId).toBe(hostileTech.id);

    await page.getByLabel('Change assignee').selectOption(t.blue_tech.id);
    expect(await seriousViolations(page)).toEqual([]);
    await page.getByRole('button', { name: 'Save assignee' }).click();
    await page.getByRole('status').filter({ hasText: 'Assignee saved.' }).waitFor();
    await expect.poll(() => assignee(page).textContent()).toBe(t.blue_tech.username);
    expect((await app.services.prisma.test.findUniqueOrThrow({ where: { id } })).assignedToId).toBe(t.blue_tech.id);

    await page.goto('/board');
    const card = page.getByRole('listitem').filter({ has: page.getByRole('heading', { name: 'Assigned from the form', exact: true }) });
    await expect.poll(() => card.textContent()).toContain(`Assignee: ${t.blue_tech.username}`);
    expectNoMisconduct(misconduct);
    await context.close();
  });

  it('a lead creates a test from a template in the dark theme; hostile names and descriptions stay text', async () => {
    const { context, page, misconduct } = await signedIn('blue_lead', 'dark');
    await page.goto('/tests/new');
    await page.getByLabel('Technique (ATT&CK id)').fill(TTP_ID);
    const templates = page.getByLabel('Template (optional)');
    await expect.poll(() => templates.locator('option').count()).toBe(2);
    expect(await templates.locator('option').nth(1).textContent()).toContain(HOSTILE_TEMPLATE);
    await templates.selectOption({ index: 1 });
    expect(await page.getByLabel('Procedure').isDisabled()).toBe(true);
    await page.getByLabel('Assignee (optional)').selectOption(hostileTech.id);
    expect(await seriousViolations(page)).toEqual([]);
    await page.getByRole('button', { name: 'Create test' }).click();
    await page.getByRole('heading', { name: HOSTILE_TEMPLATE }).waitFor();
    await expect.poll(() => assignee(page).textContent()).toBe(HOSTILE_NAME);
    expect(await page.locator('.description').textContent()).toBe(HOSTILE_DESCRIPTION);
    await expectNothingExecutable(page);
    expect(await seriousViolations(page)).toEqual([]);
    const id = page.url().split('/').pop()!;
    const created = await app.services.prisma.test.findUniqueOrThrow({ where: { id } });
    expect(created).toMatchObject({ name: HOSTILE_TEMPLATE, assignedToId: hostileTech.id, platform: 'linux' });
    expect(created.templateId).not.toBeNull();
    expectNoMisconduct(misconduct);
    await context.close();
  });

  it('a tech sees the assignee but cannot change it', async () => {
    const draft = await app.services.prisma.test.findFirstOrThrow({ where: { name: 'Assigned from the form' } });
    const { context, page, misconduct } = await signedIn('red_tech');
    await page.goto(`/tests/${draft.id}`);
    await page.getByRole('heading', { name: 'Assigned from the form' }).waitFor();
    await expect.poll(() => assignee(page).textContent()).toBe(t.blue_tech.username);
    expect(await page.getByLabel('Change assignee').count()).toBe(0);
    expectNoMisconduct(misconduct);
    await context.close();
  });

  it('an open test page follows an assignee changed elsewhere, the editor too, without a reload', async () => {
    const draft = await app.services.prisma.test.findFirstOrThrow({ where: { name: 'Assigned from the form' } });
    const { context, page, misconduct } = await signedIn('blue_lead');
    await page.goto(`/tests/${draft.id}`);
    await page.getByRole('heading', { name: 'Assigned from the form' }).waitFor();
    await expect.poll(() => assignee(page).textContent()).toBe(t.blue_tech.username);
    expect(await page.getByLabel('Change assignee').inputValue()).toBe(t.blue_tech.id);
    await page.evaluate(() => Object.assign(window, { unreloaded: true }));

    const changed = await app.api('PATCH', `/tests/${draft.id}`, { token: t.red_lead.token, body: { assigned_to: t.red_tech.id } });
    expect(changed.status, JSON.stringify(changed.body)).toBe(200);
    await expect.poll(() => assignee(page).textContent(), { timeout: 5_000 }).toBe(t.red_tech.username);
    expect(await page.getByLabel('Change assignee').inputValue()).toBe(t.red_tech.id);
    expect(await page.getByRole('button', { name: 'Save assignee' }).isDisabled()).toBe(true);
    expect(await page.evaluate(() => (window as unknown as { unreloaded?: boolean }).unreloaded)).toBe(true);
    expectNoMisconduct(misconduct);
    await context.close();
  });
});
