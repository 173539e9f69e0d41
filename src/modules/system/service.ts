import type { SchedulerStatus } from '../../jobs/types.ts';
import type { Services } from '../../services.ts';
import type { StorageDriver } from '../../storage/index.ts';

/** How long one dependency may take to answer before it counts as failed. */
export const HEALTH_CHECK_TIMEOUT_MS = 2_000;

export type CheckStatus = 'ok' | 'error';

/** ok: at least one process works the job queues; none: jobs wait (e.g. no `npm run worker` with Redis); unknown: Redis unreachable. */
export type WorkersStatus = 'ok' | 'none' | 'unknown';

/**
 * Anonymous callers get status words only; admins also get the details (`engine`, `driver`, `count`), which are
 * null for everyone else: the health check is public and must not describe the deployment to strangers.
 */
export interface Health {
  status: 'ok' | 'degraded';
  database: { status: CheckStatus; engine: Services['db']['engine'] | null };
  redis: { status: CheckStatus | 'disabled' };
  storage: { status: CheckStatus; driver: StorageDriver | null };
  workers: { status: WorkersStatus; count: number | null };
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

export const workersStatus = (count: number | null): WorkersStatus => (count === null ? 'unknown' : count > 0 ? 'ok' : 'none');

/**
 * The state of the database, Redis, storage and job workers; degraded when the database or a configured Redis
 * fails. Missing workers do not degrade it: the API still serves, and a load balancer must not drop it for that.
 * `detailed` (admins) adds the engine, driver and worker count.
 */
export async function checkHealth(services: Services, detailed = false): Promise<Health> {
  const [database, redis, storage, workers] = await Promise.all([
    passes(() => services.prisma.$queryRaw`SELECT 1`),
    redisStatus(services),
    storageStatus(services),
    services.jobs.workerCount(),
  ]);
  const degraded = database !== 'ok' || redis === 'error';
  return {
    status: degraded ? 'degraded' : 'ok',
    database: { status: database, engine: detailed ? services.db.engine : null },
    redis: { status: redis },
    storage: { status: storage, driver: detailed ? services.storage.objects.driver : null },
    workers: { status: workersStatus(workers), count: detailed ? workers : null },
  };
}

export const schedulerStatus = (services: Services): Promise<SchedulerStatus> => services.jobs.status();
