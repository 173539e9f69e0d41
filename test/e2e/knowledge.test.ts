import { parse } from 'graphql';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { operationCost } from '../../src/graphql/limits/rules.ts';
import { schema } from '../../src/graphql/schema.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { createTest, team, technique, type Team } from '../helpers/test-runs.ts';
import {
  expectNoMisconduct,
  expectNoMisconductAndClose,
  graphqlBodies,
  launchBrowser,
  SCREENSHOTS,
  seriousViolations,
  signingIn,
} from './browser.ts';

const BIDI = 'invoice\u202Efdp.exe';
const HOSTILE_MARKDOWN = [
  '## Steps',
  'Run <script>alert(1)</script> then [open](javascript:alert(2)) or <a href="javascript:alert(3)">this</a>.',
  '<img src=x onerror=alert(4)> ![pixel](https://evil.example/pixel.png)',
  `<p onmouseover="alert(5)">hover</p> ${BIDI}`,
  '[reference](https://attack.mitre.org/)',
].join('\n\n');

vi.setConfig({ testTimeout: 120_000 });

let app: TestApp;
let browser: Browser;
let t: Team;
let tech: { id: string; ttpId: string; name: string };
let playbookId: string;

async function gql(query: string, variables: Record<string, unknown>, token = t.admin.token) {
  const result = await app.graphql(query, variables, token);
  expect(result.errors, JSON.stringify(result.errors)).toBeUndefined();
  return result.data;
}

beforeAll(async () => {
  [app, browser] = await Promise.all([startTestApp({ SOURCE_SYNC_SCHEDULES: 'false' }), launchBrowser()]);
  t = await team(app);
  const { prisma } = app.services;
  tech = await technique(app);
  await prisma.technique.update({ where: { id: tech.id }, data: { description: HOSTILE_MARKDOWN, platforms: ['Windows'] } });
  const test = await createTest(app, t.red_lead, tech.id, { name: 'Encoded PowerShell run' });
  const rule = await prisma.detectionRule.create({
    data: { title: 'Suspicious encoded command', techniqueIds: [tech.ttpId], ttpTechniqueId: tech.ttpId, severity: 'high' },
  });
  await prisma.detectionEvaluation.create({
    data: { ruleId: rule.id, testId: test.id, triggered: true, ruleTitle: rule.title, ruleSource: 'custom' },
  });
  const asset = await prisma.detectionAsset.create({
    data: { name: 'EDR policy: script block logging', kind: 'edr_policy', platform: 'windows', ownerId: t.blue_lead.id },
  });
  await prisma.detectionAssetTechnique.create({ data: { assetId: asset.id, techniqueId: tech.id } });
  await prisma.detectionValidation.create({
    data: { assetId: asset.id, techniqueId: tech.id, validUntil: new Date(Date.now() + 30 * 86_400_000), notes: 'manual check' },
  });
  const countermeasure = await prisma.defensiveTechnique.create({
    data: { d3fendId: 'D3-PSA', name: 'Process Spawn Analysis', tactic: 'Detect' },
  });
  await prisma.countermeasureMapping.create({ data: { defensiveTechniqueId: countermeasure.id, attackId: tech.ttpId } });
  const framework = await prisma.complianceFramework.create({ data: { key: 'nist_800_53', name: 'NIST 800-53', version: 'rev5' } });
  const control = await prisma.complianceControl.create({
    data: { frameworkId: framework.id, controlId: 'SI-04', name: 'System Monitoring', family: 'System and Information Integrity' },
  });
  for (const mappingType of ['mitigates', 'detects']) {
    await prisma.complianceMapping.create({ data: { controlId: control.id, attackId: tech.ttpId, mappingType } });
  }
  await prisma.revalidationEntry.create({
    data: { techniqueId: tech.id, reason: 'infrastructure_change', detail: 'EDR agent 7.2 upgrade on windows', since: new Date() },
  });
  await gql('mutation { computeRisk { profiles } }', {});

  const created = await gql(
    'mutation ($input: CreatePlaybookInput!) { createPlaybook(input: $input) { id } }',
    {
      input: { techniqueId: tech.id, type: 'detection', title: 'Hunt encoded commands', content: 'First version: **check 4104 events**.' },
    },
    t.blue_lead.token,
  );
  playbookId = created.createPlaybook.id;
  await gql(
    'mutation ($id: UUID!, $input: UpdatePlaybookInput!) { updatePlaybook(id: $id, input: $input) { version } }',
    { id: playbookId, input: { version: 1, content: HOSTILE_MARKDOWN } },
    t.blue_lead.token,
  );
  await gql(
    'mutation ($input: CreateLessonInput!) { createLesson(input: $input) { id } }',
    {
      input: {
        techniqueId: tech.id,
        title: 'Alerts arrived late',
        whatHappened: HOSTILE_MARKDOWN,
        rootCause: 'Queue *backlog*',
        severity: 'high',
      },
    },
    t.red_lead.token,
  );
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await app?.close();
});

