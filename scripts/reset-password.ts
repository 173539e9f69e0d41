/**
 * Gives a local account a new temporary password when nobody can sign in as an admin any more:
 *
 *   npm run admin:reset-password -- <username>
 *
 * Uses DATABASE_URL when set, otherwise the embedded database in DATA_DIR (default ./data; stop Violet first, the
 * embedded database admits one process). The password is printed once and must be changed at the next sign-in.
 * With REDIS_URL (and the service's REDIS_PREFIX) the change is announced to the running service, which ends the
 * account's sessions and live connections at once; without, its sessions end within SESSION_CACHE.
 */
import { loadConfig } from '../src/config.ts';
import { openDatabase } from '../src/db/client.ts';
import { EventBus, event } from '../src/events/bus.ts';
import { withTimeout } from '../src/jobs/timeout.ts';
import { createLogger } from '../src/logger.ts';
import { issueTemporaryPassword, RecoveryRefused } from '../src/modules/users/recovery.ts';
import { connectRedis } from '../src/redis.ts';

/** How long the announcement may wait for Redis before the command gives up on it (the reset itself stands). */
const ANNOUNCE_TIMEOUT_MS = 5_000;

/** Tells the running service's processes that the account changed, as a change made through the service does. */
async function announce(redisUrl: string, prefix: string, userId: string): Promise<void> {
  const log = createLogger('silent');
  const publisher = connectRedis(redisUrl, log);
  const subscriber = publisher.duplicate();
  try {
    await withTimeout(
      (async () => {
        const bus = await EventBus.overRedis(log, publisher, subscriber, prefix);
        await bus.publish([event('user.changed', { userId, change: 'password_changed' }, null)]);
        // Answered after the PUBLISH sent before it: the announcement has reached Redis.
        await publisher.ping();
      })(),
      ANNOUNCE_TIMEOUT_MS,
    );
  } finally {
    publisher.disconnect();
    subscriber.disconnect();
  }
}

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
    const announced =
      config.REDIS_URL !== undefined &&
      (await announce(config.REDIS_URL, config.REDIS_PREFIX, account.userId).then(
        () => true,
        (error: Error) => {
          console.error(`Could not tell the running service through Redis (${error.message}).`);
          return false;
        },
      ));
    const ended = announced ? 'Earlier sessions have ended.' : 'Earlier sessions end within SESSION_CACHE (1 s by default).';
    console.log(`\n  New temporary password for ${account.username}: ${account.temporaryPassword}`);
    console.log(`  It is shown once; it must be changed at the next sign-in. ${ended}`);
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
