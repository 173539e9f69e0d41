import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { TestApp } from '../helpers/app.ts';
import type { FileServer } from '../helpers/file-server.ts';
import { syncTtp } from '../../src/modules/data-sources/attack-sync.ts';
import { advance, createTest, type Team } from '../helpers/test-runs.ts';
import {
  closeAll,
  expectNoMisconduct,
  graphqlBodies,
  openContext,
  SCREENSHOTS,
  seriousViolations,
  signIn,
  signingIn,
  startWithAttackBundle,
  techniqueIdOf,
} from './browser.ts';

const BIDI = '\u202Egnp.exe\u202C';
const HOSTILE_ACTOR = `<img src=x onerror=alert(1)> APT ${BIDI}`;
const HOSTILE_TEST = `<script>fetch("https://evil.example/")</script> lateral ${BIDI}`;
const HOSTILE_STEPS = 'Patch <script>alert(2)</script> then [open](javascript:alert(3)) <a href="javascript:alert(4)">x</a>';
const HOSTILE_KEY = '<img src=x onerror=alert(5)> key';

vi.setConfig({ testTimeout: 120_000 });

let app: TestApp;
let files: FileServer;
let browser: Browser;
let t: Team;
let actorId: string;
let hostileTestId: string;
let decidedTestId: string;
let runningTestId: string;

beforeAll(async () => {
  ({ files, app, browser, t } = await startWithAttackBundle());
  // The service itself: a loaded machine can take the sync past the GraphQL deadline, which the pages must keep.
  await syncTtp(app.services, { userId: t.admin.id, username: t.admin.username });

  const credentialDumping = await techniqueIdOf(app, 'T1003');
  const scripting = await techniqueIdOf(app, 'T1059');
  const actor = await app.services.prisma.threatActor.create({
    data: {
      stixId: `intrusion-set--${randomBytes(8).toString('hex')}`,
      externalId: 'G9999',
      name: HOSTILE_ACTOR,
      description: HOSTILE_STEPS,
    },
  });
  actorId = actor.id;
  for (const id of [credentialDumping, scripting, await techniqueIdOf(app, 'T1059.001')])
    await app.services.prisma.threatActorTechnique.create({
      data: { stixId: `relationship--${randomBytes(8).toString('hex')}`, actorId, techniqueId: id },
    });

  // Two snapshots around a change of T1003, and a fresh detection validation of T1003 (confidence 80).
  const snapshot = async (name: string) =>
    expect(
      (await app.graphql('mutation ($name: String) { createSnapshot(input: { name: $name }) { id } }', { name }, t.red_lead.token)).errors,
    ).toBeUndefined();
  await snapshot('Before');
  await app.services.prisma.technique.update({ where: { id: credentialDumping }, data: { statusGlobal: 'validated' } });
  await snapshot('After');
  await app.services.prisma.detectionValidation.create({
    data: { techniqueId: credentialDumping, validUntil: new Date(Date.now() + 365 * 86_400_000) },
  });

  hostileTestId = (await createTest(app, t.red_lead, credentialDumping, { name: HOSTILE_TEST, description: HOSTILE_STEPS })).id;
  runningTestId = (await createTest(app, t.red_lead, scripting, { name: 'Timed run' })).id;
  await advance(app, t, runningTestId, 'red_executing');
  decidedTestId = (await createTest(app, t.red_lead, scripting, { name: 'Decided run' })).id;
  await advance(app, t, decidedTestId, 'validated');
}, 180_000);

afterAll(() => closeAll(browser, app, files));

const signedIn = signingIn(() => ({ browser, url: app.url, team: t }));

const matrixCell = (page: Page, ttpId: string) =>
  page
    .getByRole('region', { name: 'ATT&CK Enterprise matrix' })
    .getByRole('link', { name: new RegExp(`^${ttpId.replace('.', '\\.')} `) })
    .first();

