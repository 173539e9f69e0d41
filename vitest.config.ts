import { defineConfig } from 'vitest/config';

/** Tests that measure latency under a load they make themselves: they run alone, after the rest (vitest.measured.config.ts). */
export const MEASURED = 'test/measured/**/*.test.ts';

/** Settings of both runs. */
export const shared = {
  // One graphql instance: without this, Vite resolves ESM and CommonJS copies for different importers.
  resolve: { alias: { graphql: 'graphql/index.js' } },
  test: {
    globalSetup: ['test/global-setup.ts'],
    pool: 'forks' as const,
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // What a busy machine (two test files on two cores, a browser) may take to reach an awaited state.
    expect: { poll: { timeout: 10_000 } },
    reporters: ['default'],
  },
};

export default defineConfig({
  ...shared,
  test: {
    ...shared.test,
    include: ['test/**/*.test.ts', 'src/**/*.test.ts', 'rest-adapter/**/*.test.ts'],
    exclude: ['**/node_modules/**', MEASURED],
    poolOptions: { forks: { maxForks: 2, minForks: 1 } },
  },
});
