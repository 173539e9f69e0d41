import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { TestApp } from '../helpers/app.ts';
import type { FileServer } from '../helpers/file-server.ts';
import { createTest, type Team } from '../helpers/test-runs.ts';
import {
  closeAll,
  expectNoMisconduct,
  expectNoMisconductAndClose,
  expectNothingExecutable,
  graphqlBodies,
  openContext,
  SCREENSHOTS,
  seriousViolations,
  signIn,
  signingIn,
  startWithAttackBundle,
  techniqueIdOf,
} from './browser.ts';

const HOSTILE_TECHNIQUE = '<img src=x onerror=alert(1)>';
const HOSTILE_TEST = '<script>fetch("https://evil.example/")</script>';
const HOSTILE_DESCRIPTION = 'Run <script>alert(2)</script> then [open](javascript:alert(3)) or <a href="javascript:alert(4)">this</a>';

vi.setConfig({ testTimeout: 180_000 });

let app: TestApp;
let files: FileServer;
let browser: Browser;
let t: Team;
let pagedCampaign: { id: string };
let hostileTestId: string;

beforeAll(async () => {
  ({ files, app, browser, t } = await startWithAttackBundle());
  const sync = await app.graphql('mutation { syncTtp { new } }', {}, t.admin.token);
  expect(sync.errors).toBeUndefined();
  const custom = await app.api('POST', '/techniques', {
    token: t.admin.token,
    body: { ttp_id: 'CUSTOM-1', name: HOSTILE_TECHNIQUE, tactic: 'Execution', description: HOSTILE_DESCRIPTION, platforms: ['Linux'] },
  });
  expect(custom.status, JSON.stringify(custom.body)).toBe(201);
  pagedCampaign = await app.services.prisma.campaign.create({ data: { name: 'Filtered campaign', createdById: t.red_lead.id } });
  const credentialDumping = await techniqueIdOf(app, 'T1003');
  for (let index = 0; index < 22; index += 1)
    await createTest(app, t.red_lead, credentialDumping, { name: `Paged ${index}`, campaign_id: pagedCampaign.id });
  hostileTestId = (await createTest(app, t.red_lead, custom.body.id, { name: HOSTILE_TEST, description: HOSTILE_DESCRIPTION })).id;
}, 180_000);

afterAll(() => closeAll(browser, app, files));

const signedIn = signingIn(() => ({ browser, url: app.url, team: t }));

const column = (page: Page, label: string) => page.getByRole('region', { name: new RegExp(`^${label}`) });
const card = (page: Page, name: string) => page.getByRole('listitem').filter({ has: page.getByRole('heading', { name, exact: true }) });

describe('signing in', () => {
  it('a new account signs in, must change its password first, then works with an HttpOnly cookie, and signs out', async () => {
    const user = await app.createUser({ role: 'blue_lead', mustChangePassword: true });
    const { context, page, misconduct } = await openContext(browser, app.url);
    await signIn(page, user.username, 'not the password');
    await expect.poll(() => page.getByRole('alert').textContent()).toMatch(/invalid|incorrect/i);
    await signIn(page, user.username, user.password);
    await page.getByRole('heading', { name: 'Change your password' }).waitFor();
    expect(await page.getByRole('navigation', { name: 'Main' }).count()).toBe(0);
    await page.getByLabel('Current password').fill(user.password);
    await page.getByLabel('New password', { exact: true }).fill('a much better passphrase');
    await page.getByLabel('Confirm the new password').fill('a much better passphrase');
    await page.getByRole('button', { name: 'Change password' }).click();
    await page.getByRole('heading', { name: 'Coverage matrix' }).waitFor();
    const cookie = (await context.cookies()).find((candidate) => candidate.name === 'svc_token');
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Lax' });
    expect(await page.evaluate(() => document.cookie)).not.toContain('svc_token');

    await page.getByRole('button', { name: user.username }).click();
    await page.getByRole('menuitem', { name: 'Sign out' }).click();
    await page.getByRole('heading', { name: 'Sign in to Violet' }).waitFor();
    expect((await context.cookies()).find((candidate) => candidate.name === 'svc_token')).toBeUndefined();
    expect((await app.login(user.username, 'a much better passphrase')).length).toBeGreaterThan(20);
    expectNoMisconduct(misconduct);
    await context.close();
  });
});