describe('profile', () => {
  it('opens from the user menu; an API key is created, its value shown once and copied, then revoked', async () => {
    const { context, page, misconduct } = await signedIn('red_lead');
    await context.grantPermissions(['clipboard-read', 'clipboard-write']);
    await page.getByRole('button', { name: t.red_lead.username }).click();
    await page.getByRole('menuitem', { name: 'Profile and API keys' }).click();
    await page.getByRole('heading', { name: 'Your profile' }).waitFor();
    expect(await page.getByText(t.red_lead.username, { exact: true }).first().isVisible()).toBe(true);

    await page.getByLabel('Key name').fill(HOSTILE_KEY);
    await page.getByLabel('Scope').selectOption('read');
    await page.getByRole('button', { name: 'Create API key' }).click();
    const secret = page.getByTestId('new-api-key');
    await secret.waitFor();
    const key = (await secret.textContent()) ?? '';
    expect(key).toMatch(/^svc_[0-9a-f]{64}$/);
    await page.getByRole('button', { name: 'Copy the key' }).click();
    await page.getByRole('status').filter({ hasText: 'Copied to the clipboard.' }).waitFor();
    await page.screenshot({ path: `${SCREENSHOTS}profile.png`, fullPage: true });
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(key);
    const created = await app.services.prisma.apiKey.findFirstOrThrow({ where: { userId: t.red_lead.id, name: HOSTILE_KEY } });
    expect(created.revokedAt).toBeNull();

    await page.reload();
    await page.getByRole('heading', { name: 'API keys' }).waitFor();
    expect(await page.getByTestId('new-api-key').count()).toBe(0);
    const row = page.getByRole('row').filter({ hasText: HOSTILE_KEY });
    expect(await row.getByText(created.prefix).isVisible()).toBe(true);
    await page.getByRole('button', { name: `Revoke ${HOSTILE_KEY}` }).click();
    await row.getByText(/^Revoked /).waitFor();
    expect((await app.services.prisma.apiKey.findUniqueOrThrow({ where: { id: created.id } })).revokedAt).not.toBeNull();
    expectNoMisconduct(misconduct);
    await context.close();
  });

  it('saves preferences and changes the password, a mismatch refused in words', async () => {
    const user = await app.createUser({ role: 'blue_tech' });
    const { context, page, misconduct } = await openContext(browser, app.url);
    await signIn(page, user.username, user.password);
    await page.getByRole('navigation', { name: 'Main' }).waitFor();
    await page.goto('/profile');
    await page.getByLabel('Theme', { exact: true }).selectOption('dark');
    const toggle = page.getByRole('checkbox', { name: 'Test ready for blue: in the app' });
    await toggle.uncheck();
    await page.getByRole('button', { name: 'Save preferences' }).click();
    await page.getByRole('status').filter({ hasText: 'Preferences saved.' }).waitFor();
    expect(await page.evaluate(() => document.documentElement.dataset.theme)).toBe('dark');
    await page.getByRole('button', { name: 'Switch to light theme' }).waitFor();
    const saved = await app.services.prisma.user.findUniqueOrThrow({ where: { id: user.id } });
    expect(saved.preferences).toMatchObject({ theme: 'dark', in_app_test_ready_for_blue: false });

    await page.getByLabel('Current password').fill(user.password);
    await page.getByLabel('New password', { exact: true }).fill('a much better passphrase');
    await page.getByLabel('Confirm the new password').fill('something else entirely');
    await page.getByRole('button', { name: 'Change password' }).click();
    await page.getByRole('alert').filter({ hasText: 'differ' }).waitFor();
    await page.getByLabel('Confirm the new password').fill('a much better passphrase');
    await page.getByRole('button', { name: 'Change password' }).click();
    await page.getByRole('status').filter({ hasText: 'Password changed.' }).waitFor();
    expect((await app.login(user.username, 'a much better passphrase')).length).toBeGreaterThan(20);
    expectNoMisconduct(misconduct);
    await context.close();
  });
});

describe('search', () => {
  it('finds a technique by id and by name and a test, from the header, with hostile names shown as text', async () => {
    const { context, page, misconduct } = await signedIn('viewer');
    const search = async (text: string) => {
      await page.getByRole('combobox', { name: 'Search techniques, tests and playbooks' }).fill(text);
      await page.keyboard.press('Enter');
      await page.getByRole('heading', { name: `Search results for “${text}”` }).waitFor();
    };
    await search('T1003');
    const techniques = page.getByRole('region', { name: /^Techniques/ });
    await techniques.getByRole('link').first().waitFor();
    expect(await techniques.getByRole('link').first().textContent()).toBe('T1003 OS Credential Dumping');
    expect(page.url()).toContain('/search?q=T1003');

    await search('credential dump');
    await techniques.getByRole('link', { name: 'T1003 OS Credential Dumping' }).waitFor();

    await search('lateral');
    const tests = page.getByRole('region', { name: /^Tests/ });
    await tests.getByRole('link', { name: HOSTILE_TEST }).click();
    await page.getByRole('heading', { name: HOSTILE_TEST }).waitFor();
    expect(page.url()).toContain(`/tests/${hostileTestId}`);
    expectNoMisconduct(misconduct);
    await context.close();
  });
});

