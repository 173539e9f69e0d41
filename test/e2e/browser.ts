import { readFile } from 'node:fs/promises';
import { AxeBuilder } from '@axe-core/playwright';
import type { Browser, Page } from 'playwright-core';
import { expect } from 'vitest';
import { TEST_PASSWORD, type TestApp } from '../helpers/app.ts';
import { serveFiles } from '../helpers/file-server.ts';
import { referenceData } from '../helpers/reference-data.ts';
import type { Team } from '../helpers/test-runs.ts';
import { type Misconduct, openContext, signIn } from './chromium.ts';

export { CHROMIUM, launchBrowser, type Misconduct, openContext, signIn } from './chromium.ts';

/** axe-core on the page as it is: the serious and critical violations, with the elements involved. */
export async function seriousViolations(page: Page) {
  const result = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice']).analyze();
  return result.violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map((violation) => ({ id: violation.id, nodes: violation.nodes.map((node) => node.target.join(' ')).slice(0, 5) }));
}

export function expectNoMisconduct(misconduct: Misconduct) {
  expect(misconduct).toEqual({ dialogs: [], foreignRequests: [], cspViolations: [], errors: [] });
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
  await app.services.prisma.dataSource.upsert({
    where: { kind: 'attack_enterprise' },
    create: { kind: 'attack_enterprise', name: 'MITRE ATT&CK Enterprise', location: `${files.url}/attack.json` },
    update: { location: `${files.url}/attack.json` },
  });
}
