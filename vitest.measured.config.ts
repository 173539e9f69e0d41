import { defineConfig } from 'vitest/config';
import { MEASURED, shared } from './vitest.config.ts';

/** The latency acceptance tests, one file at a time with nothing else running: what they measure is the service alone. */
export default defineConfig({ ...shared, test: { ...shared.test, include: [MEASURED], poolOptions: { forks: { maxForks: 1 } } } });
