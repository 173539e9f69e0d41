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

/**
 * What cached entries depend on. `analytics`: coverage and test results, invalidated when they change.
 * `rendered`: renderings keyed by a hash of their whole content, which cannot go stale; they only expire.
 */
export type CacheTag = 'analytics' | 'rendered';

/** Events after which cached analytics are stale. */
const INVALIDATING_EVENTS = ['coverage.changed', 'test.state_changed', 'detection.changed', 'alert.fired', 'snapshot.created'] as const;

/**
 * Concurrent misses of one key in this process share one computation: a burst of requests after an
 * invalidation runs the expensive query once.
 */
class SingleFlight {
  private readonly running = new Map<string, Promise<unknown>>();

  run<T>(id: string, compute: () => Promise<T>): Promise<T> {
    const running = this.running.get(id);
    if (running) return running as Promise<T>;
    const promise = compute().finally(() => this.running.delete(id));
    this.running.set(id, promise);
    return promise;
  }
}

class MemoryCache implements ResultCache {
  private readonly entries = new Map<string, { value: unknown; expires: number }>();
  private readonly generations = new Map<CacheTag, number>();
  private readonly flights = new SingleFlight();

  async remember<T>(tag: CacheTag, key: string, ttlMs: number, compute: () => Promise<T>): Promise<T> {
    const generation = this.generations.get(tag) ?? 0;
    const id = `${tag}:${generation}:${key}`;
    const hit = this.entries.get(id);
    if (hit && hit.expires > Date.now()) return hit.value as T;
    return this.flights.run(id, async () => {
      const value = await compute();
      this.sweep();
      // Stored only if no invalidation came while computing: the value may predate it.
      if ((this.generations.get(tag) ?? 0) === generation) this.entries.set(id, { value, expires: Date.now() + ttlMs });
      return value;
    });
  }

  async invalidate(tag: CacheTag): Promise<void> {
    this.generations.set(tag, (this.generations.get(tag) ?? 0) + 1);
    for (const id of this.entries.keys()) if (id.startsWith(`${tag}:`)) this.entries.delete(id);
  }

  /** Drops expired entries, so that keys never asked again do not pile up. */
  private sweep(): void {
    const now = Date.now();
    for (const [id, entry] of this.entries) if (entry.expires <= now) this.entries.delete(id);
  }
}

/**
 * Entries in Redis, over a fail-fast connection: while Redis is unreachable every read computes. An
 * invalidation that cannot reach Redis is remembered and delivered once it is back; until then this process
 * computes that tag's values rather than trust entries that may predate the change.
 */
class RedisCache implements ResultCache {
  private readonly flights = new SingleFlight();
  private readonly undelivered = new Set<CacheTag>();

  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
    private readonly log: Logger,
  ) {
    redis.on('ready', () => void this.deliverInvalidations());
  }

  private generationKey = (tag: CacheTag) => `${this.prefix}:cache:${tag}:generation`;

  async remember<T>(tag: CacheTag, key: string, ttlMs: number, compute: () => Promise<T>): Promise<T> {
    if (this.undelivered.has(tag)) return compute();
    let id: string | undefined;
    try {
      const generation = (await this.redis.get(this.generationKey(tag))) ?? '0';
      id = `${this.prefix}:cache:${tag}:${generation}:${key}`;
      const hit = await this.redis.get(id);
      if (hit !== null) return JSON.parse(hit) as T;
    } catch (error) {
      this.log.debug({ err: error, key }, 'result cache unavailable; computing');
    }
    if (!id) return compute();
    const entry = id;
    return this.flights.run(entry, async () => {
      const value = await compute();
      await this.redis.set(entry, JSON.stringify(value), 'PX', ttlMs).catch(() => undefined);
      return value;
    });
  }

  async invalidate(tag: CacheTag): Promise<void> {
    try {
      await this.redis.incr(this.generationKey(tag));
    } catch (error) {
      if (!this.undelivered.has(tag)) this.log.warn({ err: error, tag }, 'cache invalidation kept until Redis is back');
      this.undelivered.add(tag);
    }
  }

  private async deliverInvalidations(): Promise<void> {
    for (const tag of [...this.undelivered]) {
      try {
        await this.redis.incr(this.generationKey(tag));
        this.undelivered.delete(tag);
      } catch {
        return; // Still unreachable: the next 'ready' tries again.
      }
    }
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
