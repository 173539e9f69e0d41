import pg from 'pg';
import { applyMigrations } from '../src/db/migrate.ts';
import { ADMIN_URL, TEMPLATE_DATABASE, databaseUrl } from './helpers/database.ts';

/** Builds the migrated template database once; each test app clones it (CREATE DATABASE … TEMPLATE). */
export default async function setup() {
  const admin = new pg.Client(ADMIN_URL);
  await admin.connect();
  await admin.query(`DROP DATABASE IF EXISTS ${TEMPLATE_DATABASE} WITH (FORCE)`);
  await admin.query(`CREATE DATABASE ${TEMPLATE_DATABASE}`);
  await admin.end();
  await applyMigrations(databaseUrl(TEMPLATE_DATABASE));
}