const signedIn = signingIn(() => ({ browser, url: app.url, team: t }));

const section = (page: Page, name: string) => page.getByRole('region', { name, exact: true });

/** The hostile markdown rendered inert: its text is there, nothing of it can run, load or lead to a script. */
async function expectInert(page: Page, where: ReturnType<Page['getByRole']>) {
  await where.getByRole('heading', { name: 'Steps' }).waitFor();
  await where.getByRole('link', { name: 'reference' }).waitFor();
  expect(await where.getByRole('link', { name: 'reference' }).getAttribute('rel')).toBe('noopener noreferrer');
  expect(await where.getByRole('link', { name: 'Image: pixel' }).getAttribute('href')).toBe('https://evil.example/pixel.png');
  expect(await where.textContent()).toContain('invoice[U+202E]fdp.exe');
  expect(await page.locator('main :is(script, img, iframe, [onerror], [onmouseover], [style])').count()).toBe(0);
  const hrefs = await page.locator('main a[href]').evaluateAll((links) => links.map((link) => link.getAttribute('href') ?? ''));
  expect(hrefs.filter((href) => !/^(https?:|mailto:|\/)/.test(href))).toEqual([]);
}

describe('the knowledge base', () => {
  it('a lead finds a playbook by search, views an earlier version and restores it, and the content changes; a stale edit is refused in words', async () => {
    const { context, page, misconduct } = await signedIn('blue_lead');
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Knowledge' }).click();
    await page.getByRole('heading', { name: 'Knowledge base' }).waitFor();
    const filters = page.getByRole('search', { name: 'Knowledge' });
    await filters.getByLabel('Search').fill('encoded');
    await filters.getByRole('button', { name: 'Search' }).click();
    await expect.poll(() => page.url()).toContain('q=encoded');
    await page.getByLabel('Type').selectOption('detection');
    await section(page, 'Playbooks').getByRole('link', { name: 'Hunt encoded commands' }).click();
    await page.getByRole('heading', { name: 'Hunt encoded commands', level: 1 }).waitFor();
    const content = section(page, 'Content');
    await expectInert(page, content);
    expect(await page.getByTestId('playbook-version').textContent()).toBe('2');

    await page.getByRole('button', { name: 'View version 1' }).click();
    await page.getByRole('region', { name: 'Content of version 1' }).getByText('check 4104 events').waitFor();
    await page.getByRole('button', { name: 'Restore version 1' }).click();
    await page.getByRole('status').filter({ hasText: 'Version 1 restored as version 3.' }).waitFor();
    await content.getByText('check 4104 events').waitFor();
    expect(await content.getByRole('heading', { name: 'Steps' }).count()).toBe(0);
    await expect.poll(() => page.getByTestId('playbook-version').textContent()).toBe('3 (restored from version 1)');
    expect(await page.getByRole('button', { name: /^View version \d$/ }).count()).toBe(2);

    // Someone else changes it while the form is open: the save is refused in words; Cancel shows the current one.
    await page.getByRole('button', { name: 'Edit playbook' }).click();
    await gql(
      'mutation ($id: UUID!, $input: UpdatePlaybookInput!) { updatePlaybook(id: $id, input: $input) { version } }',
      { id: playbookId, input: { version: 3, tags: ['raced'] } },
      t.red_lead.token,
    );
    await page.getByLabel('Content (markdown)').fill('Edited: *look for -enc*');
    await page.getByRole('button', { name: 'Save playbook' }).click();
    await page.getByRole('alert').filter({ hasText: 'Cancel to see the current version' }).waitFor();
    await page.getByRole('button', { name: 'Cancel' }).click();
    await expect.poll(() => page.getByTestId('playbook-version').textContent()).toBe('4');
    await page.getByRole('button', { name: 'Edit playbook' }).click();
    expect(await page.getByLabel('Tags (comma separated)').inputValue()).toBe('raced');
    await page.getByLabel('Content (markdown)').fill('Edited: *look for -enc*');
    await page.getByRole('button', { name: 'Save playbook' }).click();
    await page.getByRole('status').filter({ hasText: 'Playbook saved.' }).waitFor();
    await content.getByText('look for -enc').waitFor();
    expect((await app.services.prisma.playbook.findUniqueOrThrow({ where: { id: playbookId } })).version).toBe(5);
    expectNoMisconduct(misconduct);
    await context.close();
  });

  it('a lead records a lesson (an unknown technique is refused beside its field) and edits it; a viewer may only read', async () => {
    const { context, page, misconduct } = await signedIn('red_lead');
    await page.goto('/knowledge');
    await page.getByRole('link', { name: 'New lesson' }).click();
    await page.getByRole('heading', { name: 'New lesson', level: 1 }).waitFor();
    await page.getByLabel('Technique (ATT&CK id)').fill('T0000');
    await page.getByLabel('Title').fill('Detections need tuning');
    await page.getByLabel('Severity').selectOption('low');
    await page.getByLabel('What happened (markdown)').fill('The rule fired **twice**.');
    await page.getByLabel('Root cause (markdown)').fill('Duplicate pipelines');
    await page.getByRole('button', { name: 'Record lesson' }).click();
    await expect.poll(() => page.locator('#lesson-technique-error').textContent()).toContain('No technique T0000');
    await page.getByLabel('Technique (ATT&CK id)').fill(tech.ttpId);
    await page.getByRole('button', { name: 'Record lesson' }).click();
    await page.getByRole('heading', { name: 'Detections need tuning', level: 1 }).waitFor();
    expect(await page.locator('main strong', { hasText: 'twice' }).count()).toBe(1);
    await page.getByRole('button', { name: 'Edit lesson' }).click();
    await page.getByLabel('Severity').selectOption('critical');
    await page.getByRole('button', { name: 'Save lesson' }).click();
    await page.getByRole('status').filter({ hasText: 'Lesson saved.' }).waitFor();
    await page.getByText('Critical', { exact: true }).waitFor();
    const lesson = await app.services.prisma.lessonLearned.findFirstOrThrow({ where: { title: 'Detections need tuning' } });
    expect(lesson).toMatchObject({ severity: 'critical', techniqueId: tech.id, createdById: t.red_lead.id });
    expectNoMisconduct(misconduct);
    await context.close();

    const viewer = await signedIn('viewer');
    await viewer.page.goto('/knowledge');
    await viewer.page.getByLabel('Severity').selectOption('critical');
    await section(viewer.page, 'Lessons learned').getByRole('link', { name: 'Detections need tuning' }).click();
    await viewer.page.getByRole('heading', { name: 'Detections need tuning', level: 1 }).waitFor();
    expect(await viewer.page.getByRole('main').getByRole('button').count()).toBe(0);
    await viewer.page.goto(`/knowledge/playbooks/${playbookId}`);
    await viewer.page.getByRole('heading', { name: 'Earlier versions' }).waitFor();
    expect(await viewer.page.getByRole('button', { name: /^(Restore|Edit)/ }).count()).toBe(0);
    await viewer.page.goto('/knowledge/lessons/new');
    await viewer.page.getByRole('heading', { name: 'Not allowed' }).waitFor();
    await viewer.context.close();
  });
});

