import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname } from 'node:path';

/** A file's body, or `undefined` (or `null`) for 404. */
export type ServedFile = Buffer | Uint8Array | string | undefined | null;

/** The environment that lets an app fetch sources from these servers (any port): 127.0.0.1 is refused unless allow-listed. */
export const FILE_SERVER_ENV = { SOURCE_ALLOWED_HOSTS: '127.0.0.1:*' } as const;

export interface FileServerOptions {
  /** The content type of every file; by default, one for the path's extension. */
  contentType?: string;
}

export interface FileServer {
  /** `http://127.0.0.1:<port>`, without a trailing slash. */
  url: string;
  close(): Promise<void>;
}

const CONTENT_TYPES: Record<string, string> = {
  '.json': 'application/json',
  '.csv': 'text/csv',
  '.zip': 'application/zip',
  '.yaml': 'text/plain',
  '.yml': 'text/plain',
  '.txt': 'text/plain',
  '.md': 'text/plain',
};

/**
 * A local HTTP server on a random port of 127.0.0.1 that answers each GET with what `resolve` gives for the
 * request's path (decoded, without the query string): 200 with that body, or 404 when it gives nothing.
 */
export async function serveFiles(
  resolve: (path: string) => ServedFile | Promise<ServedFile>,
  options: FileServerOptions = {},
): Promise<FileServer> {
  const server = createServer(async (req, res) => {
    const path = decodeURIComponent(new URL(req.url ?? '/', 'http://files').pathname);
    let body: ServedFile;
    try {
      body = await resolve(path);
    } catch (error) {
      res.writeHead(500, { 'content-type': 'text/plain' }).end(String(error));
      return;
    }
    if (body === undefined || body === null) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
      return;
    }
    const contentType = options.contentType ?? CONTENT_TYPES[extname(path).toLowerCase()] ?? 'application/octet-stream';
    res.writeHead(200, { 'content-type': contentType, 'content-length': Buffer.byteLength(body) }).end(body);
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise<void>((done, fail) => server.close((error) => (error ? fail(error) : done()))),
  };
}
