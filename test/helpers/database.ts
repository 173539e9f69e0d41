import { randomBytes } from 'node:crypto';
import pg from 'pg';

export const POSTGRES_URL = process.env.TEST_POSTGRES_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres';
export const ADMIN_URL = POSTGRES_URL;
/** Every run's template database starts with this; the global setup names it and hands it to the workers. */
export const TEMPLATE_PREFIX = 'violet_tpl_';

function templateDatabase(): string {
  const name = process.env.VIOLET_TEST_TEMPLATE;
  if (!name) throw new Error('VIOLET_TEST_TEMPLATE is unset: run the tests through vitest (its global setup names the template)');
  return name;
}

export function databaseUrl(name: string): string {
  const url = new URL(POSTGRES_URL);
  url.pathname = `/${name}`;
  return url.toString();
}

/** Runs `work` on a connection to the server's maintenance database (creating and dropping databases). */
export async function admin<T>(work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client(ADMIN_URL);
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/** A fresh database cloned from the migrated template. */
export async function createTestDatabase(): Promise<{ name: string; url: string; drop(): Promise<void> }> {
  const name = `violet_t_${randomBytes(6).toString('hex')}`;
  await admin((client) => client.query(`CREATE DATABASE ${name} TEMPLATE ${templateDatabase()}`));
  return {
    name,
    url: databaseUrl(name),
    drop: () => admin((client) => client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)).then(() => undefined),
  };
}
