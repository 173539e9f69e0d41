/**
 * Rewrites the newest migration from the schema: the newest migration.sql becomes the difference between
 * the migrations before it and prisma/schema.prisma. For a migration still being written on a branch,
 * never for one that has shipped (applied databases keep its old checksum).
 *
 *   npx tsx scripts/migration-rework.ts
 */
import { cp, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { diffMigrationsToSchema, migrationsDirectory } from '../src/db/migrate.ts';

async function main(): Promise<void> {
  const names = (await readdir(migrationsDirectory, { withFileTypes: true }))
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort();
  const newest = names.at(-1);
  if (!newest) throw new Error('There is no migration to rework');
  const earlier = await mkdtemp(join(tmpdir(), 'violet-migrations-'));
  try {
    await cp(migrationsDirectory, earlier, { recursive: true });
    await rm(join(earlier, newest), { recursive: true });
    const sql = await diffMigrationsToSchema(process.env.SHADOW_DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres', {
      migrationsDirectory: earlier,
    });
    const file = join(migrationsDirectory, newest, 'migration.sql');
    await writeFile(file, sql, 'utf8');
    console.log(`Rewrote ${relative(process.cwd(), file)}`);
  } finally {
    await rm(earlier, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
});