describe('matrix overlays', () => {
  it('outlines an actor’s techniques with its score, marks the cells a snapshot comparison changed, colours by confidence', async () => {
    const { context, page, misconduct } = await signedIn('viewer');
    await page.goto('about:blank');
    const heatmaps = graphqlBodies(page);
    await page.goto('/matrix');
    await matrixCell(page, 'T1003').waitFor();

    await page.getByLabel('Threat actor').selectOption(actorId);
    await expect.poll(() => page.url()).toContain(`actor=${actorId}`);
    await page.getByText(/G9999 .*: 3 techniques, coverage score/).waitFor();
    expect(await page.getByText(/G9999 .*: 3 techniques/).textContent()).toContain(HOSTILE_ACTOR);
    await expect.poll(() => matrixCell(page, 'T1003').getAttribute('class')).toContain('in-actor');
    expect(await matrixCell(page, 'T1059').getAttribute('class')).toContain('in-actor');
    expect(await matrixCell(page, 'T1003').textContent()).toContain('actor');
    expect(await matrixCell(page, 'T1087').getAttribute('class')).not.toContain('in-actor');
    const fold = page.getByRole('button', { name: /^Show \d+ sub-techniques of T1059 \(1 actor\)$/ });
    await fold.click();
    expect(await matrixCell(page, 'T1059.001').getAttribute('class')).toContain('in-actor');

    const before = page.getByLabel('Compare snapshot');
    await before.selectOption((await before.locator('option', { hasText: / Before$/ }).getAttribute('value')) ?? '');
    await page.getByText(/1 technique changed status between the snapshots \(1 improved, 0 regressed\)/).waitFor();
    await expect.poll(() => matrixCell(page, 'T1003').getAttribute('class')).toContain('changed');
    expect(await matrixCell(page, 'T1003').textContent()).toContain('changed: Not evaluated → Validated');
    expect(await matrixCell(page, 'T1059').getAttribute('class')).not.toContain('changed');
    await page.screenshot({ path: `${SCREENSHOTS}matrix-overlays.png` });

    await page.getByLabel('Colour by').selectOption('confidence');
    await page.getByRole('list', { name: 'Legend' }).getByText('Confidence 75–100').waitFor();
    await expect.poll(() => matrixCell(page, 'T1003').textContent()).toContain('confidence 80');
    expect(await matrixCell(page, 'T1003').locator('.swatch').getAttribute('class')).toContain('confidence-3');
    expect(await matrixCell(page, 'T1059').textContent()).toContain('confidence 0');
    expect(heatmaps.filter((body) => body.includes('heatmap'))).toHaveLength(1);
    expectNoMisconduct(misconduct);
    await context.close();
  });

  it('exports the Navigator layer as a JSON file', async () => {
    const { context, page, misconduct } = await signedIn('viewer');
    await page.goto('/matrix?platform=Linux');
    await matrixCell(page, 'T1059').waitFor();
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Export Navigator layer' }).click(),
    ]);
    expect(download.suggestedFilename()).toBe('violet-layer-Linux.json');
    const layer = JSON.parse(await readFile((await download.path())!, 'utf8'));
    expect(layer).toMatchObject({ domain: 'enterprise-attack' });
    expect(Array.isArray(layer.techniques)).toBe(true);
    expect(layer.techniques.some((technique: { techniqueID: string }) => technique.techniqueID === 'T1059')).toBe(true);
    expectNoMisconduct(misconduct);
    await context.close();
  });
});

