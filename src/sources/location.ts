import { readdir, readFile, stat } from 'node:fs/promises';
import type { Dirent, Stats } from 'node:fs';
import { join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Config } from '../config.ts';
import { DomainError } from '../errors.ts';
import { HTTP_PORTS, parseAllowList } from '../net/allow-list.ts';
import { createGuardedFetch, DestinationRefusedError, type GuardedFetch } from '../net/guarded-fetch.ts';

/**
 * A knowledge source could not be read or understood: unreachable URL, missing file, HTTP error, too large, or not
 * the expected format. `reason` is recorded on the source and shown to admins, so it is always our own wording:
 * never file contents, parser excerpts or a remote server's answer (those go to the log through `cause`).
 */
export class SourceUnavailableError extends DomainError {
  override readonly status = 502;
  override readonly code = 'SOURCE_UNAVAILABLE';
  constructor(
    location: string,
    readonly reason: string,
    options?: { cause?: unknown },
  ) {
    super(`Could not read ${location}: ${reason}`, options);
    this.extra.location = location;
  }
}

/** Larger answers are refused rather than buffered (the full ATT&CK bundle is ~35 MB). */
export const MAX_SOURCE_BYTES = 256 * 1024 * 1024;
export const FETCH_TIMEOUT_MS = 120_000;

/** What decides where sources may be fetched from: the allow-list of internal mirrors. */
export type SourceAccess = Pick<Config, 'SOURCE_ALLOWED_HOSTS'>;

/** One guarded fetch (and its connection pool) per allow-list, shared by every sync of the process. */
const fetchers = new Map<string, GuardedFetch>();
function sourceFetch(access: SourceAccess): GuardedFetch {
  let fetcher = fetchers.get(access.SOURCE_ALLOWED_HOSTS);
  if (!fetcher) {
    fetcher = createGuardedFetch({ allowList: parseAllowList(access.SOURCE_ALLOWED_HOSTS, HTTP_PORTS) });
    fetchers.set(access.SOURCE_ALLOWED_HOSTS, fetcher);
  }
  return fetcher;
}

const NETWORK_REASONS: Record<string, string> = {
  ENOTFOUND: 'host not found',
  EAI_AGAIN: 'host not found',
  ECONNREFUSED: 'connection refused',
  ECONNRESET: 'connection reset',
  EHOSTUNREACH: 'host unreachable',
  ENETUNREACH: 'network unreachable',
  UND_ERR_CONNECT_TIMEOUT: 'timed out',
  UND_ERR_HEADERS_TIMEOUT: 'timed out',
  UND_ERR_BODY_TIMEOUT: 'timed out',
  UND_ERR_SOCKET: 'connection closed',
};

const FILE_REASONS: Record<string, string> = {
  ENOENT: 'file not found',
  ENOTDIR: 'file not found',
  EACCES: 'permission denied',
  EPERM: 'permission denied',
  EISDIR: 'not a file',
  ELOOP: 'too many symbolic links',
};

/** The errno-style code of an error or of the first of its causes that has one. */
function codeOf(error: unknown): string | undefined {
  for (let cause = error; cause instanceof Error; cause = cause.cause) {
    const code = (cause as NodeJS.ErrnoException).code;
    if (code) return code;
  }
  return undefined;
}