describe('the coverage matrix', () => {
  it('shows the synced catalog in one request, tactics in kill-chain order, sub-techniques folded with their count', async () => {
    const { context, page, misconduct } = await signedIn('viewer');
    await page.goto('about:blank');
    const graphqlRequests = graphqlBodies(page);
    const started = Date.now();
    await page.goto('/matrix');
    await page.getByRole('link', { name: /^T1059 Command and Scripting Interpreter/ }).waitFor();
    const interactive = Date.now() - started;

    const tactics = (await app.graphql('{ tactics { name matrixOrder } }', {}, t.viewer.token)).data.tactics as {
      name: string;
      matrixOrder: number;
    }[];
    const headings = await page
      .getByRole('region', { name: 'ATT&CK Enterprise matrix' })
      .getByRole('heading', { level: 2 })
      .allTextContents();
    expect(headings.map((heading) => heading.replace(/\s*\d+ techniques$/, ''))).toEqual(
      [...tactics].sort((a, b) => a.matrixOrder - b.matrixOrder).map((tactic) => tactic.name),
    );
    expect(graphqlRequests.filter((body) => body.includes('heatmap'))).toHaveLength(1);

    const subs = await app.services.prisma.technique.count({ where: { parentTtpId: 'T1059', revoked: false, deprecated: false } });
    const execution = page.getByRole('region', { name: /^Execution/ });
    const fold = execution.getByRole('button', { name: `Show ${subs} sub-techniques of T1059` });
    expect(await execution.getByRole('link', { name: /^T1059\.001/ }).count()).toBe(0);
    await fold.click();
    await execution.getByRole('link', { name: /^T1059\.001 PowerShell/ }).waitFor();
    expect(await execution.getByRole('button', { name: `Hide ${subs} sub-techniques of T1059` }).getAttribute('aria-expanded')).toBe(
      'true',
    );
    await page.screenshot({ path: `${SCREENSHOTS}matrix.png` });

    // Keyboard: one tab stop in the matrix, arrows move, Enter opens the technique.
    const first = page.getByRole('region', { name: 'ATT&CK Enterprise matrix' }).getByRole('link').first();
    await first.focus();
    await page.keyboard.press('ArrowRight');
    const focused = () => page.evaluate(() => document.activeElement?.textContent ?? '');
    expect(await focused()).not.toBe(await first.textContent());
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('ArrowUp');
    await page.keyboard.press('ArrowLeft');
    expect(await focused()).toBe(await first.textContent());
    await page.keyboard.press('Enter');
    await page.getByRole('link', { name: 'Back to the matrix' }).waitFor();
    expect(page.url()).toMatch(/\/techniques\/T\d{4}$/);
    // Its latency is measured by `npm run bench:web` (docs/benchmark.md), not asserted on a machine busy with other tests.
    console.info(`matrix interactive after ${interactive} ms`);
    expectNoMisconduct(misconduct);
    await context.close();
  });

  it('filters by platform through the URL, so a filtered view can be shared', async () => {
    const { context, page } = await signedIn('viewer');
    await page.goto('/matrix');
    await page.getByLabel('Platform').selectOption('Linux');
    await expect.poll(() => page.url()).toContain('platform=Linux');
    const linux = (await app.graphql('{ heatmap(platform: "Linux") { techniqueCount } }', {}, t.viewer.token)).data.heatmap.techniqueCount;
    await expect.poll(() => page.getByText(/\d+ techniques\. Arrow keys/).textContent()).toContain(`${linux} techniques.`);
    await page.reload();
    expect(await page.getByLabel('Platform').inputValue()).toBe('Linux');
    await page.getByLabel('Colour by').selectOption('score');
    await page.getByRole('list', { name: 'Legend' }).getByText('Score 75–100').waitFor();
    await context.close();
  });
});

