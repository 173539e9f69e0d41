import type { LookupAddress } from 'node:dns';
import type { LookupFunction } from 'node:net';
import type { Agent, buildConnector, RequestInit, Response } from 'undici';
import { EMPTY_ALLOW_LIST, isPublicUnicast, parseAddress, type HostAllowList } from './allow-list.ts';
import { allowedAddresses, DestinationRefusedError, isAllowedAddress, type Resolve, systemResolve } from './destinations.ts';

export { DestinationRefusedError, type Resolve } from './destinations.ts';

export interface GuardedFetchOptions {
  /** Internal hosts that may be reached although they are not public unicast addresses. */
  allowList?: HostAllowList;
  /** Redirects followed, each to the same host and each checked again; with 0, a redirect is answered as it is. */
  maxRedirects?: number;
  resolve?: Resolve;
}

export type GuardedFetch = (url: string | URL, init?: Omit<RequestInit, 'dispatcher' | 'redirect'>) => Promise<Response>;

export const DEFAULT_MAX_REDIRECTS = 5;
const REDIRECTS = new Set([301, 302, 303, 307, 308]);

/** The port a URL connects to. */
const portOf = (url: URL | { protocol: string; port: string }) => Number(url.port) || (url.protocol === 'https:' ? 443 : 80);

/**
 * The connector's name lookup for one port: resolves once, keeps only allowed addresses and hands exactly those to
 * the socket, so the connection goes to a checked address and a second, rebound DNS answer is never asked for.
 */
function guardedLookup(allowList: HostAllowList, port: number, resolve: Resolve): LookupFunction {
  return (hostname, options, callback) => {
    allowedAddresses(hostname, port, allowList, resolve).then(
      (allowed) => {
        const wanted = options.family === 4 || options.family === 6 ? allowed.filter(({ family }) => family === options.family) : allowed;
        if (!wanted.length) {
          callback(new DestinationRefusedError(`${hostname} resolves to no public address`), '', 0);
        } else if (options.all) {
          (callback as unknown as (error: null, addresses: LookupAddress[]) => void)(null, wanted);
        } else {
          callback(null, wanted[0].address, wanted[0].family);
        }
      },
      (error: NodeJS.ErrnoException) => callback(error, '', 0),
    );
  };
}

/** undici's connector, with the guarded lookup of the port each connection goes to (allow-list entries name ports). */
function guardedConnector(build: typeof buildConnector, allowList: HostAllowList, resolve: Resolve): buildConnector.connector {
  const connectors = new Map<number, buildConnector.connector>();
  return (options, callback) => {
    const port = portOf({ protocol: options.protocol, port: String(options.port ?? '') });
    let connector = connectors.get(port);
    if (!connector) {
      connector = build({ lookup: guardedLookup(allowList, port, resolve) });
      connectors.set(port, connector);
    }
    return connector(options, callback);
  };
}

/** The URL if it may be requested as it is: http(s), and an address literal only when it is public or listed. */
function checkedUrl(url: URL, allowList: HostAllowList): URL {
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new DestinationRefusedError(`only http and https URLs may be fetched, not ${url.protocol}`);
  // WHATWG parsing has already rewritten numeric forms (2130706433, 0177.0.0.1, 0x7f.1) into dotted decimal.
  const literal = parseAddress(url.hostname);
  if (literal && !isPublicUnicast(literal) && !allowList.allowsHost(url.hostname, portOf(url))) {
    throw new DestinationRefusedError(`${url.hostname} is not a public address`);
  }
  return url;
}

/**
 * Checks a URL before it is stored (a webhook receiver): http(s), and every address its host resolves to now is
 * public unicast or on the allow-list. Requests are checked again when made, since DNS answers change.
 */
export async function assertDestinationAllowed(
  input: string,
  options: Pick<GuardedFetchOptions, 'allowList' | 'resolve'> = {},
): Promise<URL> {
  const allowList = options.allowList ?? EMPTY_ALLOW_LIST;
  let url: URL;
  try {
    url = new URL(input);
  } catch {
    throw new DestinationRefusedError('not a valid absolute URL');
  }
  checkedUrl(url, allowList);
  if (url.username || url.password) throw new DestinationRefusedError('credentials in the URL are not allowed');
  if (parseAddress(url.hostname) || allowList.allowsHost(url.hostname, portOf(url))) return url;
  let addresses: LookupAddress[];
  try {
    addresses = await (options.resolve ?? systemResolve)(url.hostname);
  } catch {
    throw new DestinationRefusedError(`${url.hostname} does not resolve`);
  }
  const refused = addresses.find(({ address }) => !isAllowedAddress(allowList, address, portOf(url)));
  if (!addresses.length || refused) {
    throw new DestinationRefusedError(`${url.hostname} resolves to ${refused ? 'a non-public address' : 'nothing'}`);
  }
  return url;
}

/** The guard's own refusal when a failed fetch was caused by it (undici wraps connector errors in "fetch failed"). */
function refusalIn(error: unknown): DestinationRefusedError | null {
  for (let cause = error; cause instanceof Error; cause = cause.cause) {
    if (cause instanceof DestinationRefusedError) return cause;
  }
  return null;
}

/**
 * A `fetch` for URLs that users configure (knowledge sources, later webhooks): http(s) only; every address it
 * connects to is public unicast or on the allow-list, checked on the resolved address the socket then uses;
 * redirects are followed by hand, only to the same host, at most `maxRedirects` times.
 * Refusals throw DestinationRefusedError; other failures are undici's own errors.
 */
export function createGuardedFetch(options: GuardedFetchOptions = {}): GuardedFetch {
  const allowList = options.allowList ?? EMPTY_ALLOW_LIST;
  const maxRedirects = options.maxRedirects ?? DEFAULT_MAX_REDIRECTS;
  // undici is loaded at the first fetch: most processes never fetch a configured URL.
  let client: Promise<{ fetch: typeof import('undici').fetch; dispatcher: Agent }> | undefined;
  const undici = () =>
    (client ??= import('undici').then(({ Agent, buildConnector, fetch }) => ({
      fetch,
      dispatcher: new Agent({ connect: guardedConnector(buildConnector, allowList, options.resolve ?? systemResolve) }),
    })));
  return async (input, init = {}) => {
    let url = checkedUrl(new URL(input), allowList);
    const { fetch, dispatcher } = await undici();
    for (let redirects = 0; ; redirects++) {
      let response: Response;
      try {
        response = await fetch(url, { ...init, redirect: 'manual', dispatcher });
      } catch (error) {
        throw refusalIn(error) ?? error;
      }
      const location = REDIRECTS.has(response.status) ? response.headers.get('location') : null;
      if (location === null || maxRedirects === 0) return response;
      await response.body?.cancel();
      if (redirects >= maxRedirects) throw new DestinationRefusedError(`more than ${maxRedirects} redirects`);
      const next = new URL(location, url);
      if (next.hostname !== url.hostname) throw new DestinationRefusedError(`redirect from ${url.hostname} to another host`);
      url = checkedUrl(next, allowList);
    }
  };
}