describe('a new playbook', () => {
  it('a lead writes one with a live markdown preview (hostile content inert), an unknown technique refused beside its field, and lands on it', async () => {
    const { context, page, misconduct } = await signedIn('red_lead');
    await page.goto('/knowledge');
    await page.getByRole('link', { name: 'New playbook' }).click();
    await page.getByRole('heading', { name: 'New playbook', level: 1 }).waitFor();
    expect(await page.getByLabel('Technique (ATT&CK id)').inputValue()).toBe('');
    await page.goto(`/techniques/${tech.ttpId}`);
    await page.getByRole('link', { name: 'Write a playbook' }).click();
    await page.getByRole('heading', { name: 'New playbook', level: 1 }).waitFor();
    expect(await page.getByLabel('Technique (ATT&CK id)').inputValue()).toBe(tech.ttpId);
    await page.getByLabel('Technique (ATT&CK id)').fill('T0000');
    await page.getByLabel('Type').selectOption('hunting');
    await page.getByLabel('Title').fill('Hunt encoded launches');
    await page.getByLabel('Tags (comma separated)').fill('powershell, hunt, powershell');
    await page.getByLabel('Content (markdown)').fill(HOSTILE_MARKDOWN);
    const preview = section(page, 'Preview');
    await expectInert(page, preview);
    await page.getByRole('button', { name: 'Create playbook' }).click();
    await expect.poll(() => page.locator('#new-playbook-technique-error').textContent()).toContain('No technique T0000');
    expect(await page.getByLabel('Technique (ATT&CK id)').getAttribute('aria-describedby')).toBe('new-playbook-technique-error');
    await page.getByLabel('Technique (ATT&CK id)').fill(tech.ttpId);
    await page.getByRole('button', { name: 'Create playbook' }).click();
    await page.getByRole('heading', { name: 'Hunt encoded launches', level: 1 }).waitFor();
    await expectInert(page, section(page, 'Content'));
    expect(await page.getByTestId('playbook-version').textContent()).toBe('1');
    const stored = await app.services.prisma.playbook.findFirstOrThrow({ where: { title: 'Hunt encoded launches' } });
    expect(stored).toMatchObject({ type: 'hunting', techniqueId: tech.id, tags: ['powershell', 'hunt'], content: HOSTILE_MARKDOWN });
    expect(page.url()).toContain(`/knowledge/playbooks/${stored.id}`);
    await expectNoMisconductAndClose({ context, page, misconduct });

    const viewer = await signedIn('viewer');
    await viewer.page.goto('/knowledge');
    await viewer.page.getByRole('heading', { name: 'Knowledge base' }).waitFor();
    expect(await viewer.page.getByRole('link', { name: 'New playbook' }).count()).toBe(0);
    await viewer.page.goto('/knowledge/playbooks/new');
    await viewer.page.getByRole('heading', { name: 'Not allowed' }).waitFor();
    await viewer.context.close();
  });
});

