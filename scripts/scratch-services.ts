import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../src/config.ts';
import { createLogger } from '../src/logger.ts';
import { createServices } from '../src/composition.ts';
import type { Services } from '../src/services.ts';
import { wiring } from '../workers/wiring.ts';
import { adminSql } from './admin-sql.ts';

/** The server the sync benchmarks use: BENCH_POSTGRES_URL, else TEST_POSTGRES_URL, else the local one. */
export const BENCH_SERVER =
  process.env.BENCH_POSTGRES_URL ?? process.env.TEST_POSTGRES_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres';

/**
 * Runs `work` with the services of a scratch database on BENCH_SERVER (created and migrated, dropped afterwards) and
 * a scratch data directory; no background workers.
 */
export async function withScratchServices(work: (services: Services) => Promise<void>): Promise<void> {
  const name = `violet_bench_${randomBytes(4).toString('hex')}`;
  const url = new URL(BENCH_SERVER);
  url.pathname = `/${name}`;
  const dataDir = await mkdtemp(join(tmpdir(), 'violet-bench-'));
  await adminSql(BENCH_SERVER, `CREATE DATABASE ${name}`);
  try {
    const config = loadConfig({
      DATABASE_URL: url.toString(),
      DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
      JWT_SECRET: randomBytes(32).toString('hex'),
      RUN_WORKERS: 'off',
    });
    const services = await createServices(config, createLogger(config.LOG_LEVEL), 'api', wiring);
    try {
      await work(services);
    } finally {
      await services.close();
    }
  } finally {
    await adminSql(BENCH_SERVER, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await rm(dataDir, { recursive: true, force: true });
  }
}
