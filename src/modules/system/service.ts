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

/** The probes' own answers, before the anonymous view drops the details. */
interface Probe {
  database: CheckStatus;
  redis: Health['redis']['status'];
  storage: CheckStatus;
  workers: number | null;
  at: number;
}

async function probe(services: Services): Promise<Probe> {
  const [database, redis, storage, workers] = await Promise.all([
    passes(() => services.prisma.$queryRaw`SELECT 1`),
    redisStatus(services),
    storageStatus(services),
    services.jobs.workerCount(),
  ]);
  return { database, redis, storage, workers, at: Date.now() };
}

/** An anonymous answer may come from a probe this old, while a newer one runs in the background. */
export const HEALTH_FRESH_MS = 1_000;
/** Past this age an anonymous caller waits for a new probe. */
export const HEALTH_MAX_AGE_MS = 5_000;

interface ProbeState {
  last?: Probe;
  running?: Promise<Probe>;
}
const probes = new WeakMap<Services, ProbeState>();

/** One probe at a time per service, whoever asks; the answer is kept for the next callers. */
function runProbe(services: Services, state: ProbeState): Promise<Probe> {
  state.running ??= probe(services)
    .then((result) => (state.last = result))
    .finally(() => (state.running = undefined));
  return state.running;
}

/**
 * The probe an answer is built from. Admins get one run for them (they are diagnosing). Anyone else, a load balancer
 * polling or a stranger, shares the last probe while it is under HEALTH_MAX_AGE_MS old, refreshed in the background
 * once it is over HEALTH_FRESH_MS: the public health check neither queues behind busy dependencies (the embedded
 * database runs one statement at a time) nor turns each anonymous request into four dependency calls.
 */
async function currentProbe(services: Services, fresh: boolean): Promise<Probe> {
  let state = probes.get(services);
  if (!state) probes.set(services, (state = {}));
  const age = state.last ? Date.now() - state.last.at : Infinity;
  if (fresh || age > HEALTH_MAX_AGE_MS) return runProbe(services, state);
  if (age > HEALTH_FRESH_MS) void runProbe(services, state).catch(() => undefined);
  return state.last!;
}

/**
 * The state of the database, Redis, storage and job workers; degraded when the database or a configured Redis
 * fails. Missing workers do not degrade it: the API still serves, and a load balancer must not drop it for that.
 * `detailed` (admins) adds the engine, driver and worker count, from a probe run for the call. A Redis connection
 * known to be down shows at once, whatever the age of the probe.
 */
export async function checkHealth(services: Services, detailed = false): Promise<Health> {
  const probed = await currentProbe(services, detailed);
  const redisDown = services.redis !== undefined && services.redis.status !== 'ready';
  const redis = redisDown ? 'error' : probed.redis;
  const workers = redisDown ? null : probed.workers;
  const degraded = probed.database !== 'ok' || redis === 'error';
  return {
    status: degraded ? 'degraded' : 'ok',
    database: { status: probed.database, engine: detailed ? services.db.engine : null },
    redis: { status: redis },
    storage: { status: probed.storage, driver: detailed ? services.storage.objects.driver : null },
    workers: { status: workersStatus(workers), count: detailed ? workers : null },
  };
}

export const schedulerStatus = (services: Services): Promise<SchedulerStatus> => services.jobs.status();