describe('the test board', () => {
  it("a card moved by one analyst moves on everyone else's board without a reload, and its creator's bell rings", async () => {
    const name = `Live move ${randomBytes(3).toString('hex')}`;
    await createTest(app, t.red_lead, await techniqueIdOf(app, 'T1059.001'), { name });
    const actor = await signedIn('red_tech');
    const watcher = await signedIn('viewer');
    const creator = await signedIn('red_lead');
    for (const { page } of [actor, watcher]) {
      await page.goto('/board');
      await card(page, name).waitFor();
      expect(await column(page, 'Draft').getByRole('heading', { name }).count()).toBe(1);
    }
    await creator.page.goto('/board');
    const bell = creator.page.getByRole('button', { name: /^Notifications, \d+ unread$/ });
    const unreadBefore = Number((await bell.getAttribute('aria-label'))!.match(/\d+/)![0]);

    expect(await card(watcher.page, name).getByRole('button').count()).toBe(0);
    await card(actor.page, name).getByRole('button', { name: 'Start execution' }).click();
    const clicked = Date.now();
    // How soon is measured by `npm run bench:web` (under a second, docs/benchmark.md); here the machine runs other tests.
    await column(watcher.page, 'Red executing').getByRole('heading', { name }).waitFor();
    console.info(`card moved on the second board after ${Date.now() - clicked} ms`);
    expect(await column(watcher.page, 'Draft').getByRole('heading', { name }).count()).toBe(0);
    await creator.page.getByRole('button', { name: `Notifications, ${unreadBefore + 1} unread` }).waitFor({ timeout: 5000 });
    await actor.page.screenshot({ path: `${SCREENSHOTS}board.png` });
    for (const opened of [actor, watcher, creator]) {
      expectNoMisconduct(opened.misconduct);
      await opened.context.close();
    }
  });

  it('keeps filters in the URL and pages each column on the server', async () => {
    const campaign = pagedCampaign;
    const { context, page } = await signedIn('viewer');
    await page.goto('/board');
    await page.getByLabel('Campaign').selectOption({ label: 'Filtered campaign' });
    await expect.poll(() => page.url()).toContain(`campaign=${campaign.id}`);
    const draft = column(page, 'Draft');
    await expect.poll(() => draft.getByText('1–20 of 22').count()).toBe(1);
    expect(await draft.getByRole('heading', { level: 3 }).count()).toBe(20);
    await draft.getByRole('button', { name: 'Next' }).click();
    await expect.poll(() => draft.getByRole('heading', { level: 3 }).count()).toBe(2);
    expect(page.url()).toContain('draft=20');
    // The box follows the URL, which the router updates in a transition: on a busy machine it flips a moment later.
    const mine = page.getByLabel('Only tests assigned to me');
    await mine.click();
    await expect.poll(() => mine.isChecked()).toBe(true);
    await expect.poll(() => draft.getByRole('heading', { level: 3 }).count()).toBe(0);
    expect(page.url()).toContain('mine=1');
    await context.close();
  });
});

