import { existsSync } from 'node:fs';
import { join } from 'node:path';
import express from 'express';
import { appPolicy } from './http/headers.ts';
import { WEB_DIST } from './paths.ts';

/** Paths the API owns: the app's fallback never answers them. */
const API_PATHS = /^\/(api|graphql|graphiql|static)(\/|$)/;

// A browser navigation prefers HTML; API clients (accepting anything, or JSON) keep getting the JSON 404.
const wantsPage = (req: express.Request) => req.accepts(['json', 'html']) === 'html';

const NOT_BUILT_PAGE = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Violet: web app not built</title></head>
<body><main><h1>The Violet web app is not built</h1>
<p>This server found no <code>web/dist</code>. Build it with <code>npm run build:web</code> (a fresh <code>npm ci</code> does it too) and reload.</p>
<p>The API works meanwhile: <a href="/graphiql">GraphiQL</a> (when enabled) and the <a href="/api/v1/docs">REST documentation</a>.</p>
</main></body></html>`;

/**
 * The single-page app at `/`: hashed assets under /assets cached for a year, every other GET of an app route
 * answered with index.html (never cached, so a new build is picked up at once), all under the app's strict CSP.
 */
export function webApp(dist = WEB_DIST) {
  const router = express.Router();
  const policy = appPolicy();
  const serveFile = express.static(dist, { index: false, maxAge: '1h' });
  if (!existsSync(join(dist, 'index.html'))) {
    router.get(/.*/, (req, res, next) =>
      API_PATHS.test(req.path) || !wantsPage(req) ? next() : void policy(req, res, () => res.status(503).type('html').send(NOT_BUILT_PAGE)),
    );
    return router;
  }
  router.use('/assets', policy, express.static(join(dist, 'assets'), { immutable: true, maxAge: '1y', fallthrough: false, index: false }));
  router.get(
    /.*/,
    (req, _res, next) => (API_PATHS.test(req.path) ? next('router') : next()),
    policy,
    serveFile,
    (req, res, next) => {
      if (!wantsPage(req)) return next();
      res.setHeader('Cache-Control', 'no-cache');
      res.sendFile(join(dist, 'index.html'));
    },
  );
  return router;
}