describe('the technique page', () => {
  it('shows every section with its data in one request, the markdown description inert', async () => {
    const { context, page, misconduct } = await signedIn('blue_lead');
    const requests = graphqlBodies(page);
    await page.goto(`/techniques/${tech.ttpId}`);
    await page.getByRole('heading', { name: `${tech.ttpId} ${tech.name}`, level: 1 }).waitFor();
    const detail = requests.filter((body) => body.includes('TechniqueDetail'));
    expect(detail).toHaveLength(1);
    const { query, variables } = JSON.parse(detail[0]!) as { query: string; variables: Record<string, unknown> };
    const cost = operationCost(schema, parse(query), { variables });
    console.info(`technique page request costs ${cost}`);
    expect(cost).toBeLessThan(app.services.config.GRAPHQL_MAX_COST / 10);
    await expectInert(page, section(page, 'Description'));
    await section(page, 'Risk and score')
      .getByText(/Score \d+(\.\d)? \/ 100/)
      .waitFor();
    await section(page, 'Risk and score')
      .getByRole('rowheader', { name: /^coverage/ })
      .waitFor();
    await section(page, 'Revalidation').getByText('EDR agent 7.2 upgrade on windows').waitFor();
    await section(page, 'Tests').getByRole('link', { name: 'Encoded PowerShell run' }).waitFor();
    const rules = section(page, 'Detection rules');
    await rules.getByRole('cell', { name: 'Suspicious encoded command' }).waitFor();
    await rules.getByText('Triggered 1 of 1').waitFor();
    const confidence = section(page, 'Detection confidence');
    await confidence.getByRole('cell', { name: 'EDR policy: script block logging' }).waitFor();
    expect(await page.getByTestId('detection-confidence').textContent()).toMatch(/^\d+ \/ 100$/);
    await confidence.getByRole('cell', { name: /^fresh/ }).waitFor();
    await section(page, 'Countermeasures').getByRole('cell', { name: 'Process Spawn Analysis' }).waitFor();
    const controls = section(page, 'Compliance controls');
    await controls.getByRole('cell', { name: 'System Monitoring' }).waitFor();
    // One row per control, its mapping types together.
    expect(await controls.getByRole('row').allInnerTexts()).toEqual([
      expect.stringMatching(/^Framework\s+Control\s+Name\s+Mapping$/),
      expect.stringMatching(/^NIST 800-53\s+SI-04\s+System Monitoring\s+detects, mitigates$/),
    ]);
    await section(page, 'Playbooks').getByRole('link', { name: 'Hunt encoded commands' }).waitFor();
    await section(page, 'Lessons learned').getByRole('link', { name: 'Alerts arrived late' }).waitFor();
    await page.screenshot({ path: `${SCREENSHOTS}technique-page.png`, fullPage: true });
    expectNoMisconduct(misconduct);
    await context.close();

    // The queue is the blue leads': a red lead's page leaves it out rather than failing.
    const red = await signedIn('red_lead');
    await red.page.goto(`/techniques/${tech.ttpId}`);
    await section(red.page, 'Countermeasures').waitFor();
    expect(await section(red.page, 'Revalidation').count()).toBe(0);
    await red.context.close();
  });
});