describe('the test page', () => {
  const state = (page: Page) => page.getByTestId('test-state');
  const stateIs = (page: Page, label: string) => expect.poll(() => state(page).textContent(), { timeout: 5000 }).toBe(label);

  it('a lead creates a test from the board; red and blue drive it from draft to validated, the leads decide with notes, and the timeline has every step', async () => {
    const name = `Page flow ${randomBytes(3).toString('hex')}`;
    // A red lead creates it from the board: an unknown technique is refused beside its field.
    const lead = await signedIn('red_lead');
    await lead.page.goto('/board');
    await lead.page.getByRole('link', { name: 'New test' }).click();
    await lead.page.getByLabel('Technique (ATT&CK id)').fill('T9999');
    await lead.page.getByLabel('Name', { exact: true }).fill(name);
    await lead.page.getByRole('button', { name: 'Create test' }).click();
    await expect.poll(() => lead.page.locator('#new-test-technique-error').textContent()).toBe('No technique T9999 in the catalog.');
    await lead.page.getByLabel('Technique (ATT&CK id)').fill('t1059.001');
    await lead.page.getByLabel('Campaign').selectOption({ label: 'Filtered campaign (draft)' });
    await lead.page.getByRole('button', { name: 'Create test' }).click();
    await lead.page.getByRole('heading', { name, level: 1 }).waitFor();
    const test = await app.services.prisma.test.findFirstOrThrow({ where: { name }, include: { technique: true } });
    expect(new URL(lead.page.url()).pathname).toBe(`/tests/${test.id}`);
    expect({ technique: test.technique.ttpId, campaign: test.campaignId, state: test.state }).toEqual({
      technique: 'T1059.001',
      campaign: pagedCampaign.id,
      state: 'draft',
    });
    expectNoMisconduct(lead.misconduct);
    await lead.context.close();
    const red = await signedIn('red_tech');
    const blue = await signedIn('blue_tech');
    await red.page.goto('/board');
    await card(red.page, name).getByRole('link', { name }).click();
    await red.page.getByRole('heading', { name, level: 1 }).waitFor();
    expect(new URL(red.page.url()).pathname).toBe(`/tests/${test.id}`);
    await blue.page.goto(`/tests/${test.id}`);
    expect(await blue.page.getByLabel('Detection result').isDisabled()).toBe(true);
    expect(await red.page.getByLabel('Procedure').isDisabled()).toBe(false);

    await red.page.getByRole('button', { name: 'Start execution' }).click();
    await stateIs(blue.page, 'Red executing');
    await stateIs(red.page, 'Red executing');
    await red.page.getByLabel('Tool used').fill('x'.repeat(301));
    await red.page.getByRole('button', { name: 'Save red results' }).click();
    await expect.poll(() => red.page.locator('#tool-used-error').textContent()).toMatch(/toolUsed: .*300/);
    expect(await red.page.getByLabel('Tool used').getAttribute('aria-describedby')).toBe('tool-used-error');
    await red.page.getByLabel('Procedure').fill('powershell -enc SQBFAFgA');
    await red.page.getByLabel('Tool used').fill('Atomic Red Team');
    await red.page.getByLabel('Attack success').selectOption('yes');
    await red.page.getByLabel('Red summary').fill(HOSTILE_TEST);
    await red.page.getByRole('button', { name: 'Save red results' }).click();
    await red.page.getByRole('status').filter({ hasText: 'Red results saved.' }).waitFor();
    expect(await red.page.getByLabel('Red summary').inputValue()).toBe(HOSTILE_TEST);

    const bytes = randomBytes(6 * 1024 * 1024);
    await red.page.evaluate(() => {
      const seen: number[] = [];
      Object.assign(window, { progressSeen: seen });
      new MutationObserver(() => {
        const bar = document.querySelector('progress');
        if (bar) seen.push(bar.value);
      }).observe(document.body, { subtree: true, childList: true, attributes: true, attributeFilter: ['value'] });
    });
    await red.page
      .getByLabel('Evidence file')
      .setInputFiles({ name: 'beacon <b>.pcap', mimeType: 'application/octet-stream', buffer: bytes });
    await red.page.getByRole('button', { name: 'Upload' }).click();
    await red.page.getByRole('status').filter({ hasText: 'uploaded.' }).waitFor();
    const progress = (await red.page.evaluate(() => (window as unknown as { progressSeen: number[] }).progressSeen)) as number[];
    expect(progress[0]).toBe(0);
    expect(Math.max(...progress)).toBe(1);
    const link = red.page.getByRole('link', { name: 'beacon <b>.pcap' });
    await red.page.getByRole('cell', { name: '6.0 MB' }).waitFor();
    await red.page.getByRole('cell', { name: t.red_tech.username, exact: true }).waitFor();
    const [download] = await Promise.all([red.page.waitForEvent('download'), link.click()]);
    expect((await readFile((await download.path())!)).equals(bytes)).toBe(true);

    await red.page.getByRole('button', { name: 'Submit red results' }).click();
    await stateIs(blue.page, 'Blue evaluating');
    await blue.page.getByRole('button', { name: 'Submit blue results' }).click();
    await expect
      .poll(() => blue.page.getByRole('alert').allTextContents())
      .toContainEqual(expect.stringMatching(/detectionResult must be recorded/));
    await stateIs(blue.page, 'Blue evaluating');
    await blue.page.getByLabel('Detection result').selectOption('detected');
    await blue.page.getByLabel('Blue summary').fill('EDR alert fired within 4 s');
    await blue.page.getByRole('button', { name: 'Save blue results' }).click();
    await blue.page.getByRole('status').filter({ hasText: 'Blue results saved.' }).waitFor();
    await blue.page.getByRole('button', { name: 'Submit blue results' }).click();
    await stateIs(red.page, 'In review');

    const leads = [await signedIn('red_lead'), await signedIn('blue_lead')];
    for (const [lead, side] of [
      [leads[0]!, 'red'],
      [leads[1]!, 'blue'],
    ] as const) {
      await lead.page.goto(`/tests/${test.id}`);
      const notes = lead.page.getByLabel(`${side === 'red' ? 'Red' : 'Blue'} validation notes`);
      await notes.waitFor();
      expect(await lead.page.getByRole('button', { name: /^(Approve|Reject) (red|blue) side$/ }).count()).toBe(2);
      await notes.fill(`${side} lead: sound`);
      await lead.page.getByRole('button', { name: `Approve ${side} side` }).click();
    }
    await stateIs(red.page, 'Validated');
    await stateIs(blue.page, 'Validated');
    const timeline = await red.page.getByRole('region', { name: 'Timeline' }).getByRole('listitem').allTextContents();
    const steps = timeline.filter((entry) => entry.includes('→')).map((entry) => entry.split(' · ').pop());
    expect(steps).toEqual([
      'In review → Validated',
      'Blue evaluating → In review',
      'Red executing → Blue evaluating',
      'Draft → Red executing',
    ]);
    expect(timeline.filter((entry) => entry.endsWith('validation recorded'))).toHaveLength(2);
    expect(timeline.at(-1)).toMatch(/created$/);
    await red.page.getByText('approved: red lead: sound').waitFor();
    await red.page.screenshot({ path: `${SCREENSHOTS}test-page.png`, fullPage: true });

    const viewer = await signedIn('viewer');
    await viewer.page.goto(`/tests/${test.id}`);
    await viewer.page.getByRole('heading', { name: 'Timeline' }).waitFor();
    expect(await viewer.page.locator('main :is(input, textarea, select, button):enabled').count()).toBe(0);
    expect(await viewer.page.getByRole('main').getByRole('button').count()).toBe(0);
    expect(await viewer.page.getByLabel('Red summary').inputValue()).toBe(HOSTILE_TEST);
    for (const opened of [red, blue, ...leads, viewer]) {
      expectNoMisconduct(opened.misconduct);
      await opened.context.close();
    }
  });
});

