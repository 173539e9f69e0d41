import { RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import { DomainError } from '../errors.ts';
import type { Logger } from '../logger.ts';
import type { Redis } from '../redis.ts';
import { sharedLimiter } from '../limiter.ts';

/** The separate budgets of a caller: reads, writes, and expensive work (report documents, syncs, computations). */
export type Budget = 'reads' | 'writes' | 'expensive';
export const BUDGETS: readonly Budget[] = ['reads', 'writes', 'expensive'];

export interface RateLimitOptions {
  enabled: boolean;
  /** Requests per window, by budget. */
  limits: Record<Budget, number>;
  windowMs: number;
  exemptLoopback: boolean;
  /** A fail-fast connection: while it fails, each process counts on its own. */
  redis?: Redis;
  prefix: string;
  log?: Logger;
}

/** Who is counted: the signed-in user, otherwise the client address. */
export interface Caller {
  userId: string | null;
  clientIp: string;
}

const LOOPBACK = /^(127\.|::1$|::ffff:127\.)/;

/** The IETF RateLimit fields (draft-ietf-httpapi-ratelimit-headers): the policy, and what is left of it. */
export type RateLimitHeaders = Record<'RateLimit-Policy' | 'RateLimit', string>;

export class RateLimitedError extends DomainError {
  override readonly status = 429;
  override readonly code = 'RATE_LIMITED';
  constructor(
    budget: Budget,
    readonly retryAfterSeconds: number,
    readonly headers: RateLimitHeaders,
  ) {
    super(`Too many ${budget === 'expensive' ? 'expensive requests' : budget}; retry in ${retryAfterSeconds} seconds`);
    this.extra.retry_after = retryAfterSeconds;
  }
}

/** General per-client request budgets of the whole API, besides the login throttle (docs/security-http.md). */
export class RequestRateLimits {
  private readonly limiters: Record<Budget, RateLimiterAbstract>;

  constructor(private readonly options: RateLimitOptions) {
    this.limiters = Object.fromEntries(BUDGETS.map((budget) => [budget, this.limiter(budget)])) as Record<Budget, RateLimiterAbstract>;
  }

  private limiter(budget: Budget): RateLimiterAbstract {
    const settings = {
      keyPrefix: `${this.options.prefix}:rate:${budget}`,
      points: this.options.limits[budget],
      duration: Math.max(1, Math.ceil(this.options.windowMs / 1000)),
    };
    return sharedLimiter(settings, this.options.redis);
  }

  /**
   * Takes one request from the caller's `budget`: returns the headers that describe what is left, or null when
   * the caller is not limited (limits off, or a loopback caller while loopback is exempt); throws 429 when spent.
   */
  async take(budget: Budget, caller: Caller): Promise<RateLimitHeaders | null> {
    if (!this.options.enabled || (this.options.exemptLoopback && LOOPBACK.test(caller.clientIp))) return null;
    const key = caller.userId ? `user:${caller.userId}` : `ip:${caller.clientIp}`;
    try {
      return this.headers(budget, await this.limiters[budget].consume(key));
    } catch (error) {
      if (!(error instanceof RateLimiterRes)) {
        this.options.log?.warn({ err: error }, 'rate limit store failed; request allowed');
        return null;
      }
      const retryAfter = Math.max(1, Math.ceil(error.msBeforeNext / 1000));
      throw new RateLimitedError(budget, retryAfter, this.headers(budget, error));
    }
  }

  private headers(budget: Budget, state: RateLimiterRes): RateLimitHeaders {
    const window = Math.max(1, Math.ceil(this.options.windowMs / 1000));
    return {
      'RateLimit-Policy': `"${budget}";q=${this.options.limits[budget]};w=${window}`,
      RateLimit: `"${budget}";r=${Math.max(0, state.remainingPoints)};t=${Math.max(0, Math.ceil(state.msBeforeNext / 1000))}`,
    };
  }
}
