import { randomUUID } from 'node:crypto';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { TestState } from '../../src/generated/prisma/enums.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { team, type Team } from '../helpers/test-runs.ts';
import { expectNoMisconduct, expectNothingExecutable, launchBrowser, SCREENSHOTS, seriousViolations, signingIn } from './browser.ts';

const HOSTILE_NAME = '<script>fetch("https://evil.example/")</script><img src=x onerror=alert(1)> \u202Eevil\u202C';
const HOSTILE_DESCRIPTION = 'Run <script>alert(2)</script> then [open](javascript:alert(3)) or <a href="javascript:alert(4)">this</a>';

vi.setConfig({ testTimeout: 120_000 });

let app: TestApp;
let browser: Browser;
let t: Team;
const techniques: Record<string, string> = {};
let hostileCampaignId: string;
let actorName: string;

async function seedTest(name: string, campaignId: string | null = null, state: TestState = 'draft') {
  const id = randomUUID();
  await app.services.prisma.test.create({
    data: {
      id,
      lineageId: id,
      techniqueId: techniques.T1059,
      name,
      createdById: t.red_lead.id,
      campaignId,
      state,
      executionDate: state === 'draft' ? null : new Date(),
    },
  });
  return id;
}

beforeAll(async () => {
  [app, browser] = await Promise.all([startTestApp({ SOURCE_SYNC_SCHEDULES: 'false' }), launchBrowser()]);
  t = await team(app);
  for (const [ttpId, name] of [
    ['T1059', 'Command and Scripting Interpreter'],
    ['T1003', 'OS Credential Dumping'],
    ['T1566', 'Phishing'],
  ]) {
    const row = await app.services.prisma.technique.create({
      data: { ttpId, name, tactic: 'Execution', stixId: `attack-pattern--${randomUUID()}` },
    });
    techniques[ttpId] = row.id;
  }
  actorName = 'Paper Bear';
  const actor = await app.services.prisma.threatActor.create({
    data: { stixId: `intrusion-set--${randomUUID()}`, externalId: 'G9101', name: actorName, aliases: [actorName] },
  });
  await app.services.prisma.threatActorTechnique.createMany({
    data: ['T1059', 'T1003', 'T1566'].map((ttpId) => ({
      stixId: `relationship--${randomUUID()}`,
      actorId: actor.id,
      techniqueId: techniques[ttpId],
      procedure: `Used ${ttpId}.`,
    })),
  });
  const hostile = await app.services.prisma.campaign.create({
    data: { name: HOSTILE_NAME, description: HOSTILE_DESCRIPTION, createdById: t.red_lead.id },
  });
  hostileCampaignId = hostile.id;
  await seedTest(HOSTILE_NAME, hostile.id);
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await app?.close();
});

const signedIn = signingIn(() => ({ browser, url: app.url, team: t }));

const status = (page: Page) => page.getByTestId('campaign-status').textContent();
const testsTable = (page: Page) => page.getByRole('region', { name: 'Tests' }).getByRole('table');

