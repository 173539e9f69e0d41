import type { SchedulerStatus } from '../../jobs/types.ts';
import type { Services } from '../../services.ts';
import type { StorageDriver } from '../../storage/index.ts';

/** How long one dependency may take to answer before it counts as failed. */
export const HEALTH_CHECK_TIMEOUT_MS = 2_000;

export type CheckStatus = 'ok' | 'error';

export interface Health {
  status: 'ok' | 'degraded';
  database: { status: CheckStatus; engine: Services['db']['engine'] };
  redis: { status: CheckStatus | 'disabled' };
  storage: { status: CheckStatus; driver: StorageDriver };
}

async function passes(check: () => Promise<unknown>): Promise<CheckStatus> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error('timed out')), HEALTH_CHECK_TIMEOUT_MS);
  });
  try {
    await Promise.race([check(), timeout]);
    return 'ok';
  } catch {
    return 'error';
  } finally {
    clearTimeout(timer);
  }
}

async function redisStatus(services: Services): Promise<Health['redis']['status']> {
  const redis = services.redis;
  if (!redis) return 'disabled';
  // A disconnected ioredis client queues commands instead of failing them, so ask for the state first.
  if (redis.status !== 'ready') return 'error';
  return passes(() => redis.ping());
}

/** Disk: DATA_DIR/evidence is writable (created when missing). S3: the bucket exists and answers. */
const storageStatus = (services: Services) => passes(() => services.storage.objects.check());

/** The state of the database, Redis and storage; degraded when the database or a configured Redis fails. */
export async function checkHealth(services: Services): Promise<Health> {
  const [database, redis, storage] = await Promise.all([
    passes(() => services.prisma.$queryRaw`SELECT 1`),
    redisStatus(services),
    storageStatus(services),
  ]);
  const degraded = database !== 'ok' || redis === 'error';
  return {
    status: degraded ? 'degraded' : 'ok',
    database: { status: database, engine: services.db.engine },
    redis: { status: redis },
    storage: { status: storage, driver: services.storage.objects.driver },
  };
}

export const schedulerStatus = (services: Services): Promise<SchedulerStatus> => services.jobs.status();
