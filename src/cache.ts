import type { EventBus } from './events/bus.ts';
import type { Logger } from './logger.ts';
import type { Redis } from './redis.ts';

/**
 * Cached results of expensive reads (analytics), shared by every API process when Redis is configured.
 * Entries belong to a tag; invalidating a tag raises its generation, so every older entry is ignored at once
 * (and expires on its own) without scanning keys.
 */
export interface ResultCache {
  /** The cached value of `key` under `tag`, or the value `compute` gives, kept for `ttlMs`. */
  remember<T>(tag: CacheTag, key: string, ttlMs: number, compute: () => Promise<T>): Promise<T>;
  invalidate(tag: CacheTag): Promise<void>;
}

/** What cached entries depend on: coverage and test results (analytics). */
export type CacheTag = 'analytics';

/** Events after which cached analytics are stale. */
const INVALIDATING_EVENTS = ['coverage.changed', 'test.state_changed'] as const;

class MemoryCache implements ResultCache {
  private readonly entries = new Map<string, { value: unknown; expires: number }>();
  private readonly generations = new Map<CacheTag, number>();

  async remember<T>(tag: CacheTag, key: string, ttlMs: number, compute: () => Promise<T>): Promise<T> {
    const id = `${tag}:${this.generations.get(tag) ?? 0}:${key}`;
    const hit = this.entries.get(id);
    if (hit && hit.expires > Date.now()) return hit.value as T;
    const value = await compute();
    this.entries.set(id, { value, expires: Date.now() + ttlMs });
    return value;
  }

  async invalidate(tag: CacheTag): Promise<void> {
    this.generations.set(tag, (this.generations.get(tag) ?? 0) + 1);
    for (const id of this.entries.keys()) if (id.startsWith(`${tag}:`)) this.entries.delete(id);
  }
}

class RedisCache implements ResultCache {
  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
    private readonly log: Logger,
  ) {}

  private generationKey = (tag: CacheTag) => `${this.prefix}:cache:${tag}:generation`;

  async remember<T>(tag: CacheTag, key: string, ttlMs: number, compute: () => Promise<T>): Promise<T> {
    let id: string | undefined;
    try {
      const generation = (await this.redis.get(this.generationKey(tag))) ?? '0';
      id = `${this.prefix}:cache:${tag}:${generation}:${key}`;
      const hit = await this.redis.get(id);
      if (hit !== null) return JSON.parse(hit) as T;
    } catch (error) {
      this.log.warn({ err: error, key }, 'result cache unavailable; computing');
    }
    const value = await compute();
    if (id) await this.redis.set(id, JSON.stringify(value), 'PX', ttlMs).catch(() => undefined);
    return value;
  }

  async invalidate(tag: CacheTag): Promise<void> {
    await this.redis.incr(this.generationKey(tag));
  }
}

/** The result cache of this process; analytics entries are invalidated whenever coverage or a test's state changes. */
export function createResultCache(bus: EventBus, log: Logger, redis?: Redis, prefix = 'violet'): ResultCache {
  const cache = redis ? new RedisCache(redis, prefix, log) : new MemoryCache();
  for (const type of INVALIDATING_EVENTS) {
    bus.on(type, () => cache.invalidate('analytics').catch((error) => log.warn({ err: error }, 'result cache invalidation failed')));
  }
  return cache;
}