describe('campaign lifecycle in the browser', () => {
  it('a red lead creates a campaign (a bad recurrence named beside its field), schedules it, adds and removes tests, activates it, sees progress and completes it', async () => {
    const free = [await seedTest('Free test one'), await seedTest('Free test two')];
    const { context, page, misconduct } = await signedIn('red_lead');
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Campaigns' }).click();
    await page.getByRole('heading', { name: 'Campaigns', level: 1 }).waitFor();

    const form = page.getByRole('form', { name: 'New campaign' });
    await form.getByLabel('Name').fill('Spring purple exercise');
    await form.getByLabel('Description').fill('Exercise the <b>endpoint</b> detections.');
    await form.getByLabel('Type').selectOption('purple');
    await form.getByLabel('Recurrence (cron, UTC)').fill('* * * * *');
    await form.getByRole('button', { name: 'Create campaign' }).click();
    const recurrenceError = form.locator('#campaign-recurrence-error');
    await expect.poll(() => recurrenceError.textContent()).toMatch(/hour/);
    expect(await recurrenceError.getAttribute('role')).toBe('alert');
    expect(await form.getByLabel('Recurrence (cron, UTC)').getAttribute('aria-describedby')).toContain('campaign-recurrence-error');
    await form.getByLabel('Recurrence (cron, UTC)').fill('');
    await form.getByRole('button', { name: 'Create campaign' }).click();

    await page.getByRole('heading', { name: 'Spring purple exercise', level: 1 }).waitFor();
    expect(page.url()).toMatch(/\/campaigns\/[0-9a-f-]{36}$/);
    const campaignId = page.url().split('/').pop()!;
    expect(await status(page)).toBe('Draft');
    expect(await page.getByText('Exercise the <b>endpoint</b> detections.').count()).toBe(1);

    // Schedule.
    const schedule = page.getByRole('form', { name: 'Schedule' });
    await schedule.getByLabel('Start day (UTC)').fill('2026-03-01');
    await schedule.getByLabel('End day (UTC)').fill('2026-02-01');
    await schedule.getByRole('button', { name: 'Save schedule' }).click();
    await expect.poll(() => page.locator('#schedule-end-error').textContent()).toMatch(/before start_date/);
    await schedule.getByLabel('End day (UTC)').fill('2027-06-30');
    await schedule.getByLabel('Recurrence (cron, UTC)').fill('0 6 * * 1');
    await schedule.getByRole('button', { name: 'Save schedule' }).click();
    await page.getByRole('status').filter({ hasText: 'Schedule saved.' }).waitFor();
    await expect.poll(() => page.getByText('2026-03-01 to 2027-06-30').count()).toBe(1);
    const stored = await app.services.prisma.campaign.findUniqueOrThrow({ where: { id: campaignId } });
    expect(stored).toMatchObject({ recurrence: '0 6 * * 1', startDate: new Date('2026-03-01T00:00:00Z') });

    // Add two tests, take one out again.
    const tests = page.getByRole('region', { name: 'Tests' });
    for (const name of ['Free test one', 'Free test two']) {
      await tests.getByLabel('Test outside any campaign').selectOption({ label: `T1059 · ${name}` });
      await tests.getByRole('button', { name: 'Add test' }).click();
      await testsTable(page).getByRole('link', { name }).waitFor();
    }
    await testsTable(page).getByRole('button', { name: 'Remove from campaign' }).last().click();
    await expect.poll(() => testsTable(page).getByRole('link', { name: 'Free test two' }).count()).toBe(0);
    expect(await app.services.prisma.test.findUniqueOrThrow({ where: { id: free[1] } })).toMatchObject({ campaignId: null });
    expect(await testsTable(page).getByRole('link', { name: 'Free test one' }).getAttribute('href')).toBe(`/tests/${free[0]}`);

    // Activate; completing is refused in words while no test has started.
    await page.getByRole('button', { name: 'Activate campaign' }).click();
    await expect.poll(() => status(page)).toBe('Active');
    expect(await page.getByRole('button', { name: 'Activate campaign' }).count()).toBe(0);
    await page.getByRole('button', { name: 'Complete campaign' }).click();
    await expect.poll(() => page.getByRole('alert').allTextContents()).toContainEqual(expect.stringMatching(/at least one of its tests/));

    // Progress: one validated test of two.
    await seedTest('Already validated', campaignId, 'validated');
    await page.reload();
    await expect.poll(() => page.getByTestId('campaign-progress').textContent()).toContain('1 of 2 validated (50%)');
    const progress = page.getByRole('region', { name: 'Progress' });
    expect(await progress.getByRole('progressbar').getAttribute('aria-label')).toBe('Campaign progress: 1 of 2 validated (50%)');
    await page.screenshot({ path: `${SCREENSHOTS}campaign.png` });

    await page.getByRole('button', { name: 'Complete campaign' }).click();
    await expect.poll(() => status(page)).toBe('Completed');
    expect(await page.getByRole('main').getByRole('button').allTextContents()).toEqual(['Edit campaign', 'Delete campaign']);
    expect(await page.getByRole('form', { name: 'Schedule' }).count()).toBe(0);
    const history = await page.getByRole('list', { name: 'Campaign history' }).getByRole('listitem').allTextContents();
    expect(history.map((entry) => entry.split(' · ').pop())).toEqual([
      'Active → Completed',
      'Draft → Active',
      'test removed',
      'test added',
      'test added',
      'scheduled',
      'created',
    ]);

    // The board, filtered by the campaign.
    await page.getByRole('link', { name: 'Open these tests on the board' }).click();
    await page.getByRole('heading', { name: 'Test board' }).waitFor();
    expect(new URL(page.url()).searchParams.get('campaign')).toBe(campaignId);
    await expect.poll(() => page.getByLabel('Campaign', { exact: true }).inputValue()).toBe(campaignId);
    expectNoMisconduct(misconduct);
    await context.close();
  });

  it('a blue lead creates a campaign from a threat actor: one draft test per technique it uses', async () => {
    const { context, page, misconduct } = await signedIn('blue_lead');
    await page.goto('/campaigns');
    const form = page.getByRole('form', { name: 'Campaign from a threat actor' });
    await form.getByLabel('Threat actor').selectOption({ label: `${actorName} (G9101)` });
    await form.getByRole('button', { name: 'Create from actor' }).click();
    await page.getByRole('heading', { name: `${actorName} (G9101) emulation`, level: 1 }).waitFor();
    expect(await page.getByText('threat_actor', { exact: true }).count()).toBe(1);
    await expect.poll(() => testsTable(page).getByRole('link').count()).toBe(3);
    expect(await page.getByTestId('campaign-progress').textContent()).toContain('0 of 3 validated (0%)');
    expectNoMisconduct(misconduct);
    await context.close();
  });

  it('an action refused because someone else acted first is shown in words and the page catches up', async () => {
    const campaign = await app.services.prisma.campaign.create({ data: { name: 'Raced campaign', createdById: t.red_lead.id } });
    const { context, page } = await signedIn('blue_lead');
    await page.goto(`/campaigns/${campaign.id}`);
    await page.getByRole('button', { name: 'Activate campaign' }).waitFor();
    // The red lead's activation lands just before the blue lead's: the live page would otherwise catch up first.
    let first: Awaited<ReturnType<TestApp['graphql']>> | undefined;
    await page.route('**/graphql', async (route) => {
      if (!first && route.request().postData()?.includes('mutation ActivateCampaign'))
        first = await app.graphql('mutation ($id: UUID!) { activateCampaign(id: $id) { status } }', { id: campaign.id }, t.red_lead.token);
      await route.continue();
    });
    await page.getByRole('button', { name: 'Activate campaign' }).click();
    await expect.poll(() => first).toBeDefined();
    expect(first?.errors).toBeUndefined();
    await expect.poll(() => page.getByRole('alert').allTextContents()).toContainEqual(expect.stringMatching(/active/i));
    await expect.poll(() => status(page)).toBe('Active');
    expect(await page.getByRole('button', { name: 'Activate campaign' }).count()).toBe(0);
    await context.close();
  });
});

