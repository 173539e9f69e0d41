import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { REDIS_URL } from '../../test/helpers/app.ts';
import { createLogger } from '../logger.ts';
import { connectRedisFailFast } from '../redis.ts';
import { createSsoState, SSO_REQUEST_TTL_MS, SsoStateUnavailableError, type SsoState } from './sso-state.ts';

const log = createLogger('silent');
const redis = connectRedisFailFast(REDIS_URL, 2_000, log);
const prefix = `violet-sso-test-${randomBytes(4).toString('hex')}`;
// The request-path connection refuses commands until it is ready instead of queueing them.
beforeAll(async () => {
  if (redis.status !== 'ready') await new Promise((resolve) => redis.once('ready', resolve));
});
afterAll(async () => {
  const keys = await redis.keys(`${prefix}:*`);
  if (keys.length) await redis.del(...keys);
  redis.disconnect();
});

const stores: [string, () => SsoState][] = [
  ['Redis', () => createSsoState(redis, prefix, log)],
  ['memory', () => createSsoState(undefined, prefix, log)],
];

describe.each(stores)('SSO state in %s', (_name, create) => {
  it('remembers an issued request id until it is taken, once', async () => {
    const { requests } = create();
    const id = `_${randomBytes(8).toString('hex')}`;
    expect(await requests.getAsync(id)).toBeNull();
    expect(await requests.saveAsync(id, '2026-11-25T10:00:00Z')).toMatchObject({ value: '2026-11-25T10:00:00Z' });
    expect(await requests.saveAsync(id, 'again')).toBeNull();
    expect(await requests.getAsync(id)).toBe('2026-11-25T10:00:00Z');
    expect(await requests.removeAsync(id)).toBe('2026-11-25T10:00:00Z');
    expect(await requests.getAsync(id)).toBeNull();
    expect(await requests.removeAsync(null)).toBeNull();
  });

  it('claims an assertion id once, until its expiry', async () => {
    const state = create();
    const id = `_${randomBytes(8).toString('hex')}`;
    expect(await state.claimAssertion(id, new Date(Date.now() + 60_000))).toBe(true);
    expect(await state.claimAssertion(id, new Date(Date.now() + 60_000))).toBe(false);
    const brief = `_${randomBytes(8).toString('hex')}`;
    expect(await state.claimAssertion(brief, new Date(Date.now() + 30))).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 60));
    expect(await state.claimAssertion(brief, new Date(Date.now() + 60_000))).toBe(true);
  });
});

describe('SSO state', () => {
  it('keeps its Redis keys under the configured prefix, requests expiring with the request lifetime', async () => {
    const own = `${prefix}:keys`;
    const state = createSsoState(redis, own, log);
    await state.requests.saveAsync('_prefixed', 'now');
    await state.claimAssertion('_used', new Date(Date.now() + 60_000));
    expect((await redis.keys(`${own}:*`)).sort()).toEqual([`${own}:sso:assertion:_used`, `${own}:sso:request:_prefixed`]);
    const ttl = await redis.pttl(`${own}:sso:request:_prefixed`);
    expect(ttl).toBeGreaterThan(SSO_REQUEST_TTL_MS - 5_000);
    expect(ttl).toBeLessThanOrEqual(SSO_REQUEST_TTL_MS);
  });

  it('in memory, forgets request ids after the request lifetime', async () => {
    vi.useFakeTimers();
    try {
      const { requests } = createSsoState(undefined, prefix, log);
      await requests.saveAsync('_old', 'then');
      vi.advanceTimersByTime(SSO_REQUEST_TTL_MS + 1);
      expect(await requests.getAsync('_old')).toBeNull();
    } finally {
      vi.useRealTimers();
    }
  });

  it('answers 503 SSO_UNAVAILABLE, not a verdict, while Redis cannot be reached', async () => {
    const unreachable = connectRedisFailFast('redis://127.0.0.1:1', 200, log);
    unreachable.on('error', () => {});
    try {
      const state = createSsoState(unreachable, prefix, log);
      await expect(state.requests.getAsync('_x')).rejects.toBeInstanceOf(SsoStateUnavailableError);
      await expect(state.claimAssertion('_x', new Date(Date.now() + 1_000))).rejects.toMatchObject({
        status: 503,
        code: 'SSO_UNAVAILABLE',
      });
    } finally {
      unreachable.disconnect();
    }
  });
});
