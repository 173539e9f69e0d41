import { RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import { TooManyAttemptsError } from '../errors.ts';
import type { Logger } from '../logger.ts';
import type { Redis } from '../redis.ts';
import { sharedLimiter } from '../limiter.ts';

export interface ThrottleOptions {
  maxFailures: number;
  lockoutMs: number;
  exemptLoopback: boolean;
  /** A fail-fast connection: when a command fails, the limiter falls back to this process' memory. */
  redis?: Redis;
  prefix: string;
  log?: Logger;
}

const LOOPBACK = /^(127\.|::1$|::ffff:127\.)/;

/**
 * Counts credential attempts and locks a key out after too many: logins per username and client address,
 * current-password checks (change-password) per user. An attempt is counted atomically *before* the
 * credential is evaluated and forgiven once it succeeds, so a parallel burst gets exactly `maxFailures`
 * evaluations and everything after them, the right password included, is refused.
 */
export class LoginThrottle {
  private readonly logins: RateLimiterAbstract;
  private readonly passwordChecks: RateLimiterAbstract;

  constructor(private readonly options: ThrottleOptions) {
    this.logins = this.limiter('login-failures');
    this.passwordChecks = this.limiter('password-check-failures');
  }

  private limiter(name: string): RateLimiterAbstract {
    const settings = {
      keyPrefix: `${this.options.prefix}:${name}`,
      points: this.options.maxFailures,
      duration: Math.ceil(this.options.lockoutMs / 1000),
    };
    return sharedLimiter(settings, this.options.redis);
  }

  private loginKey(username: string, clientIp: string): string | null {
    if (this.options.exemptLoopback && LOOPBACK.test(clientIp)) return null;
    return `${username.trim().toLowerCase()}|${clientIp}`;
  }

  /** Counts a login attempt; throws 429 when the username and address have none left. */
  async beginLogin(username: string, clientIp: string): Promise<void> {
    const key = this.loginKey(username, clientIp);
    if (key) await take(this.logins, key);
  }

  async loginSucceeded(username: string, clientIp: string): Promise<void> {
    const key = this.loginKey(username, clientIp);
    if (key) await this.forgive(this.logins, key);
  }

  /** Counts a check of the user's current password; throws 429 when the user has none left. */
  async beginPasswordCheck(userId: string): Promise<void> {
    await take(this.passwordChecks, userId);
  }

  async passwordCheckSucceeded(userId: string): Promise<void> {
    await this.forgive(this.passwordChecks, userId);
  }

  private async forgive(limiter: RateLimiterAbstract, key: string): Promise<void> {
    // Forgetting the count is a courtesy: if the store is away, the attempts simply expire later.
    await limiter.delete(key).catch((error: unknown) => this.options.log?.warn({ err: error }, 'attempt counter could not be reset'));
  }
}

async function take(limiter: RateLimiterAbstract, key: string): Promise<void> {
  try {
    await limiter.consume(key, 1);
  } catch (rejection) {
    if (rejection instanceof RateLimiterRes) throw new TooManyAttemptsError(Math.max(1, Math.ceil(rejection.msBeforeNext / 1000)));
    throw rejection;
  }
}
