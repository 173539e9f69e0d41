import { readdir, readFile, stat } from 'node:fs/promises';
import { join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DomainError } from '../errors.ts';

/** A knowledge source could not be read: unreachable URL, missing file, HTTP error, or too large. */
export class SourceUnavailableError extends DomainError {
  override readonly status = 502;
  override readonly code = 'SOURCE_UNAVAILABLE';
  constructor(location: string, reason: string) {
    super(`Could not read ${location}: ${reason}`);
    this.extra.location = location;
  }
}

/** Larger answers are refused rather than buffered (the full ATT&CK bundle is ~35 MB). */
export const MAX_SOURCE_BYTES = 256 * 1024 * 1024;
export const FETCH_TIMEOUT_MS = 120_000;

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

/** The bytes at a location (http(s) URL, file: URL or path). */
export async function readSourceBytes(location: string): Promise<Buffer> {
  if (isHttp(location)) {
    let response: Response;
    try {
      response = await fetch(location, { signal: AbortSignal.timeout(FETCH_TIMEOUT_MS), redirect: 'follow' });
    } catch (error) {
      throw new SourceUnavailableError(location, (error as Error).message);
    }
    if (!response.ok) throw new SourceUnavailableError(location, `HTTP ${response.status}`);
    const declared = Number(response.headers.get('content-length') ?? 0);
    if (declared > MAX_SOURCE_BYTES) throw new SourceUnavailableError(location, `larger than ${MAX_SOURCE_BYTES} bytes`);
    const chunks: Buffer[] = [];
    let total = 0;
    for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
      total += chunk.byteLength;
      if (total > MAX_SOURCE_BYTES) throw new SourceUnavailableError(location, `larger than ${MAX_SOURCE_BYTES} bytes`);
      chunks.push(Buffer.from(chunk));
    }
    return Buffer.concat(chunks);
  }
  const path = localPath(location);
  try {
    const info = await stat(path);
    if (!info.isFile()) throw new Error('not a file');
    if (info.size > MAX_SOURCE_BYTES) throw new Error(`larger than ${MAX_SOURCE_BYTES} bytes`);
    return await readFile(path);
  } catch (error) {
    throw new SourceUnavailableError(location, (error as NodeJS.ErrnoException).code ?? (error as Error).message);
  }
}

export const readSourceText = async (location: string) => (await readSourceBytes(location)).toString('utf8');

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
  let entries;
  try {
    entries = await readdir(root, { recursive: true, withFileTypes: true });
  } catch (error) {
    throw new SourceUnavailableError(location, (error as NodeJS.ErrnoException).code ?? (error as Error).message);
  }
  return entries
    .filter((entry) => entry.isFile())
    .map((entry) => relative(root, join(entry.parentPath, entry.name)).split(sep).join('/'))
    .filter(accept)
    .sort();
}
