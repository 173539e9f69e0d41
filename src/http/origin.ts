import type { IncomingMessage } from 'node:http';
import type { Config } from '../config.ts';

/** Express' compiled `trust proxy` setting: whether the hop at `index` (0 = the socket's peer) is trusted. */
export type ProxyTrust = (address: string, index: number) => boolean;

/** Decides whether a browser origin is one of the service's own. */
export interface OriginPolicy {
  /** `origin` as sent in `Origin` (or the origin of a `Referer`); `req` supplies the host when none is configured. */
  isOwn(origin: string, req: IncomingMessage): boolean;
}

const DEFAULT_PORT: Record<string, string> = { 'http:': '80', 'https:': '443' };

function parseOrigin(value: string): URL | null {
  if (!URL.canParse(value)) return null; // "null" (opaque origins) lands here
  const url = new URL(value);
  return DEFAULT_PORT[url.protocol] ? url : null;
}

function firstForwarded(value: string | string[] | undefined): string | undefined {
  const text = Array.isArray(value) ? value[0] : value;
  return text?.split(',')[0]?.trim() || undefined;
}

/** The host and, when a trusted proxy says so, the scheme the client addressed, as Express' `req.host` reads them. */
function addressedAs(req: IncomingMessage, trust: ProxyTrust): { host?: string; scheme?: string } {
  const fromProxy = trust(req.socket.remoteAddress ?? '', 0);
  const host = (fromProxy && firstForwarded(req.headers['x-forwarded-host'])) || req.headers.host;
  const proto = fromProxy ? firstForwarded(req.headers['x-forwarded-proto'])?.toLowerCase() : undefined;
  return { host, scheme: proto ? `${proto}:` : undefined };
}

/**
 * Same host and port as the request's Host. The scheme is compared only when a trusted proxy names it: a
 * TLS-terminating proxy that is not trusted would otherwise make every browser request look foreign.
 */
function matchesRequestHost(origin: URL, req: IncomingMessage, trust: ProxyTrust): boolean {
  const { host, scheme } = addressedAs(req, trust);
  if (!host || (scheme && scheme !== origin.protocol)) return false;
  if (!URL.canParse(`http://${host}`)) return false;
  const addressed = new URL(`http://${host}`);
  if (addressed.username || addressed.password || addressed.pathname !== '/') return false;
  const defaultPort = DEFAULT_PORT[scheme ?? origin.protocol];
  // new URL() drops :80 for http: read the port from the header text instead.
  const port = /:(\d+)$/.exec(host)?.[1] ?? defaultPort;
  return addressed.hostname === origin.hostname && Number(port) === Number(origin.port || DEFAULT_PORT[origin.protocol]);
}

/**
 * The service's own origins: PUBLIC_URL and ALLOWED_ORIGINS when either is set; otherwise the origin whose
 * host is the one the request was sent to (Host, or X-Forwarded-Host/-Proto from a trusted proxy).
 */
export function originPolicy(config: Pick<Config, 'PUBLIC_URL' | 'ALLOWED_ORIGINS'>, trust: ProxyTrust): OriginPolicy {
  const configured = new Set(config.ALLOWED_ORIGINS);
  if (config.PUBLIC_URL) configured.add(new URL(config.PUBLIC_URL).origin);
  return {
    isOwn(value, req) {
      const origin = parseOrigin(value);
      if (!origin) return false;
      return configured.size ? configured.has(origin.origin) : matchesRequestHost(origin, req, trust);
    },
  };
}

/** The origin of a Referer header, or null when it is not an http(s) URL. */
export function refererOrigin(referer: string): string | null {
  return parseOrigin(referer)?.origin ?? null;
}