describe('test page extras', () => {
  it('pauses and resumes the timer, the elapsed time shown', async () => {
    const { context, page, misconduct } = await signedIn('red_tech');
    await page.goto(`/tests/${runningTestId}`);
    await page.getByRole('heading', { name: 'Working time' }).waitFor();
    expect(await page.getByTestId('elapsed').textContent()).toMatch(/^\d+:\d\d:\d\d$/);
    expect(await page.getByTestId('timer-state').textContent()).toBe('running');
    await page.getByRole('button', { name: 'Pause timer' }).click();
    await expect.poll(() => page.getByTestId('timer-state').textContent()).toBe('paused');
    expect((await app.services.prisma.test.findUniqueOrThrow({ where: { id: runningTestId } })).timerStartedAt).toBeNull();
    await page.getByRole('button', { name: 'Resume timer' }).click();
    await expect.poll(() => page.getByTestId('timer-state').textContent()).toBe('running');
    expect((await app.services.prisma.test.findUniqueOrThrow({ where: { id: runningTestId } })).timerStartedAt).not.toBeNull();
    expectNoMisconduct(misconduct);
    await context.close();
  });

  it('a lead saves the remediation and creates a retest, linked both ways in the chain', async () => {
    const { context, page, misconduct } = await signedIn('red_lead');
    await page.goto(`/tests/${decidedTestId}`);
    await page.getByRole('heading', { name: 'Remediation' }).waitFor();
    await page.getByLabel('Remediation status').selectOption('in_progress');
    await page.getByLabel('Remediation steps').fill(HOSTILE_STEPS);
    await page.getByRole('button', { name: 'Save remediation' }).click();
    await page.getByRole('status').filter({ hasText: 'Remediation saved.' }).waitFor();
    await expect.poll(() => page.getByTestId('remediation-status').textContent()).toBe('In progress');
    expect(await app.services.prisma.test.findUniqueOrThrow({ where: { id: decidedTestId } })).toMatchObject({
      remediationStatus: 'in_progress',
      remediationSteps: HOSTILE_STEPS,
    });

    await page.getByRole('button', { name: 'Create retest' }).click();
    await expect.poll(() => page.url()).not.toContain(decidedTestId);
    const retestId = page.url().split('/tests/')[1];
    expect((await app.services.prisma.test.findUniqueOrThrow({ where: { id: retestId } })).retestOfId).toBe(decidedTestId);
    const chain = page.getByRole('region', { name: 'Retest chain' });
    await chain.getByRole('link', { name: 'First run: Decided run' }).click();
    await expect.poll(() => page.url()).toContain(decidedTestId);
    await page.getByRole('region', { name: 'Retest chain' }).getByRole('link', { name: 'Retest 1: Decided run' }).waitFor();
    expectNoMisconduct(misconduct);
    await context.close();
  });

  it('a viewer sees the timer, chain and remediation without controls', async () => {
    const { context, page, misconduct } = await signedIn('viewer');
    await page.goto(`/tests/${runningTestId}`);
    await page.getByRole('heading', { name: 'Working time' }).waitFor();
    expect(await page.getByRole('button', { name: /timer|retest|remediation/i }).count()).toBe(0);
    expectNoMisconduct(misconduct);
    await context.close();
  });
});

describe('accessibility and hostile content', () => {
  for (const scheme of ['light', 'dark'] as const) {
    it(`profile, search, test and matrix (every overlay) pages have no serious axe violation in the ${scheme} theme, hostile texts inert`, async () => {
      const { context, page, misconduct } = await signedIn('admin', scheme);
      const found: Record<string, unknown> = {};
      await page.goto('/profile');
      await page.getByLabel('Key name').fill(HOSTILE_KEY);
      await page.getByRole('button', { name: 'Create API key' }).click();
      await page.getByTestId('new-api-key').waitFor();
      found.profile = await seriousViolations(page);
      await page.goto(`/search?q=${encodeURIComponent('lateral')}`);
      await page.getByRole('link', { name: HOSTILE_TEST }).waitFor();
      found.search = await seriousViolations(page);
      await page.goto(`/tests/${decidedTestId}`);
      await page.getByRole('heading', { name: 'Retest chain' }).waitFor();
      found.test = await seriousViolations(page);
      const [after, before] = await app.services.prisma.snapshot.findMany({ orderBy: { createdAt: 'desc' }, take: 2 });
      await page.goto(`/matrix?colour=confidence&actor=${actorId}&before=${before.id}&after=${after.id}`);
      await page.getByText(/G9999 .*: 3 techniques/).waitFor();
      await page.getByText(/1 technique changed status/).waitFor();
      await expect.poll(() => matrixCell(page, 'T1003').textContent()).toContain('confidence 80');
      found.matrix = await seriousViolations(page);
      expect(found).toEqual({ profile: [], search: [], test: [], matrix: [] });
      expect(await page.locator('img[src="x"]').count()).toBe(0);
      expectNoMisconduct(misconduct);
      await context.close();
    });
  }
});
