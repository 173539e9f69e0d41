import { RateLimiterMemory, RateLimiterRedis, type RateLimiterAbstract } from 'rate-limiter-flexible';
import { TooManyAttemptsError } from '../errors.ts';
import type { Redis } from '../redis.ts';

export interface ThrottleOptions {
  maxFailures: number;
  lockoutMs: number;
  exemptLoopback: boolean;
  redis?: Redis;
  prefix: string;
}

const LOOPBACK = /^(127\.|::1$|::ffff:127\.)/;

/** Counts failed logins per username and client address and locks the pair out after too many. */
export class LoginThrottle {
  private readonly limiter: RateLimiterAbstract;

  constructor(private readonly options: ThrottleOptions) {
    const settings = {
      keyPrefix: `${options.prefix}:login-failures`,
      points: options.maxFailures,
      duration: Math.ceil(options.lockoutMs / 1000),
    };
    this.limiter = options.redis
      ? new RateLimiterRedis({ ...settings, storeClient: options.redis })
      : new RateLimiterMemory(settings);
  }

  private key(username: string, clientIp: string): string | null {
    if (this.options.exemptLoopback && LOOPBACK.test(clientIp)) return null;
    return `${username.trim().toLowerCase()}|${clientIp}`;
  }

  async assertAllowed(username: string, clientIp: string): Promise<void> {
    const key = this.key(username, clientIp);
    if (!key) return;
    const state = await this.limiter.get(key);
    if (state && state.consumedPoints >= this.options.maxFailures) {
      throw new TooManyAttemptsError(Math.ceil(state.msBeforeNext / 1000));
    }
  }

  async recordFailure(username: string, clientIp: string): Promise<void> {
    const key = this.key(username, clientIp);
    if (key) await this.limiter.penalty(key, 1);
  }

  async recordSuccess(username: string, clientIp: string): Promise<void> {
    const key = this.key(username, clientIp);
    if (key) await this.limiter.delete(key);
  }
}
