import { AxeBuilder } from '@axe-core/playwright';
import type { Page } from 'playwright-core';
import { expect } from 'vitest';
import type { Misconduct } from './chromium.ts';

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
