/**
 * Load test: the service on a scratch PostgreSQL database with Redis, then CLIENTS concurrent clients over real
 * HTTP on 127.0.0.1 for SECONDS (mixed reads and writes, REST and GraphQL). Prints the status counts and latency,
 * and fails (exit 1) if any answer was a 5xx other than 503, or a 503 came without Retry-After: overload must be
 * answered 503, never 500.
 *
 *   npm run bench:load                               # 150 clients, 20 s, pool of 10 (the default)
 *   DATABASE_POOL_SIZE=2 DATABASE_POOL_TIMEOUT=250ms npm run bench:load   # a starved pool: 503s expected
 *
 * Environment: TEST_POSTGRES_URL (server, default postgresql://postgres@127.0.0.1:5432/postgres), REDIS_URL (default
 * redis://127.0.0.1:6379), CLIENTS, SECONDS, and any service variable (DATABASE_POOL_SIZE, DATABASE_POOL_TIMEOUT …).
 */
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { mkdtemp, rm } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createApp } from '../src/app.ts';
import { hashPassword } from '../src/auth/passwords.ts';
import { loadConfig } from '../src/config.ts';
import { adminSql } from './admin-sql.ts';
import { createLogger } from '../src/logger.ts';
import { createServices } from '../src/composition.ts';
import { wiring } from '../workers/wiring.ts';
import { runMixedLoad } from './mixed-load.ts';

const SERVER = process.env.TEST_POSTGRES_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres';
const CLIENTS = Number(process.env.CLIENTS ?? 150);
const SECONDS = Number(process.env.SECONDS ?? 20);
/** A hard stop on the number of requests, whatever the speed. */
const MAX_REQUESTS = 200_000;
const PASSWORD = 'load test password 1';

const admin = (sql: string) => adminSql(SERVER, sql);

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;

async function main() {
  const name = `violet_load_${randomBytes(4).toString('hex')}`;
  const url = new URL(SERVER);
  url.pathname = `/${name}`;
  const dataDir = await mkdtemp(join(tmpdir(), 'violet-load-'));
  const prefix = `violet-load-${randomBytes(4).toString('hex')}`;
  await admin(`CREATE DATABASE ${name}`);
  try {
    const config = loadConfig({
      ...process.env,
      NODE_ENV: 'production',
      DATABASE_URL: url.toString(),
      REDIS_URL: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379',
      REDIS_PREFIX: prefix,
      DATA_DIR: dataDir,
      JWT_SECRET: randomBytes(32).toString('hex'),
      LOG_LEVEL: 'silent',
      RUN_WORKERS: 'inline',
      SOURCE_SYNC_SCHEDULES: 'false',
    });
    const services = await createServices(config, createLogger(config.LOG_LEVEL), 'api', wiring);
    const app = await createApp(services);
    app.server.listen(0, '127.0.0.1');
    await once(app.server, 'listening');
    const base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;

    const passwordHash = await hashPassword(PASSWORD);
    const tokens: string[] = [];
    for (const role of ['admin', 'red_lead', 'blue_lead', 'red_tech', 'blue_tech', 'viewer'] as const) {
      const user = await services.prisma.user.create({ data: { username: `load_${role}`, role, passwordHash } });
      const response = await fetch(`${base}/api/v1/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ username: user.username, password: PASSWORD }),
      });
      tokens.push(((await response.json()) as { access_token: string }).access_token);
    }

    console.log(
      `${CLIENTS} clients for ${SECONDS} s against ${base} (pool ${config.DATABASE_POOL_SIZE}, wait ${config.DATABASE_POOL_TIMEOUT} ms)`,
    );
    const samples = await runMixedLoad(base, tokens, CLIENTS, SECONDS, MAX_REQUESTS);

    const byStatus = new Map<number, number>();
    for (const sample of samples) byStatus.set(sample.status, (byStatus.get(sample.status) ?? 0) + 1);
    const latencies = samples.map((sample) => sample.ms).sort((a, b) => a - b);
    console.log(`requests: ${samples.length} (${(samples.length / SECONDS).toFixed(0)}/s)`);
    console.log(
      `status:   ${[...byStatus]
        .sort(([a], [b]) => a - b)
        .map(([status, count]) => `${status || 'network error'} × ${count}`)
        .join(', ')}`,
    );
    console.log(
      `latency:  p50 ${percentile(latencies, 50).toFixed(1)} ms, p95 ${percentile(latencies, 95).toFixed(1)} ms, max ${latencies.at(-1)?.toFixed(1)} ms`,
    );

    const faults = samples.filter((sample) => sample.status === 0 || (sample.status >= 500 && sample.status !== 503)).length;
    const bare503 = samples.filter((sample) => sample.status === 503 && !sample.retryAfter).length;
    const busy = byStatus.get(503) ?? 0;
    if (faults || bare503) {
      console.log(`verdict: FAIL — ${faults} answers were errors other than 503, ${bare503} 503s came without Retry-After`);
      process.exitCode = 1;
    } else {
      console.log(`verdict: no 500; ${busy ? `overload answered 503 with Retry-After (${busy} times)` : 'no overload at this load'}`);
    }

    await app.close();
    await new Promise((resolve) => app.server.close(resolve));
    const keys = await services.redis!.keys(`${prefix}:*`);
    if (keys.length) await services.redis!.del(...keys);
    await services.close();
  } finally {
    await admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await rm(dataDir, { recursive: true, force: true });
  }
}

await main();
