import { createHash, randomUUID } from 'node:crypto';
import { cp, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { PGlite } from '@electric-sql/pglite';
import { PrismaPg } from '@prisma/adapter-pg';
import { Prisma, PrismaClient } from '../generated/prisma/client.ts';
import { rankedPage } from '../modules/knowledge/search.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EmbeddedWireServer } from './embedded-wire.ts';
import { applyMigrations, diffMigrationsToSchema, migrationsDirectory } from './migrate.ts';

const SERVER_URL = process.env.TEST_POSTGRES_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres';

function urlFor(database: string): string {
  const url = new URL(SERVER_URL);
  url.pathname = `/${database}`;
  return url.toString();
}

/** One short-lived connection. */
async function query<T extends pg.QueryResultRow>(url: string, sql: string): Promise<T[]> {
  const client = new pg.Client(url);
  await client.connect();
  try {
    return (await client.query<T>(sql)).rows;
  } finally {
    await client.end();
  }
}

async function withScratchDatabase(): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `violet_migrations_${randomUUID().replaceAll('-', '')}`;
  await query(SERVER_URL, `CREATE DATABASE ${name}`);
  return { url: urlFor(name), drop: () => query(SERVER_URL, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`).then(() => {}) };
}

interface Recorded {
  migration_name: string;
  checksum: string;
  finished: boolean;
  rolled_back: boolean;
  applied_steps_count: number;
}

async function recordedMigrations(url: string): Promise<Recorded[]> {
  return query<Recorded>(
    url,
    `SELECT migration_name, checksum, finished_at IS NOT NULL AS finished, rolled_back_at IS NOT NULL AS rolled_back,
            applied_steps_count
       FROM _prisma_migrations ORDER BY migration_name`,
  );
}

/** What `prisma migrate deploy` records for the project's migrations folder. */
async function expectedRecords(): Promise<Recorded[]> {
  const entries = await readdir(migrationsDirectory, { withFileTypes: true });
  const names = entries
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort();
  return Promise.all(
    names.map(async (migration_name) => ({
      migration_name,
      checksum: createHash('sha256')
        .update(await readFile(join(migrationsDirectory, migration_name, 'migration.sql')))
        .digest('hex'),
      finished: true,
      rolled_back: false,
      applied_steps_count: 1,
    })),
  );
}

async function expectMigratesOnce(url: string): Promise<void> {
  const expected = await expectedRecords();
  expect(expected.length).toBeGreaterThan(0);

  expect(await applyMigrations(url)).toEqual({ applied: expected.map((record) => record.migration_name) });
  expect(await recordedMigrations(url)).toEqual(expected);

  expect(await applyMigrations(url)).toEqual({ applied: [] });
  expect(await recordedMigrations(url)).toEqual(expected);
}

describe('migrations on PostgreSQL', () => {
  it('match prisma/schema.prisma', async () => {
    expect(await diffMigrationsToSchema(SERVER_URL)).toBe('');
  });

  it('are applied to a fresh database and recorded as the Prisma CLI does, once', async () => {
    const database = await withScratchDatabase();
    try {
      await expectMigratesOnce(database.url);
    } finally {
      await database.drop();
    }
  });

  it('on an up-to-date database, apply a migration added since', async () => {
    const database = await withScratchDatabase();
    try {
      await expectNewMigrationApplied(database.url);
    } finally {
      await database.drop();
    }
  });

  it('stop at a failing migration, which is recorded as failed rather than applied', async () => {
    const database = await withScratchDatabase();
    try {
      await expectStopsAtFailingMigration(database.url);
    } finally {
      await database.drop();
    }
  });
});

/** On a database that is up to date, a migration added since, or one changed since, is not taken for applied. */
async function expectNewMigrationApplied(url: string): Promise<void> {
  const folder = await mkdtemp(join(tmpdir(), 'violet-migrations-'));
  try {
    await cp(migrationsDirectory, folder, { recursive: true });
    expect(await applyMigrations(url, { migrationsDirectory: folder })).toMatchObject({ applied: expect.any(Array) });
    await addMigration(folder, '29990103000000_later', ['CREATE TABLE violet_later (id int);']);
    expect(await applyMigrations(url, { migrationsDirectory: folder })).toEqual({ applied: ['29990103000000_later'] });
    const [table] = await query(url, "SELECT to_regclass('violet_later')::text AS later");
    expect(table).toEqual({ later: 'violet_later' });
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
}

/** Applies the project's migrations, one with a `$$` body, then a failing one. */
async function expectStopsAtFailingMigration(url: string): Promise<void> {
  const folder = await mkdtemp(join(tmpdir(), 'violet-migrations-'));
  try {
    await cp(migrationsDirectory, folder, { recursive: true });
    // A `$$` body and a ';' inside a literal: the script must reach the server in one piece.
    await addMigration(folder, '29990101000000_function', [
      'CREATE FUNCTION violet_test_touch() RETURNS trigger AS $$',
      'BEGIN NEW.updated_at = now(); RETURN NEW; END;',
      '$$ LANGUAGE plpgsql;',
      "INSERT INTO revoked_tokens (jti, expires_at) VALUES ('a;b', now());",
    ]);
    await addMigration(folder, '29990102000000_broken', ['CREATE TABLE violet_half_done (id int);', 'SELECT * FROM violet_missing_table;']);

    await expect(applyMigrations(url, { migrationsDirectory: folder })).rejects.toThrow(
      /migration 29990102000000_broken failed .*violet_missing_table/,
    );
    // The next start still refuses: a failed migration in the history is never taken for "all applied".
    await expect(applyMigrations(url, { migrationsDirectory: folder })).rejects.toThrow(/29990102000000_broken/);

    const recorded = await recordedMigrations(url);
    expect(recorded.map((record) => [record.migration_name, record.finished])).toEqual([
      ...(await expectedRecords()).map((record) => [record.migration_name, true]),
      ['29990101000000_function', true],
      ['29990102000000_broken', false],
    ]);
    const [state] = await query(url, "SELECT to_regclass('violet_half_done') AS half, (SELECT jti FROM revoked_tokens) AS jti");
    expect(state).toEqual({ half: null, jti: 'a;b' });
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
}

async function addMigration(folder: string, name: string, lines: string[]): Promise<void> {
  await mkdir(join(folder, name));
  await writeFile(join(folder, name, 'migration.sql'), `${lines.join('\n')}\n`);
}

describe('migrations on PGlite served over the wire protocol', () => {
  let db: PGlite;
  let server: EmbeddedWireServer;
  let socketDir: string;
  let url: string;

  beforeAll(async () => {
    db = new PGlite();
    socketDir = await mkdtemp(join(tmpdir(), 'violet-pg-'));
    server = new EmbeddedWireServer(db, 4);
    await server.listen(join(socketDir, '.s.PGSQL.5432'));
    url = `postgresql://postgres@localhost/postgres?host=${encodeURIComponent(socketDir)}`;
  });

  afterAll(async () => {
    await server?.close();
    await db?.close();
    await rm(socketDir, { recursive: true, force: true });
  });

  // Runs first: with PGlite as the shadow database its one database is used, and emptied again afterwards.
  it('match prisma/schema.prisma with PGlite as the shadow database', async () => {
    expect(await diffMigrationsToSchema(url)).toBe('');
  });

  it('are applied and recorded as the Prisma CLI does, once', async () => {
    await expectMigratesOnce(url);
  });

  it('keep test_outcomes in step with tests through their triggers', async () => {
    const outcome = async () =>
      (await db.query(`SELECT is_result, detect_seconds FROM test_outcomes WHERE test_id = '00000000-0000-4000-8000-000000000003'`)).rows;
    await db.exec(`
      INSERT INTO users (id, username, password_hash, role, updated_at) VALUES ('00000000-0000-4000-8000-000000000001', 'u', 'x', 'admin', now());
      INSERT INTO techniques (id, ttp_id, name, updated_at) VALUES ('00000000-0000-4000-8000-000000000002', 'T1', 'T', now());
      INSERT INTO tests (id, technique_id, name, created_by, lineage_id, updated_at)
        VALUES ('00000000-0000-4000-8000-000000000003', '00000000-0000-4000-8000-000000000002', 't',
                '00000000-0000-4000-8000-000000000001', '00000000-0000-4000-8000-000000000003', now())`);
    expect(await outcome()).toEqual([]);
    await db.exec(`UPDATE tests SET state = 'in_review', detection_result = 'detected', execution_date = '2026-01-01T00:00:00Z',
      red_submitted_at = '2026-01-01T00:10:00Z', blue_submitted_at = '2026-01-01T01:00:00Z'`);
    expect(await outcome()).toEqual([{ is_result: true, detect_seconds: 3600 }]);
    await db.exec(`DELETE FROM tests; DELETE FROM techniques; DELETE FROM users`);
    expect(await outcome()).toEqual([]);
  });

  it('generate the full-text columns, and the ranked search runs on them as on PostgreSQL', async () => {
    await db.exec(`
      INSERT INTO techniques (id, ttp_id, name, updated_at) VALUES ('00000000-0000-4000-8000-000000000002', 'T1', 'T', now());
      INSERT INTO playbooks (id, technique_id, type, title, content, tags, updated_at) VALUES
        ('00000000-0000-4000-8000-000000000011', '00000000-0000-4000-8000-000000000002', 'detection', 'Notes',
         'Kerberoasting requests tickets; kerberoasting again.', '{}', now()),
        ('00000000-0000-4000-8000-000000000012', '00000000-0000-4000-8000-000000000002', 'hunting', 'Hunting kerberoasting', '', NULL, now()),
        ('00000000-0000-4000-8000-000000000013', '00000000-0000-4000-8000-000000000002', 'response', 'Triage', '', '{Kerberoasting}', now())`);
    const prisma = new PrismaClient({ adapter: new PrismaPg({ connectionString: url, max: 1 }) });
    try {
      const page = await rankedPage(prisma, 'playbooks', 'kerberoasted', [], Prisma.sql`t.id`, { offset: 0, limit: 10 });
      expect(page).toEqual({
        ids: ['00000000-0000-4000-8000-000000000012', '00000000-0000-4000-8000-000000000013', '00000000-0000-4000-8000-000000000011'],
        total: 3,
      });
    } finally {
      await prisma.$disconnect();
    }
    await db.exec(`DELETE FROM playbooks; DELETE FROM techniques`);
  });

  it('stop at a failing migration, which is recorded as failed rather than applied', async () => {
    await expectStopsAtFailingMigration(url);
  });
});
