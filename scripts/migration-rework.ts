/**
 * Rewrites the newest migration from the schema: the newest migration.sql becomes the difference between
 * the migrations before it and prisma/schema.prisma. For a migration still being written on a branch,
 * never for one that has shipped (applied databases keep its old checksum). Refuses a migration that holds
 * hand-written SQL (functions, triggers, views, data changes): the schema diff would silently drop it.
 *
 *   npx tsx scripts/migration-rework.ts
 */
import { cp, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { handWrittenStatements } from '../src/db/hand-written-sql.ts';
import { diffMigrationsToSchema, migrationsDirectory } from '../src/db/migrate.ts';

async function main(): Promise<void> {
  const names = (await readdir(migrationsDirectory, { withFileTypes: true }))
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort();
  const newest = names.at(-1);
  if (!newest) throw new Error('There is no migration to rework');
  const file = join(migrationsDirectory, newest, 'migration.sql');
  const handWritten = handWrittenStatements(await readFile(file, 'utf8'));
  if (handWritten.length) {
    const list = handWritten.map((statement) => `  line ${statement.line}: ${statement.what}: ${statement.text}`).join('\n');
    throw new Error(`${relative(process.cwd(), file)} holds hand-written SQL that a rewrite would drop; edit it by hand instead:\n${list}`);
  }
  const earlier = await mkdtemp(join(tmpdir(), 'violet-migrations-'));
  try {
    await cp(migrationsDirectory, earlier, { recursive: true });
    await rm(join(earlier, newest), { recursive: true });
    const sql = await diffMigrationsToSchema(process.env.SHADOW_DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres', {
      migrationsDirectory: earlier,
    });
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