describe('hostile content', () => {
  it('a campaign named and described with markup, scripts, javascript: links and bidi characters stays text', async () => {
    const { context, page, misconduct } = await signedIn('red_lead');
    await page.goto('/campaigns?status=draft');
    await page.getByRole('link', { name: HOSTILE_NAME }).first().waitFor();
    await page.getByRole('link', { name: HOSTILE_NAME }).first().click();
    await page.getByRole('heading', { name: HOSTILE_NAME, level: 1 }).waitFor();
    expect(await page.getByText(HOSTILE_DESCRIPTION).count()).toBe(1);
    expect(await testsTable(page).getByRole('link', { name: HOSTILE_NAME }).count()).toBe(1);
    await page.getByRole('button', { name: 'Edit campaign' }).click();
    expect(await page.getByRole('form', { name: 'Edit campaign' }).getByLabel('Name').inputValue()).toBe(HOSTILE_NAME);
    expect(await page.getByRole('form', { name: 'Edit campaign' }).getByLabel('Description').inputValue()).toBe(HOSTILE_DESCRIPTION);
    await expectNothingExecutable(page);
    expectNoMisconduct(misconduct);
    await context.close();
  });
});

describe('the campaigns list', () => {
  it('filters by status and pages on the server, both in the URL', async () => {
    await app.services.prisma.campaign.createMany({
      data: Array.from({ length: 21 }, (_, index) => ({ name: `Bulk ${String(index).padStart(2, '0')}`, createdById: t.admin.id })),
    });
    await app.services.prisma.campaign.create({ data: { name: 'Finished one', status: 'completed', createdById: t.admin.id } });
    const { context, page, misconduct } = await signedIn('viewer');
    await page.goto('/campaigns');
    const table = page.getByRole('table');
    await table.getByRole('row').nth(1).waitFor();
    expect(await table.getByRole('row').count()).toBe(21);
    await page.getByRole('navigation', { name: 'Campaign pages' }).getByRole('button', { name: 'Next' }).click();
    await expect.poll(() => new URL(page.url()).searchParams.get('offset')).toBe('20');
    await page.getByLabel('Status').selectOption('completed');
    await expect.poll(() => new URL(page.url()).search).toBe('?status=completed');
    await expect
      .poll(() => table.getByRole('link').allTextContents())
      .toEqual(expect.arrayContaining(['Finished one', 'Spring purple exercise']));
    const statuses = await table.locator('tbody tr td:nth-child(2)').allTextContents();
    expect(new Set(statuses)).toEqual(new Set(['Completed']));
    expectNoMisconduct(misconduct);
    await context.close();
  });

  it('a viewer sees no action button and no form on the list or on a campaign', async () => {
    const { context, page } = await signedIn('viewer');
    await page.goto('/campaigns?status=draft');
    await page.getByRole('table').getByRole('row').nth(1).waitFor();
    expect(await page.getByRole('form').count()).toBe(0);
    await page.goto(`/campaigns/${hostileCampaignId}`);
    await page.getByRole('region', { name: 'History' }).waitFor();
    expect(await page.getByRole('main').getByRole('button').count()).toBe(0);
    expect(await page.getByRole('form').count()).toBe(0);
    await context.close();
  });
});

