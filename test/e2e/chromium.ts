// Chromium for the browser tests and the web benchmark (no test runner here).
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core';
import { WEB_DIST } from '../../src/paths.ts';

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** Flags for Debian's Chromium without network beyond this machine (and as root in CI containers). */
const FLAGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export async function launchBrowser(): Promise<Browser> {
  if (!existsSync(join(WEB_DIST, 'index.html'))) throw new Error('web/dist is missing: run npm run build:web first');
  if (!existsSync(CHROMIUM))
    throw new Error(`No Chromium at ${CHROMIUM}: install the chromium package (.ci/run does) or set CHROMIUM_PATH`);
  return chromium.launch({ executablePath: CHROMIUM, args: FLAGS });
}

/** What a page did that it must not: dialogs, requests to other origins, CSP violations, uncaught errors. */
export interface Misconduct {
  dialogs: string[];
  foreignRequests: string[];
  cspViolations: string[];
  errors: string[];
}

/** A browser context on the app at `baseURL` that records misconduct of its pages. */
export async function openContext(
  browser: Browser,
  baseURL: string,
  colorScheme: 'light' | 'dark' = 'light',
): Promise<{ context: BrowserContext; page: Page; misconduct: Misconduct }> {
  const context = await browser.newContext({ baseURL, colorScheme, viewport: { width: 1366, height: 768 } });
  const misconduct: Misconduct = { dialogs: [], foreignRequests: [], cspViolations: [], errors: [] };
  const origin = new URL(baseURL).origin;
  context.on('request', (request) => {
    const url = new URL(request.url());
    if (url.origin !== origin && url.protocol !== 'data:' && url.origin !== origin.replace(/^http/, 'ws'))
      misconduct.foreignRequests.push(request.url());
  });
  context.on('console', (message) => {
    if (/Content Security Policy/i.test(message.text())) misconduct.cspViolations.push(message.text());
  });
  context.on('weberror', (error) => void misconduct.errors.push(error.error().message));
  const page = await context.newPage();
  page.on('dialog', (dialog) => {
    misconduct.dialogs.push(dialog.message());
    void dialog.dismiss();
  });
  return { context, page, misconduct };
}

/** Signs in through the sign-in page. */
export async function signIn(page: Page, username: string, password: string) {
  await page.goto('/');
  await page.getByLabel('Username').fill(username);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
}
