import { createRequire } from 'node:module';
import { dirname } from 'node:path';
import express from 'express';
import { pagePolicy } from './http/headers.ts';

const require = createRequire(import.meta.url);
const packageDir = (name: string) => dirname(require.resolve(`${name}/package.json`));

const GRAPHIQL_PAGE = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Violet GraphiQL</title>
<link rel="stylesheet" href="/static/graphiql/graphiql.min.css">
<style>html,body,#graphiql{height:100%;margin:0}</style></head>
<body><div id="graphiql">Loading…</div>
<script src="/static/react/umd/react.production.min.js"></script>
<script src="/static/react-dom/umd/react-dom.production.min.js"></script>
<script src="/static/graphiql/graphiql.min.js"></script>
<script>
  const fetcher = GraphiQL.createFetcher({ url: '/graphql', subscriptionUrl: location.origin.replace(/^http/, 'ws') + '/graphql' });
  ReactDOM.createRoot(document.getElementById('graphiql')).render(React.createElement(GraphiQL, { fetcher }));
</script></body></html>`;

const DOCS_PAGE = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Violet REST API</title>
<link rel="stylesheet" href="/static/swagger-ui/swagger-ui.css"></head>
<body><div id="docs"></div>
<script src="/static/swagger-ui/swagger-ui-bundle.js"></script>
<script>SwaggerUIBundle({ url: '/api/v1/openapi.json', dom_id: '#docs' });</script>
</body></html>`;

/** Local GraphiQL and REST docs pages with their assets served from node_modules (no CDN). */
export function staticPages(graphiql: boolean) {
  const router = express.Router();
  const policy = pagePolicy();
  const page = (html: string) => [policy, (_req: express.Request, res: express.Response) => void res.type('html').send(html)];
  router.get('/api/v1/docs', page(DOCS_PAGE));
  router.use('/static/swagger-ui', express.static(packageDir('swagger-ui-dist')));
  if (graphiql) {
    router.get('/graphiql', page(GRAPHIQL_PAGE));
    // A browser opening the endpoint itself gets the explorer; a GraphQL GET (its `query` parameter) goes on to Apollo.
    router.get('/graphql', (req, res, next) => {
      if (req.query.query === undefined && req.accepts(['json', 'html']) === 'html') res.redirect(302, '/graphiql');
      else next();
    });
    router.use('/static/graphiql', express.static(packageDir('graphiql')));
    router.use('/static/react', express.static(packageDir('react')));
    router.use('/static/react-dom', express.static(packageDir('react-dom')));
  }
  return router;
}
