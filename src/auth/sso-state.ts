import type { CacheItem, CacheProvider } from '@node-saml/node-saml';
import { setNewest } from '../bounded-map.ts';
import { ServiceUnavailableError } from '../errors.ts';
import type { Logger } from '../logger.ts';
import type { Redis } from '../redis.ts';

/** How long an issued AuthnRequest id waits for its answer: time enough for a sign-in with MFA at the IdP. */
export const SSO_REQUEST_TTL_MS = 30 * 60_000;
/** Pending request ids one process keeps without Redis; past it the oldest are forgotten first. */
const MEMORY_REQUEST_MAX = 100_000;

/**
 * What single sign-on remembers between requests: the ids of the AuthnRequests this service issued (node-saml's
 * `cacheProvider`, so that only answers to them are accepted) and the ids of the assertions already used.
 * In Redis when configured, so every API process shares them; in this process' memory otherwise.
 */
export interface SsoState {
  readonly requests: CacheProvider;
  /** Records an assertion id until `until`; false when it is already recorded (a replay). */
  claimAssertion(id: string, until: Date): Promise<boolean>;
}

export class SsoStateUnavailableError extends ServiceUnavailableError {
  constructor() {
    super('Single sign-on is unavailable for a moment; try again', 5, 'SSO_UNAVAILABLE');
  }
}

export function createSsoState(redis: Redis | undefined, prefix: string, log: Logger): SsoState {
  return redis ? new RedisSsoState(redis, prefix, log) : new MemorySsoState();
}

class RedisSsoState implements SsoState {
  readonly requests: CacheProvider;

  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
    private readonly log: Logger,
  ) {
    const key = (id: string) => `${prefix}:sso:request:${id}`;
    this.requests = {
      saveAsync: (id, value) =>
        this.guard(async (): Promise<CacheItem | null> => {
          const stored = await redis.set(key(id), value, 'PX', SSO_REQUEST_TTL_MS, 'NX');
          return stored === 'OK' ? { value, createdAt: Date.now() } : null;
        }),
      getAsync: (id) => this.guard(() => redis.get(key(id))),
      removeAsync: (id) => (id ? this.guard(() => redis.getdel(key(id))) : Promise.resolve(null)),
    };
  }

  claimAssertion(id: string, until: Date): Promise<boolean> {
    const ttl = Math.max(1, until.getTime() - Date.now());
    return this.guard(async () => (await this.redis.set(`${this.prefix}:sso:assertion:${id}`, '1', 'PX', ttl, 'NX')) === 'OK');
  }

  /** Without the shared state no answer can be checked: single sign-on waits for Redis (503) rather than guess. */
  private async guard<T>(command: () => Promise<T>): Promise<T> {
    try {
      return await command();
    } catch (error) {
      this.log.warn({ err: error }, 'single sign-on state unreachable in Redis');
      throw new SsoStateUnavailableError();
    }
  }
}

/** Entries that expire, forgotten lazily when touched or swept; insertion order is age order. */
class ExpiringMap {
  private readonly entries = new Map<string, { value: string; createdAt: number; expiresAt: number }>();
  private nextSweep = 0;

  constructor(private readonly max = Number.POSITIVE_INFINITY) {}

  get(key: string) {
    const entry = this.entries.get(key);
    if (entry && entry.expiresAt <= Date.now()) this.entries.delete(key);
    return this.entries.get(key);
  }

  /** Adds the entry unless a live one has the key; false when it was there. */
  add(key: string, value: string, expiresAt: number): boolean {
    this.sweep();
    if (this.get(key)) return false;
    setNewest(this.entries, key, { value, createdAt: Date.now(), expiresAt }, this.max);
    return true;
  }

  take(key: string): string | null {
    const entry = this.get(key);
    this.entries.delete(key);
    return entry?.value ?? null;
  }

  private sweep(): void {
    const now = Date.now();
    if (now < this.nextSweep) return;
    this.nextSweep = now + 60_000;
    for (const [key, entry] of this.entries) if (entry.expiresAt <= now) this.entries.delete(key);
  }
}

class MemorySsoState implements SsoState {
  private readonly pending = new ExpiringMap(MEMORY_REQUEST_MAX);
  private readonly used = new ExpiringMap();
  readonly requests: CacheProvider = {
    saveAsync: async (id, value) => {
      const added = this.pending.add(id, value, Date.now() + SSO_REQUEST_TTL_MS);
      return added ? { value, createdAt: Date.now() } : null;
    },
    getAsync: async (id) => this.pending.get(id)?.value ?? null,
    removeAsync: async (id) => (id ? this.pending.take(id) : null),
  };

  async claimAssertion(id: string, until: Date): Promise<boolean> {
    return this.used.add(id, '1', until.getTime());
  }
}
