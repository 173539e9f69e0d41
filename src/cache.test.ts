import { randomBytes } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { createResultCache, type ResultCache } from './cache.ts';
import { EventBus, event } from './events/bus.ts';
import { createLogger } from './logger.ts';
import { connectRedis } from './redis.ts';
import { REDIS_URL } from '../test/helpers/app.ts';

const log = createLogger('silent');
const redis = connectRedis(REDIS_URL, log);
const prefix = `violet-cache-test-${randomBytes(4).toString('hex')}`;
afterAll(async () => {
  const keys = await redis.keys(`${prefix}:*`);
  if (keys.length) await redis.del(...keys);
  redis.disconnect();
});

/** A computation that counts its runs and finishes when told to. */
function gate<T>(value: T) {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  const runs = { count: 0 };
  const compute = async () => {
    runs.count += 1;
    await opened;
    return value;
  };
  return { compute, open, runs };
}

const backends: [string, () => { cache: ResultCache; bus: EventBus }][] = [
  [
    'in-process',
    () => {
      const bus = EventBus.inProcess(log);
      return { cache: createResultCache(bus, log), bus };
    },
  ],
  [
    'Redis',
    () => {
      const bus = EventBus.inProcess(log);
      return { cache: createResultCache(bus, log, redis, `${prefix}-${randomBytes(3).toString('hex')}`), bus };
    },
  ],
];

describe.each(backends)('result cache (%s)', (_name, create) => {
  it('concurrent misses of one key run the computation once and all get its value', async () => {
    const { cache } = create();
    const { compute, open, runs } = gate({ figure: 42 });
    const answers = Promise.all([1, 2, 3, 4].map(() => cache.remember('analytics', 'burst', 60_000, compute)));
    await new Promise((resolve) => setTimeout(resolve, 20));
    open();
    expect(await answers).toEqual([{ figure: 42 }, { figure: 42 }, { figure: 42 }, { figure: 42 }]);
    expect(runs.count).toBe(1);
    expect(await cache.remember('analytics', 'burst', 60_000, async () => ({ figure: 0 }))).toEqual({ figure: 42 });
  });

  it('a failed computation is not kept: the next call computes again', async () => {
    const { cache } = create();
    await expect(cache.remember('analytics', 'failing', 60_000, async () => Promise.reject(new Error('down')))).rejects.toThrow('down');
    expect(await cache.remember('analytics', 'failing', 60_000, async () => 'recovered')).toBe('recovered');
  });

  it('coverage and test changes drop analytics, not content-keyed renderings', async () => {
    const { cache, bus } = create();
    await cache.remember('analytics', 'figures', 60_000, async () => 'before');
    await cache.remember('rendered', 'pdf:abc', 60_000, async () => 'rendering');
    await bus.publish([event('coverage.changed', { techniqueIds: [], reason: 'test' }, null)]);
    await expect.poll(() => cache.remember('analytics', 'figures', 60_000, async () => 'after')).toBe('after');
    expect(await cache.remember('rendered', 'pdf:abc', 60_000, async () => 'rendered again')).toBe('rendering');
  });

  it('entries expire after their time to live', async () => {
    const { cache } = create();
    await cache.remember('rendered', 'short', 30, async () => 'first');
    await new Promise((resolve) => setTimeout(resolve, 60));
    expect(await cache.remember('rendered', 'short', 30, async () => 'second')).toBe('second');
  });
});

describe('in-process result cache', () => {
  it('a value computed across an invalidation is handed to its callers but not kept', async () => {
    const { cache } = backends[0][1]();
    const { compute, open } = gate('stale');
    const pending = cache.remember('analytics', 'racing', 60_000, compute);
    await cache.invalidate('analytics');
    open();
    expect(await pending).toBe('stale');
    expect(await cache.remember('analytics', 'racing', 60_000, async () => 'fresh')).toBe('fresh');
  });
});