/** Why a fetch failed, in our words. */
function networkReason(error: unknown): string {
  if (error instanceof DestinationRefusedError) return `refused (${error.message})`;
  if (error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError')) return 'timed out';
  const code = codeOf(error);
  if (code && NETWORK_REASONS[code]) return NETWORK_REASONS[code];
  if (code?.startsWith('ERR_TLS') || code?.includes('CERT')) return 'TLS handshake failed';
  return 'connection failed';
}

const fileReason = (error: unknown) => FILE_REASONS[codeOf(error) ?? ''] ?? 'could not be read';

export const isHttp = (location: string) => /^https?:\/\//i.test(location);

/** A local path for `file:` URLs and plain paths (relative paths resolve against the working directory). */
export function localPath(location: string): string {
  return location.startsWith('file:') ? fileURLToPath(location) : resolve(location);
}

/** `base` joined with relative parts: URL joining for http(s), path joining otherwise. */
export function joinLocation(base: string, ...parts: string[]): string {
  if (isHttp(base)) {
    const url = new URL(base.endsWith('/') ? base : `${base}/`);
    return new URL(parts.map(encodeURI).join('/'), url).toString();
  }
  return join(localPath(base), ...parts);
}

/**
 * How to read a source: a smaller byte cap than MAX_SOURCE_BYTES, request headers (e.g. a media type to accept),
 * and a callback given the response headers of an http(s) read that succeeded.
 */
export interface ReadOptions {
  maxBytes?: number;
  headers?: Record<string, string>;
  onHeaders?: (headers: Headers) => void;
}

/** The bytes at a location (http(s) URL through the guarded fetch, file: URL or path), never more than the cap held. */
export async function readSourceBytes(location: string, access: SourceAccess, options: ReadOptions = {}): Promise<Buffer> {
  const maxBytes = Math.min(options.maxBytes ?? MAX_SOURCE_BYTES, MAX_SOURCE_BYTES);
  return isHttp(location) ? fetchSourceBytes(location, access, maxBytes, options) : readLocalBytes(location, maxBytes);
}

async function fetchSourceBytes(
  location: string,
  access: SourceAccess,
  maxBytes: number,
  { headers, onHeaders }: ReadOptions,
): Promise<Buffer> {
  const tooLarge = () => new SourceUnavailableError(location, `larger than ${maxBytes} bytes`);
  try {
    const response = await sourceFetch(access)(location, { signal: AbortSignal.timeout(FETCH_TIMEOUT_MS), headers });
    if (!response.ok) {
      await response.body?.cancel();
      throw new SourceUnavailableError(location, `HTTP ${response.status}`);
    }
    if (Number(response.headers.get('content-length') ?? 0) > maxBytes) {
      await response.body?.cancel();
      throw tooLarge();
    }
    const chunks: Buffer[] = [];
    let total = 0;
    for await (const chunk of response.body ?? []) {
      total += chunk.byteLength;
      if (total > maxBytes) throw tooLarge();
      chunks.push(Buffer.from(chunk));
    }
    onHeaders?.(response.headers);
    return Buffer.concat(chunks);
  } catch (error) {
    if (error instanceof SourceUnavailableError) throw error;
    throw new SourceUnavailableError(
      location,
      error instanceof TypeError && codeOf(error) === 'ERR_INVALID_URL' ? 'not a valid URL' : networkReason(error),
      { cause: error },
    );
  }
}

async function readLocalBytes(location: string, maxBytes = MAX_SOURCE_BYTES): Promise<Buffer> {
  let path: string;
  try {
    path = localPath(location);
  } catch (error) {
    throw new SourceUnavailableError(location, 'not a valid file: URL', { cause: error });
  }
  let info: Stats;
  try {
    info = await stat(path);
  } catch (error) {
    throw new SourceUnavailableError(location, fileReason(error), { cause: error });
  }
  if (!info.isFile()) throw new SourceUnavailableError(location, 'not a file');
  if (info.size > maxBytes) throw new SourceUnavailableError(location, `larger than ${maxBytes} bytes`);
  try {
    return await readFile(path);
  } catch (error) {
    throw new SourceUnavailableError(location, fileReason(error), { cause: error });
  }
}

export const readSourceText = async (location: string, access: SourceAccess) => (await readSourceBytes(location, access)).toString('utf8');

/** Whether a location names a local directory. */
export async function isLocalDirectory(location: string): Promise<boolean> {
  if (isHttp(location)) return false;
  try {
    return (await stat(localPath(location))).isDirectory();
  } catch {
    return false;
  }
}

/** Every file under a local directory (recursively) whose relative path passes `accept`, sorted, with `/` separators. */
export async function listLocalFiles(location: string, accept: (relativePath: string) => boolean): Promise<string[]> {
  const root = localPath(location);
  let entries: Dirent[];
  try {
    entries = await readdir(root, { recursive: true, withFileTypes: true });
  } catch (error) {
    throw new SourceUnavailableError(location, fileReason(error), { cause: error });
  }
  return entries
    .filter((entry) => entry.isFile())
    .map((entry) => relative(root, join(entry.parentPath, entry.name)).split(sep).join('/'))
    .filter(accept)
    .sort();
}
