import { defineConfig } from 'vitest/config';

export default defineConfig({
  // One graphql instance: without this, Vite resolves ESM and CommonJS copies for different importers.
  resolve: { alias: { graphql: 'graphql/index.js' } },
  test: {
    include: ['test/**/*.test.ts', 'src/**/*.test.ts', 'rest-adapter/**/*.test.ts'],
    globalSetup: ['test/global-setup.ts'],
    pool: 'forks',
    poolOptions: { forks: { maxForks: 2, minForks: 1 } },
    testTimeout: 30_000,
    hookTimeout: 60_000,
    reporters: ['default'],
  },
});
