import { once } from 'node:events';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import express from 'express';
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from '../test/helpers/app.ts';
import { WEB_DIST } from './paths.ts';
import { webApp } from './web-app.ts';

const app = useTestApp();

const page = (path: string, accept = 'text/html') => fetch(`${app.url}${path}`, { headers: { accept } });

function policyOf(response: Response): Map<string, string> {
  const header = response.headers.get('content-security-policy') ?? '';
  return new Map(
    header.split(';').map(
      (part) =>
        part
          .trim()
          .split(/\s+(.*)/s)
          .slice(0, 2) as [string, string],
    ),
  );
}

describe('the web app at /', () => {
  beforeAll(() => {
    if (!existsSync(join(WEB_DIST, 'index.html'))) throw new Error('web/dist is missing: run npm run build:web first');
  });

  it('serves index.html under a CSP that allows only its own scripts, styles and connections, with no inline script', async () => {
    const response = await page('/');
    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toBe('no-cache');
    const policy = policyOf(response);
    expect(policy.get('script-src')).toBe("'self'");
    expect(policy.get('style-src')).toBe("'self'");
    expect(policy.get('connect-src')).toBe("'self'");
    expect(policy.get('default-src')).toBe("'none'");
    expect(policy.get('frame-ancestors')).toBe("'none'");
    const html = await response.text();
    expect(html).toContain('<div id="root"></div>');
    expect(html).toMatch(/<script type="module" crossorigin src="\/assets\/index-[\w-]+\.js"><\/script>/);
    expect(html.match(/<script(?![^>]*\bsrc=)[^>]*>/g)).toBeNull();
    expect(html).not.toMatch(/\sstyle=|\son\w+=/);
  });

  it('answers app routes with the same page (deep links work) but leaves the API paths to the API', async () => {
    for (const path of ['/matrix?platform=Linux', '/techniques/T1059.001', '/board', '/admin/users']) {
      const response = await page(path);
      expect(response.status, path).toBe(200);
      expect(await response.text(), path).toContain('<div id="root"></div>');
    }
    const unknown = await page('/api/v1/no-such-route');
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toMatchObject({ code: 'NOT_FOUND' });
    const graphiql = await page('/graphiql');
    expect(await graphiql.text()).toContain('Violet GraphiQL');
  });

  it('caches hashed assets for a year and answers a missing asset with a JSON 404', async () => {
    const html = await (await page('/')).text();
    const script = html.match(/src="(\/assets\/index-[\w-]+\.js)"/)![1];
    const asset = await page(script, '*/*');
    expect(asset.status).toBe(200);
    expect(asset.headers.get('content-type')).toMatch(/javascript/);
    expect(asset.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(await asset.text()).not.toMatch(/\beval\(|new Function\(/);
    const missing = await page('/assets/index-missing.js', '*/*');
    expect(missing.status).toBe(404);
  });
});

describe('without a build', () => {
  it('says how to build the app, with a 503 under the same policy', async () => {
    const dist = await mkdtemp(join(tmpdir(), 'violet-no-web-'));
    const server = createServer(express().use(webApp(dist)));
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    try {
      const response = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/matrix`, {
        headers: { accept: 'text/html' },
      });
      expect(response.status).toBe(503);
      expect(policyOf(response).get('script-src')).toBe("'self'");
      const html = await response.text();
      expect(html).toContain('The Violet web app is not built');
      expect(html).toContain('npm run build:web');
    } finally {
      server.close();
      await rm(dist, { recursive: true, force: true });
    }
  });
});
