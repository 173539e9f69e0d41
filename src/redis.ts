import { Redis } from 'ioredis';

export { Redis };

/** A Redis connection as BullMQ wants it (blocking commands must not give up after N retries). */
export function connectRedis(url: string): Redis {
  return new Redis(url, { maxRetriesPerRequest: null, enableReadyCheck: true, lazyConnect: false });
}