describe('editing, deleting and searching', () => {
  it('a blue lead finds a campaign by text (in the URL), edits its name, description and type, and deletes it after confirming in place', async () => {
    for (const [name, description] of [
      ['Harbour night drill', 'Night shift'],
      ['Quiet harbour check', ''],
      ['Unrelated sweep', 'Not about the HARBOUR at all'],
    ]) {
      await app.services.prisma.campaign.create({ data: { name, description, createdById: t.blue_lead.id } });
    }
    const { context, page, misconduct } = await signedIn('blue_lead');
    await page.goto('/campaigns');
    const table = page.getByRole('table');
    await table.getByRole('row').nth(1).waitFor();
    await page.getByLabel('Search', { exact: true }).fill('harbour');
    await expect.poll(() => new URL(page.url()).searchParams.get('q')).toBe('harbour');
    await expect
      .poll(async () => (await table.getByRole('link').allTextContents()).sort())
      .toEqual(['Harbour night drill', 'Quiet harbour check', 'Unrelated sweep']);
    await page.getByLabel('Search', { exact: true }).fill('night drill');
    await expect.poll(() => table.getByRole('link').allTextContents()).toEqual(['Harbour night drill']);
    await page.reload();
    expect(await page.getByLabel('Search', { exact: true }).inputValue()).toBe('night drill');
    await table.getByRole('link', { name: 'Harbour night drill' }).click();
    await page.getByRole('heading', { name: 'Harbour night drill', level: 1 }).waitFor();
    const campaignId = page.url().split('/').pop()!;

    await page.getByRole('button', { name: 'Edit campaign' }).click();
    const form = page.getByRole('form', { name: 'Edit campaign' });
    await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe('edit-name');
    await form.getByLabel('Name').fill('x'.repeat(301));
    await form.getByRole('button', { name: 'Save campaign' }).click();
    await expect.poll(() => form.locator('#edit-name-error').textContent()).toMatch(/300/);
    expect(await form.getByLabel('Name').getAttribute('aria-describedby')).toBe('edit-name-error');
    await form.getByLabel('Name').fill('Harbour night drill, revised');
    await form.getByLabel('Description').fill('Night and <em>day</em> shifts');
    await form.getByLabel('Type').selectOption('red');
    await form.getByRole('button', { name: 'Save campaign' }).click();
    await page.getByRole('heading', { name: 'Harbour night drill, revised', level: 1 }).waitFor();
    await page.getByRole('status').filter({ hasText: 'Campaign saved.' }).waitFor();
    expect(await page.getByText('Night and <em>day</em> shifts').count()).toBe(1);
    expect(await app.services.prisma.campaign.findUniqueOrThrow({ where: { id: campaignId } })).toMatchObject({
      name: 'Harbour night drill, revised',
      description: 'Night and <em>day</em> shifts',
      type: 'red',
    });

    await page.getByRole('button', { name: 'Delete campaign' }).click();
    await page.getByRole('group', { name: /Delete this campaign for good/ }).waitFor();
    await page.getByRole('button', { name: 'Keep the campaign' }).click();
    const ask = page.getByRole('button', { name: 'Delete campaign' });
    await expect.poll(() => ask.evaluate((button) => button === document.activeElement)).toBe(true);
    expect(await app.services.prisma.campaign.count({ where: { id: campaignId } })).toBe(1);
    await page.getByRole('button', { name: 'Delete campaign' }).click();
    await page.getByRole('button', { name: 'Confirm deletion' }).click();
    await page.getByRole('heading', { name: 'Campaigns', level: 1 }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/campaigns');
    expect(await app.services.prisma.campaign.count({ where: { id: campaignId } })).toBe(0);
    await page.getByLabel('Search', { exact: true }).fill('harbour');
    await expect
      .poll(async () => (await table.getByRole('link').allTextContents()).sort())
      .toEqual(['Quiet harbour check', 'Unrelated sweep']);
    expectNoMisconduct(misconduct);
    await context.close();
  });
});

describe('accessibility', () => {
  for (const scheme of ['light', 'dark'] as const) {
    it(`the campaigns list and a campaign page have no serious or critical axe violation in the ${scheme} theme`, async () => {
      const { context, page } = await signedIn('red_lead', scheme);
      await page.goto('/campaigns');
      await expect.poll(() => page.getByLabel('Threat actor', { exact: true }).isEnabled()).toBe(true);
      expect(await seriousViolations(page), `campaigns list, ${scheme}`).toEqual([]);
      await page.goto(`/campaigns/${hostileCampaignId}`);
      await page.getByRole('form', { name: 'Schedule' }).waitFor();
      await expect.poll(() => page.getByLabel('Test outside any campaign', { exact: true }).isEnabled()).toBe(true);
      await page.getByRole('button', { name: 'Edit campaign' }).click();
      await page.getByRole('button', { name: 'Delete campaign' }).click();
      await page.getByRole('button', { name: 'Confirm deletion' }).waitFor();
      expect(await seriousViolations(page), `campaign page, ${scheme}`).toEqual([]);
      await context.close();
    });
  }
});
