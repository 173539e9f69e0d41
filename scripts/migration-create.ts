/**
 * Creates prisma/migrations/<timestamp>_<name>/migration.sql from the difference between the migrations
 * folder and prisma/schema.prisma, like `prisma migrate dev --create-only` but with no native engine.
 *
 *   npx tsx scripts/migration-create.ts <name>
 *
 * The diff replays the migrations in a scratch database created (and dropped) on the server named by
 * SHADOW_DATABASE_URL (default: the local PostgreSQL).
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { diffMigrationsToSchema, LOCKFILE_CONTENT, LOCKFILE_NAME, migrationsDirectory } from '../src/db/migrate.ts';

const DEFAULT_SHADOW_DATABASE_URL = 'postgresql://postgres@127.0.0.1:5432/postgres';

/** Same shape as the CLI's directory names: UTC `YYYYMMDDHHMMSS_name`. */
function migrationDirectoryName(name: string, now = new Date()): string {
  const timestamp = now.toISOString().replace(/\D/g, '').slice(0, 14);
  return `${timestamp}_${name}`;
}

function parseName(argument: string | undefined): string {
  const name = (argument ?? '')
    .trim()
    .replace(/[^A-Za-z0-9_]+/g, '_')
    .replace(/^_+|_+$/g, '');
  if (!name) {
    console.error('Usage: npx tsx scripts/migration-create.ts <name>');
    process.exit(1);
  }
  return name;
}

async function main(): Promise<void> {
  const name = parseName(process.argv[2]);
  const sql = await diffMigrationsToSchema(process.env.SHADOW_DATABASE_URL ?? DEFAULT_SHADOW_DATABASE_URL);
  if (!sql.trim()) {
    console.log('No schema changes');
    return;
  }
  const directory = join(migrationsDirectory, migrationDirectoryName(name));
  await mkdir(directory, { recursive: true });
  await writeFile(join(directory, 'migration.sql'), sql, 'utf8');
  await writeFile(join(migrationsDirectory, LOCKFILE_NAME), LOCKFILE_CONTENT, 'utf8');
  console.log(`Created ${relative(process.cwd(), join(directory, 'migration.sql'))}`);
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
});
