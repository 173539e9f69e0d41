import { HTTP_PORTS, parseAllowList } from '../../net/allow-list.ts';
import { createGuardedFetch, DestinationRefusedError } from '../../net/guarded-fetch.ts';
import type { Services } from '../../services.ts';

/** Retries of one request after a 429 or 503 whose `Retry-After` is short enough to wait for in place. */
const IN_PLACE_RETRIES = 2;

/** A failure talking to a tracker, in words an admin can act on: never a credential, header or response body. */
export class TrackerError extends Error {
  constructor(
    message: string,
    /** When to try again, for rate limits; otherwise the caller's backoff decides. */
    readonly retryAfterMs: number | null = null,
    readonly status: number | null = null,
  ) {
    super(message);
    this.name = 'TrackerError';
  }
}

/** The link's subject cannot be filed (it is gone from Violet): the link waits and retries, and the connection is not blamed. */
export class SubjectGoneError extends TrackerError {
  constructor(message: string) {
    super(message);
    this.name = 'SubjectGoneError';
  }
}

/** `Retry-After` in milliseconds: seconds or an HTTP date; null when absent or unreadable. */
export function retryAfterMs(value: string | null | undefined, now = Date.now()): number | null {
  if (!value) return null;
  if (/^\d+$/.test(value.trim())) return Number(value.trim()) * 1000;
  const at = Date.parse(value);
  return Number.isNaN(at) ? null : Math.max(0, at - now);
}

type FetchLike = (input: string | URL | Request, init?: RequestInit) => Promise<Response>;

const fetchers = new WeakMap<Services, FetchLike>();

/**
 * The `fetch` both tracker clients are given: every request goes through the outgoing-request guard (public
 * addresses or TRACKER_ALLOWED_HOSTS, no redirects), ends after TRACKER_TIMEOUT, and waits out a short
 * `Retry-After` (at most TRACKER_MAX_RETRY_WAIT) before trying again.
 */
export function trackerFetch(services: Services): FetchLike {
  let fetcher = fetchers.get(services);
  if (fetcher) return fetcher;
  const { TRACKER_ALLOWED_HOSTS, TRACKER_TIMEOUT, TRACKER_MAX_RETRY_WAIT } = services.config;
  const guarded = createGuardedFetch({ allowList: parseAllowList(TRACKER_ALLOWED_HOSTS, HTTP_PORTS), maxRedirects: 0 });
  fetcher = async (input, init = {}) => {
    // axios' fetch adapter hands over a Request; octokit a URL and options.
    const request = input instanceof Request ? input : null;
    const url = request ? request.url : String(input);
    const method = request?.method ?? init.method ?? 'GET';
    const headers = new Headers(request?.headers ?? init.headers);
    const body = request ? (method === 'GET' || method === 'HEAD' ? undefined : Buffer.from(await request.arrayBuffer())) : init.body;
    const signals = [request?.signal, init.signal].filter((signal): signal is AbortSignal => Boolean(signal));
    for (let attempt = 0; ; attempt++) {
      const response = await guarded(url, {
        method,
        headers: Object.fromEntries(headers),
        body: body as never,
        signal: AbortSignal.any([...signals, AbortSignal.timeout(TRACKER_TIMEOUT)]),
      });
      if ((response.status !== 429 && response.status !== 503) || attempt >= IN_PLACE_RETRIES) return response as unknown as Response;
      const wait = retryAfterMs(response.headers.get('retry-after'));
      if (wait === null || wait > TRACKER_MAX_RETRY_WAIT) return response as unknown as Response;
      await response.body?.cancel().catch(() => undefined);
      await new Promise((resolve) => setTimeout(resolve, wait));
    }
  };
  fetchers.set(services, fetcher);
  return fetcher;
}

const STATUS_WORDS: Record<number, string> = {
  400: 'the tracker refused the request (400): check the project, issue type and field mapping',
  401: 'the tracker refused the credentials (401): check the user name and token',
  403: 'the credentials lack a permission the tracker requires (403)',
  404: 'the tracker does not know the project or issue (404)',
  410: 'the issue was deleted in the tracker (410)',
};

/** The status and `Retry-After` of a failed answer, whichever client raised it (jira.js wraps axios; octokit its own). */
function answerOf(error: unknown): { status: number; retryAfter: string | null } | null {
  for (let cause: unknown = error; cause && typeof cause === 'object'; cause = (cause as { cause?: unknown }).cause) {
    const candidate = cause as { status?: unknown; response?: { status?: unknown; headers?: unknown } };
    const status = typeof candidate.status === 'number' ? candidate.status : candidate.response?.status;
    if (typeof status === 'number' && status >= 400) {
      const headers = candidate.response?.headers as Record<string, string> | { get?: (name: string) => string | null } | undefined;
      const retryAfter =
        typeof (headers as { get?: unknown })?.get === 'function'
          ? ((headers as { get: (name: string) => string | null }).get('retry-after') ?? null)
          : ((headers as Record<string, string> | undefined)?.['retry-after'] ?? null);
      const inner = answerOf((cause as { cause?: unknown }).cause);
      return { status, retryAfter: retryAfter ?? inner?.retryAfter ?? null };
    }
    if (cause instanceof DestinationRefusedError) return null;
  }
  return null;
}

/** Any failure of a tracker call as a TrackerError in plain words (the library's error, which may hold headers, is dropped). */
export function trackerErrorOf(error: unknown, timeoutMs: number): TrackerError {
  if (error instanceof TrackerError) return error;
  for (let cause: unknown = error; cause instanceof Error; cause = cause.cause) {
    if (cause instanceof DestinationRefusedError) return new TrackerError(`the tracker address is refused: ${cause.message}`);
  }
  const answer = answerOf(error);
  if (answer) {
    const { status } = answer;
    if (status === 429) {
      const wait = retryAfterMs(answer.retryAfter) ?? 60_000;
      return new TrackerError(`the tracker is rate limiting requests (429); retrying in ${Math.ceil(wait / 1000)} s`, wait, status);
    }
    return new TrackerError(STATUS_WORDS[status] ?? `the tracker answered ${status}`, null, status);
  }
  for (let cause: unknown = error; cause && typeof cause === 'object'; cause = (cause as { cause?: unknown }).cause) {
    const { name, code } = cause as { name?: string; code?: string };
    if (
      name === 'TimeoutError' ||
      name === 'AbortError' ||
      code === 'ECONNABORTED' ||
      code === 'ETIMEDOUT' ||
      code === 'UND_ERR_HEADERS_TIMEOUT'
    )
      return new TrackerError(`no answer from the tracker within ${timeoutMs} ms`);
    if (typeof code === 'string' && /^E[A-Z_]+$/.test(code) && code !== 'ERR_BAD_REQUEST' && code !== 'ERR_BAD_RESPONSE')
      return new TrackerError(`connection to the tracker failed: ${code}`);
  }
  return new TrackerError('the request to the tracker failed');
}