describe('roles', () => {
  it('a viewer sees no action buttons, and an admin page opened by its URL shows "Not allowed"', async () => {
    const { context, page } = await signedIn('viewer');
    await page.goto('/board');
    await page.getByRole('heading', { name: HOSTILE_TEST }).waitFor();
    expect(
      await page
        .getByRole('region', { name: /tests$/ })
        .getByRole('button')
        .count(),
    ).toBe(0);
    expect(await page.locator('.card button').count()).toBe(0);
    expect(await page.getByRole('link', { name: 'Administration', exact: true }).count()).toBe(0);
    await page.goto('/admin/users');
    await page.getByRole('heading', { name: 'Not allowed' }).waitFor();
    expect(await page.getByRole('table').count()).toBe(0);
    await context.close();

    const admin = await signedIn('admin');
    await admin.page.getByRole('link', { name: 'Administration', exact: true }).click();
    await admin.page.getByRole('cell', { name: t.viewer.username, exact: true }).waitFor();
    await admin.context.close();
  });
});

describe('hostile content', () => {
  it('technique and test names with markup, scripts and javascript: links stay text: no dialog, no foreign request, no CSP violation', async () => {
    const { context, page, misconduct } = await signedIn('red_lead');
    await page.goto('/matrix');
    await page.getByRole('link', { name: new RegExp(`^CUSTOM-1 ${HOSTILE_TECHNIQUE.replace(/[()]/g, '\\$&')}`) }).click();
    await page.getByRole('heading', { name: `CUSTOM-1 ${HOSTILE_TECHNIQUE}` }).waitFor();
    // The description is markdown: its raw HTML is shown as text, its javascript: link keeps only its words.
    await page
      .getByRole('region', { name: 'Description' })
      .getByText('Run <script>alert(2)</script> then open or <a href="javascript:alert(4)">this</a>', { exact: true })
      .waitFor();
    await page.getByRole('cell', { name: HOSTILE_TEST }).waitFor();
    await expectNothingExecutable(page);
    await page.goto('/board');
    await page.getByRole('heading', { name: HOSTILE_TEST }).waitFor();
    await page.goto(`/tests/${hostileTestId}`);
    await page.getByRole('heading', { name: HOSTILE_TEST, level: 1 }).waitFor();
    await page.getByText(HOSTILE_DESCRIPTION, { exact: true }).waitFor();
    await expectNothingExecutable(page);
    await expectNoMisconductAndClose({ context, page, misconduct });
  });
});

