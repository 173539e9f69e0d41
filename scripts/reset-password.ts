/**
 * Gives a local account a new temporary password when nobody can sign in as an admin any more:
 *
 *   npm run admin:reset-password -- <username>
 *
 * Uses DATABASE_URL when set, otherwise the embedded database in DATA_DIR (default ./data; stop Violet first, the
 * embedded database admits one process). The password is printed once and must be changed at the next sign-in.
 */
import { loadConfig } from '../src/config.ts';
import { openDatabase } from '../src/db/client.ts';
import { createLogger } from '../src/logger.ts';
import { issueTemporaryPassword, RecoveryRefused } from '../src/modules/users/recovery.ts';

async function main(): Promise<number> {
  const username = process.argv[2];
  if (!username) {
    console.error('usage: npm run admin:reset-password -- <username>');
    return 2;
  }
  const config = loadConfig();
  const database = await openDatabase({ databaseUrl: config.DATABASE_URL, dataDir: config.DATA_DIR }, createLogger('warn'));
  try {
    const account = await issueTemporaryPassword(database.prisma, username);
    console.log(`\n  New temporary password for ${account.username}: ${account.temporaryPassword}`);
    console.log('  It is shown once; it must be changed at the next sign-in. Earlier sessions have ended.');
    if (account.inactive) console.log(`  ${account.username} is deactivated: reactivate the account to let it sign in.`);
    console.log('');
    return 0;
  } catch (error) {
    if (error instanceof RecoveryRefused) {
      console.error(error.message);
      return 1;
    }
    throw error;
  } finally {
    await database.close();
  }
}

// Exit explicitly: the embedded database's engine may leave timers behind.
main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  },
);
