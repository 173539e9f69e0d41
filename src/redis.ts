import { Redis } from 'ioredis';
import type { Logger } from './logger.ts';

export { Redis };

/** A Redis connection as BullMQ wants it (blocking commands must not give up after N retries). */
export function connectRedis(url: string, log: Logger): Redis {
  return reportOutages(
    new Redis(url, { maxRetriesPerRequest: null, enableReadyCheck: true, lazyConnect: false }),
    log,
    'Redis unreachable: jobs and events wait for it',
  );
}

/** Logs one warning per outage of `redis` (not one per reconnection attempt) and its recovery. */
export function reportOutages(redis: Redis, log: Logger, message: string): Redis {
  let down = false;
  redis.on('error', (error: Error) => {
    if (down) return;
    down = true;
    log.warn({ err: error }, message);
  });
  redis.on('ready', () => {
    if (down) log.info('Redis reachable again');
    down = false;
  });
  return redis;
}

/**
 * A connection for the request path (login throttle, result cache, event publishing, enqueueing): while Redis
 * is unreachable its commands fail at once instead of queueing, and a command Redis does not answer within
 * `commandTimeoutMs` fails too, so a request degrades or answers 503 instead of hanging for the outage.
 */
export function connectRedisFailFast(url: string, commandTimeoutMs: number, log: Logger): Redis {
  const redis = new Redis(url, {
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    commandTimeout: commandTimeoutMs,
    connectTimeout: Math.max(commandTimeoutMs, 2_000),
    enableReadyCheck: true,
    lazyConnect: false,
  });
  return reportOutages(redis, log, 'Redis unreachable: throttling and caching fall back to this process, enqueueing answers 503');
}
