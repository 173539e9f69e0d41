import { RateLimiterMemory, RateLimiterRedis, type IRateLimiterOptions, type RateLimiterAbstract } from 'rate-limiter-flexible';
import type { Redis } from './redis.ts';

/**
 * A limiter shared by every process through Redis when there is one, else counting in this process. While Redis
 * is unreachable each process counts on its own: weaker across processes, never unlimited.
 */
export function sharedLimiter(
  settings: Pick<IRateLimiterOptions, 'keyPrefix' | 'points' | 'duration'>,
  redis?: Redis | null,
): RateLimiterAbstract {
  if (!redis) return new RateLimiterMemory(settings);
  return new RateLimiterRedis({
    ...settings,
    storeClient: redis,
    rejectIfRedisNotReady: true,
    insuranceLimiter: new RateLimiterMemory(settings),
  });
}
