/**
 * Applies pending migrations (prisma/migrations) the way `prisma migrate deploy` does, with no native engine:
 * to DATABASE_URL when set, otherwise to the embedded PGlite database in DATA_DIR (default ./data).
 *
 *   npm run db:migrate
 */
import { startEmbeddedPostgres } from '../src/db/embedded.ts';
import { applyMigrations } from '../src/db/migrate.ts';

async function main(): Promise<void> {
  const databaseUrl = process.env.DATABASE_URL;
  const embedded = databaseUrl ? undefined : await startEmbeddedPostgres(process.env.DATA_DIR ?? './data');
  try {
    const { applied } = await applyMigrations(databaseUrl ?? embedded!.url);
    const target = databaseUrl ? 'DATABASE_URL' : `the embedded database in ${process.env.DATA_DIR ?? './data'}`;
    console.log(applied.length ? `Applied to ${target}:\n${applied.map((name) => `  ${name}`).join('\n')}` : `${target} is up to date`);
  } finally {
    await embedded?.stop();
  }
}

// Exit explicitly: the WebAssembly schema engine leaves a 10 s timer behind that would hold the process open.
main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  },
);
