import type { AddressInfo } from 'node:net';
import { createContextCache, initContextCache } from '@pothos/core';
import express from 'express';
import { describe, expect, it } from 'vitest';
import type { Context } from '../src/graphql/context.ts';
import { releaseRequestCaches } from '../src/graphql/request-context.ts';
import { expressServer } from '../src/http/server.ts';

describe('the objects of a request', () => {
  it("are created with the app's prototypes, before Express would swap them, and answer as usual", async () => {
    const app = express();
    app.get('/echo', (req, res) => res.json({ path: req.path, ip: typeof req.ip }));
    const server = expressServer(app);
    const born: Array<[boolean, boolean]> = [];
    server.prependListener('request', (req, res) =>
      born.push([Object.getPrototypeOf(req) === app.request, Object.getPrototypeOf(res) === app.response]),
    );
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = server.address() as AddressInfo;
      const answer = await fetch(`http://127.0.0.1:${port}/echo`);
      expect(answer.status).toBe(200);
      expect(await answer.json()).toEqual({ path: '/echo', ip: 'string' });
      const missing = await fetch(`http://127.0.0.1:${port}/nowhere`);
      expect(missing.status).toBe(404);
      expect(born).toEqual([
        [true, true],
        [true, true],
      ]);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it('keep their per-request caches until the answer is out, then a later use of the context gets new ones', () => {
    const cache = createContextCache(() => ({ loaded: [] as string[] }));
    const context = { ...initContextCache(), requestId: 'r1' } as unknown as Context;
    const other = { ...initContextCache(), requestId: 'r2' } as unknown as Context;
    const first = cache(context);
    expect(cache(context)).toBe(first);
    expect(cache(other)).not.toBe(first);
    releaseRequestCaches(context);
    const after = cache(context);
    expect(after).not.toBe(first);
    expect(cache(context)).toBe(after);
  });
});