describe('accessibility', () => {
  for (const scheme of ['light', 'dark'] as const) {
    it(`every main page has no serious or critical axe violation in the ${scheme} theme`, async () => {
      const anonymous = await openContext(browser, app.url, scheme);
      await anonymous.page.goto('/');
      await anonymous.page.getByRole('heading', { name: 'Sign in to Violet' }).waitFor();
      const found: Record<string, unknown> = { 'sign-in': await seriousViolations(anonymous.page) };
      await anonymous.context.close();

      const fresh = await app.createUser({ role: 'viewer', mustChangePassword: true });
      const changing = await openContext(browser, app.url, scheme);
      await signIn(changing.page, fresh.username, fresh.password);
      await changing.page.getByRole('heading', { name: 'Change your password' }).waitFor();
      found['change-password'] = await seriousViolations(changing.page);
      await changing.context.close();

      const admin = await signedIn('admin', scheme);
      const pages: [string, string, () => Promise<unknown>][] = [
        ['matrix', '/matrix', () => admin.page.getByRole('link', { name: /^T1059 / }).waitFor()],
        ['technique', '/techniques/T1059.001', () => admin.page.getByRole('heading', { name: 'Tests' }).waitFor()],
        ['board', '/board', () => admin.page.getByRole('heading', { name: HOSTILE_TEST }).waitFor()],
        ['test', `/tests/${hostileTestId}`, () => admin.page.getByRole('heading', { name: 'Timeline' }).waitFor()],
        ['users', '/admin/users', () => admin.page.getByRole('table').waitFor()],
        ['new test', '/tests/new?technique=T1059.001', () => admin.page.getByRole('heading', { name: 'New test' }).waitFor()],
      ];
      for (const [name, path, ready] of pages) {
        await admin.page.goto(path);
        await ready();
        found[name] = await seriousViolations(admin.page);
      }
      await admin.page.getByRole('button', { name: /^Notifications/ }).click();
      await admin.page.getByRole('dialog', { name: 'Notifications' }).waitFor();
      found.notifications = await seriousViolations(admin.page);
      await admin.context.close();

      const viewer = await signedIn('viewer', scheme);
      await viewer.page.goto('/admin/users');
      await viewer.page.getByRole('heading', { name: 'Not allowed' }).waitFor();
      found['not-allowed'] = await seriousViolations(viewer.page);
      await viewer.context.close();

      expect(found).toEqual(Object.fromEntries(Object.keys(found).map((page) => [page, []])));
    });
  }

  it('the theme toggle switches, is saved in the preferences, and follows the user to a new browser', async () => {
    const first = await signedIn('blue_tech', 'light');
    const background = () => first.page.evaluate(() => getComputedStyle(document.body).backgroundColor);
    expect(await background()).toBe('rgb(255, 255, 255)');
    await first.page.getByRole('button', { name: 'Switch to dark theme' }).click();
    expect(await first.page.evaluate(() => document.documentElement.dataset.theme)).toBe('dark');
    expect(await background()).toBe('rgb(17, 24, 39)');
    await expect
      .poll(async () => (await app.services.prisma.user.findUniqueOrThrow({ where: { id: t.blue_tech.id } })).preferences)
      .toMatchObject({ theme: 'dark' });
    await first.context.close();
    const second = await signedIn('blue_tech', 'light');
    await second.page.getByRole('button', { name: 'Switch to light theme' }).waitFor();
    expect(await second.page.evaluate(() => document.documentElement.dataset.theme)).toBe('dark');
    await second.context.close();
  });
});