describe('hostile markdown', () => {
  it('in a lesson stays inert: no dialog, no foreign request, no CSP violation, no error', async () => {
    const { context, page, misconduct } = await signedIn('viewer');
    await page.goto('/knowledge');
    await page.getByRole('link', { name: 'Alerts arrived late' }).click();
    await page.getByRole('heading', { name: 'Alerts arrived late', level: 1 }).waitFor();
    await expectInert(page, page.getByRole('main'));
    await page.getByText('hover').hover();
    await expectNoMisconductAndClose({ context, page, misconduct });
  });
});

describe('accessibility', () => {
  for (const scheme of ['light', 'dark'] as const) {
    it(`the knowledge pages and the technique page have no serious or critical axe violation in the ${scheme} theme`, async () => {
      const lead = await signedIn('blue_lead', scheme);
      const lesson = await app.services.prisma.lessonLearned.findFirstOrThrow({ where: { title: 'Alerts arrived late' } });
      const pages: [string, string, () => Promise<unknown>][] = [
        ['knowledge', '/knowledge', () => lead.page.getByRole('link', { name: 'Hunt encoded commands' }).waitFor()],
        ['playbook', `/knowledge/playbooks/${playbookId}`, () => lead.page.getByRole('heading', { name: 'Earlier versions' }).waitFor()],
        ['lesson', `/knowledge/lessons/${lesson.id}`, () => lead.page.getByRole('heading', { name: 'Root cause' }).waitFor()],
        ['new-lesson', '/knowledge/lessons/new', () => lead.page.getByLabel('Root cause (markdown)').waitFor()],
        ['technique', `/techniques/${tech.ttpId}`, () => lead.page.getByRole('heading', { name: 'Countermeasures' }).waitFor()],
      ];
      const found: Record<string, unknown> = {};
      for (const [name, path, ready] of pages) {
        await lead.page.goto(path);
        await ready();
        found[name] = await seriousViolations(lead.page);
      }
      await lead.page.goto(`/knowledge/playbooks/${playbookId}`);
      await lead.page.getByRole('button', { name: 'Edit playbook' }).click();
      await lead.page.getByLabel('Content (markdown)').waitFor();
      found['playbook-edit'] = await seriousViolations(lead.page);
      await lead.page.goto('/knowledge/playbooks/new');
      await lead.page.getByLabel('Content (markdown)').fill(HOSTILE_MARKDOWN);
      await section(lead.page, 'Preview').getByRole('heading', { name: 'Steps' }).waitFor();
      found['new-playbook'] = await seriousViolations(lead.page);
      expectNoMisconduct(lead.misconduct);
      await lead.context.close();
      expect(found).toEqual(Object.fromEntries(Object.keys(found).map((page) => [page, []])));
    });
  }
});
