import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { requestLog } from '../src/http/request-log.ts';
import { expressServer } from '../src/http/server.ts';

/** The server listening on a free port: its base URL, and how to close it. */
async function listening(server: Server) {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { base, close: () => new Promise((resolve) => server.close(resolve)) };
}

describe('the objects of a request', () => {
  it("are created with the app's prototypes, before Express would swap them, and answer as usual", async () => {
    const app = express();
    app.get('/echo', (req, res) => res.json({ path: req.path, ip: typeof req.ip }));
    const server = expressServer(app);
    const born: Array<[boolean, boolean]> = [];
    server.prependListener('request', (req, res) =>
      born.push([Object.getPrototypeOf(req) === app.request, Object.getPrototypeOf(res) === app.response]),
    );
    const { base, close } = await listening(server);
    try {
      const answer = await fetch(`${base}/echo`);
      expect(answer.status).toBe(200);
      expect(await answer.json()).toEqual({ path: '/echo', ip: 'string' });
      const missing = await fetch(`${base}/nowhere`);
      expect(missing.status).toBe(404);
      expect(born).toEqual([
        [true, true],
        [true, true],
      ]);
    } finally {
      await close();
    }
  });
});

describe('the request log', () => {
  async function serve(level: string) {
    const lines: Array<Record<string, unknown>> = [];
    const log = pino({ level }, { write: (line: string) => lines.push(JSON.parse(line)) });
    const app = express();
    app.use(requestLog(log));
    app.get('/api/v1/system/health', (_req, res) => res.json({ status: 'ok' }));
    app.get('/api/v1/things', (req, res) => {
      req.log.warn('inside');
      res.json([]);
    });
    app.get('/api/v1/broken', (_req, res) => res.status(500).json({ code: 'INTERNAL_SERVER_ERROR' }));
    return { lines, ...(await listening(expressServer(app))) };
  }

  it('gives every answer an id, keeping a valid incoming one, and writes one line per request bound to it', async () => {
    const { lines, base, close } = await serve('info');
    try {
      const kept = await fetch(`${base}/api/v1/things?q=1`, {
        headers: { 'x-request-id': 'trace-42', authorization: 'Bearer secret-token' },
      });
      expect(kept.headers.get('x-request-id')).toBe('trace-42');
      const replaced = await fetch(`${base}/api/v1/things`, { headers: { 'x-request-id': 'no spaces <allowed>' } });
      expect(replaced.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
      await fetch(`${base}/api/v1/system/health`);
      await fetch(`${base}/api/v1/broken`);
      await expect.poll(() => lines.length).toBe(5);
      expect(lines.map(({ msg, reqId }) => [msg, reqId])).toEqual([
        ['inside', 'trace-42'],
        ['request completed', 'trace-42'],
        ['inside', replaced.headers.get('x-request-id')],
        ['request completed', replaced.headers.get('x-request-id')],
        ['request errored', expect.stringMatching(/^[0-9a-f-]{36}$/)],
      ]);
      expect(lines[1]).toMatchObject({ level: 30, req: { method: 'GET', url: '/api/v1/things?q=1' }, res: { statusCode: 200 } });
      expect(lines[1].responseTime).toEqual(expect.any(Number));
      expect(lines[4]).toMatchObject({ level: 50, res: { statusCode: 500 } });
      expect(JSON.stringify(lines)).not.toContain('secret-token');
    } finally {
      await close();
    }
  });

  it('writes no request line when the level is above info', async () => {
    const { lines, base, close } = await serve('warn');
    try {
      await fetch(`${base}/api/v1/things`);
      await expect.poll(() => lines.length).toBe(1);
      expect(lines[0].msg).toBe('inside');
    } finally {
      await close();
    }
  });
});
