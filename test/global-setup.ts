import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import type pg from 'pg';
import { applyMigrations } from '../src/db/migrate.ts';
import { admin, TEMPLATE_PREFIX, databaseUrl } from './helpers/database.ts';

/** Templates left by runs that were killed before their teardown are dropped once they are this old. */
const ABANDONED_AFTER_MS = 6 * 3_600_000;

/**
 * Builds this run's migrated template database (each test app clones it with CREATE DATABASE … TEMPLATE).
 * Its name is unique to the run, so two runs on one server never touch each other's databases; the name
 * reaches the test workers through the environment. Dropped again at the end of the run.
 */
export default async function setup() {
  buildWhenStale();
  const name = process.env.VIOLET_TEST_TEMPLATE ?? `${TEMPLATE_PREFIX}${Date.now().toString(36)}_${randomBytes(3).toString('hex')}`;
  process.env.VIOLET_TEST_TEMPLATE = name;
  await admin(async (client) => {
    await dropAbandonedTemplates(client);
    await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await client.query(`CREATE DATABASE ${name}`);
  });
  await applyMigrations(databaseUrl(name));
  return async () => {
    await admin((client) => client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`));
  };
}

/** Tests that spawn the service run the build (dist/), as `npm start` does: rebuild it when the sources changed. */
function buildWhenStale(): void {
  const result = spawnSync(process.execPath, ['scripts/ensure-build.mjs'], { stdio: 'inherit' });
  if (result.status !== 0) throw new Error('the build of dist/ failed (npm run build)');
}

async function dropAbandonedTemplates(client: pg.Client): Promise<void> {
  const { rows } = await client.query<{ datname: string }>('SELECT datname FROM pg_database WHERE datname LIKE $1', [
    `${TEMPLATE_PREFIX}%`,
  ]);
  for (const { datname } of rows) {
    const createdAt = parseInt(datname.slice(TEMPLATE_PREFIX.length).split('_')[0], 36);
    if (Number.isFinite(createdAt) && Date.now() - createdAt > ABANDONED_AFTER_MS) {
      await client.query(`DROP DATABASE IF EXISTS ${datname} WITH (FORCE)`);
    }
  }
}
