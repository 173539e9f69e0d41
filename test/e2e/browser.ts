import { mkdirSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import axe from 'axe-core';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { expect } from 'vitest';
import { startTestApp, TEST_PASSWORD, type TestApp } from '../helpers/app.ts';
import { setSourceLocation } from '../helpers/data-sources.ts';
import { FILE_SERVER_ENV, serveFiles } from '../helpers/file-server.ts';
import { referenceData } from '../helpers/reference-data.ts';
import { type Team, team } from '../helpers/test-runs.ts';
import { launchBrowser, type Misconduct, openContext, signIn } from './chromium.ts';

export { CHROMIUM, launchBrowser, type Misconduct, openContext, signIn } from './chromium.ts';

/**
 * Where the tests that illustrate the documentation save their screenshots: docs/screenshots with
 * UPDATE_SCREENSHOTS=1 (`npm run screenshots`), else a scratch directory, so that a test run leaves the checkout as
 * it was.
 */
export const SCREENSHOTS = process.env.UPDATE_SCREENSHOTS
  ? new URL('../../docs/screenshots/', import.meta.url).pathname
  : `${join(tmpdir(), 'violet-screenshots')}/`;
mkdirSync(SCREENSHOTS, { recursive: true });

/** The rules checked: WCAG 2.1 A and AA, and axe's best practices. */
const AXE_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'];

/**
 * axe-core on the page as it is: the serious and critical violations, with the elements involved.
 *
 * axe runs in the page itself, injected when the page does not hold it yet. The app has no frames, so one run of the
 * top document sees everything; @axe-core/playwright's frame-by-frame protocol (a partial run per frame, finished in
 * a page of its own) took twice as long for the same answer.
 */
export async function seriousViolations(page: Page) {
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(axe.source);
  return page.evaluate(async (tags) => {
    const { violations } = await (window as unknown as { axe: typeof axe }).axe.run(document, {
      runOnly: { type: 'tag', values: tags },
      // Only the violations are reported in full (the passes' details took most of the time).
      resultTypes: ['violations'],
    });
    return violations
      .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
      .map((violation) => ({ id: violation.id, nodes: violation.nodes.map((node) => node.target.join(' ')).slice(0, 5) }));
  }, AXE_TAGS);
}

export function expectNoMisconduct(misconduct: Misconduct) {
  expect(misconduct).toEqual({ dialogs: [], foreignRequests: [], cspViolations: [], errors: [] });
}

/** Ends a context's visit: a moment for late errors and requests to show, then no misconduct, and the context closed. */
export async function expectNoMisconductAndClose({
  context,
  page,
  misconduct,
}: {
  context: BrowserContext;
  page: Page;
  misconduct: Misconduct;
}) {
  await page.waitForTimeout(300);
  expectNoMisconduct(misconduct);
  await context.close();
}

/**
 * `signedIn(role, colorScheme)` for a test file: a new context with that member of the team signed in, the app's
 * main navigation shown. `world` is read at each call, as the file's `beforeAll` sets the browser, app and team.
 */
export function signingIn(world: () => { browser: Browser; url: string; team: Team }) {
  return async (role: keyof Team, colorScheme: 'light' | 'dark' = 'light') => {
    const { browser, url, team } = world();
    const opened = await openContext(browser, url, colorScheme);
    await signIn(opened.page, team[role].username, TEST_PASSWORD);
    await opened.page.getByRole('navigation', { name: 'Main' }).waitFor();
    return opened;
  };
}

/** The bodies of the GraphQL requests `page` sends from now on, filled in as they go: a view should make one. */
export function graphqlBodies(page: Page): string[] {
  const bodies: string[] = [];
  page.on('request', (request) => request.url().endsWith('/graphql') && bodies.push(request.postData() ?? ''));
  return bodies;
}

/** Nothing of a hostile input became a script, an image or a `javascript:` link in the page's main part. */
export async function expectNothingExecutable(page: Page) {
  expect(await page.locator('main a[href^="javascript:"], main img, main script').count()).toBe(0);
}

/** Serves the trimmed ATT&CK 17.1 bundle at `/attack.json` (a test app reaches it with `FILE_SERVER_ENV`). */
export const serveAttackBundle = () =>
  serveFiles(async (path) =>
    path === '/attack.json' ? readFile(referenceData('attack', 'enterprise-attack-17.1.trimmed.json')) : undefined,
  );

/** Points the app's ATT&CK Enterprise source at the bundle of `serveAttackBundle`. */
export async function useAttackBundle(app: TestApp, files: { url: string }) {
  await setSourceLocation(app, 'attack_enterprise', `${files.url}/attack.json`);
}

/**
 * What a test file of the catalogue's pages starts with: a test app (no scheduled syncs) whose ATT&CK Enterprise source
 * is the trimmed bundle, not yet synced; the file server of that bundle; a browser; and the team.
 */
export async function startWithAttackBundle() {
  const files = await serveAttackBundle();
  let app: TestApp | undefined;
  let browser: Browser | undefined;
  try {
    [app, browser] = await Promise.all([startTestApp({ SOURCE_SYNC_SCHEDULES: 'false', ...FILE_SERVER_ENV }), launchBrowser()]);
    const t = await team(app);
    await useAttackBundle(app, files);
    return { files, app, browser, t };
  } catch (error) {
    await closeAll(browser, app, files);
    throw error;
  }
}

/** Closes what a test file started, one after the other in the order given; what never started is passed over. */
export async function closeAll(...started: ({ close(): Promise<unknown> } | undefined)[]) {
  for (const part of started) await part?.close();
}

/** The id of the technique `ttpId`, which must exist. */
export const techniqueIdOf = async (app: TestApp, ttpId: string) =>
  (await app.services.prisma.technique.findFirstOrThrow({ where: { ttpId } })).id;
