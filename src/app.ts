import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import { ApolloServer } from '@apollo/server';
import { ApolloServerPluginDrainHttpServer } from '@apollo/server/plugin/drainHttpServer';
import { expressMiddleware } from '@as-integrations/express5';
import express, { type Request } from 'express';
import { useServer } from 'graphql-ws/use/ws';
import { pinoHttp } from 'pino-http';
import { WebSocketServer } from 'ws';
import { restRouter } from '../rest-adapter/router.ts';
import type { Context } from './graphql/context.ts';
import { formatGraphqlError } from './graphql/errors.ts';
import { connectionCredential, LiveSessions } from './graphql/live-sessions.ts';
import { buildContext } from './graphql/request-context.ts';
import { schema } from './graphql/schema.ts';
import { ensureDataSources } from './modules/data-sources/service.ts';
import { requireMediaType } from './http/content-type.ts';
import { refuseCrossSite } from './http/csrf.ts';
import { finalErrorHandler, graphqlHttpErrors, notFoundAsJson } from './http/errors.ts';
import { noStoreForPrivateAnswers, securityHeaders } from './http/headers.ts';
import { originPolicy, type OriginPolicy } from './http/origin.ts';
import { verifyUpgradeOrigin } from './http/websocket-origin.ts';
import { staticPages } from './pages.ts';
import type { Services } from './services.ts';

const REQUEST_ID = /^[A-Za-z0-9._-]{1,64}$/;

export interface App {
  server: Server;
  close(): Promise<void>;
}

function trustProxySetting(value: string): boolean | string | number {
  if (value === 'true') return true;
  if (value === 'false') return false;
  return /^\d+$/.test(value) ? Number(value) : value;
}

/** Refuses cross-site WebSocket upgrades that carry the session cookie (403 before graphql-ws sees them). */
function crossSiteUpgradeCheck(origins: OriginPolicy) {
  return { verifyClient: verifyUpgradeOrigin(origins) };
}

/** The HTTP server: REST under /api/v1, GraphQL (HTTP and WebSocket) at /graphql, local docs pages. */
export async function createApp(services: Services): Promise<App> {
  // The data sources exist before anyone can list them, whether or not this process runs the scheduler.
  await ensureDataSources(services);
  const app = express();
  app.disable('x-powered-by');
  app.set('trust proxy', trustProxySetting(services.config.TRUST_PROXY));
  app.use(
    pinoHttp({
      logger: services.log,
      genReqId: (req, res) => {
        const given = req.headers['x-request-id'];
        const id = typeof given === 'string' && REQUEST_ID.test(given) ? given : randomUUID();
        res.setHeader('X-Request-Id', id);
        return id;
      },
      autoLogging: { ignore: (req) => req.url === '/api/v1/system/health' },
    }),
  );

  app.use(securityHeaders());
  const origins = originPolicy(services.config, app.get('trust proxy fn'));
  const debugErrors = services.config.DEBUG_ERRORS;

  const server = createServer(app);
  const contextFor = (req: Request): Promise<Context> =>
    buildContext(services, { headers: req.headers, clientIp: req.ip ?? '', requestId: String(req.id), log: req.log });

  const wsServer = new WebSocketServer({ server, path: '/graphql', ...crossSiteUpgradeCheck(origins) });
  const liveSessions = new LiveSessions(services);
  const wsCleanup = useServer<Record<string, unknown>, { request: IncomingMessage }>(
    {
      schema,
      isProd: !debugErrors,
      // Followed so that the connection closes when its session ends or its role changes.
      onConnect: (ctx) => liveSessions.track(ctx.extra.socket, connectionCredential(ctx.connectionParams, ctx.extra.request.headers)),
      context: (ctx) =>
        buildContext(
          services,
          { headers: ctx.extra.request.headers, clientIp: ctx.extra.request.socket.remoteAddress ?? '', requestId: randomUUID(), log: services.log },
          connectionCredential(ctx.connectionParams, ctx.extra.request.headers),
        ),
      // The same error policy as over HTTP: domain errors with their code, internal ones masked.
      onNext: (_ctx, _id, _payload, _args, result) =>
        result.errors
          ? { ...result, errors: result.errors.map((error) => formatGraphqlError(error.toJSON(), error, services.log, undefined, debugErrors)) }
          : undefined,
      onError: (_ctx, _id, _payload, errors) => {
        services.log.warn({ errors: errors.map((error) => error.message) }, 'subscription error');
      },
    },
    wsServer,
  );

  const apollo = new ApolloServer<Context>({
    schema,
    introspection: true,
    includeStacktraceInErrorResponses: debugErrors,
    formatError: (formatted, error) => formatGraphqlError(formatted, error, services.log, undefined, debugErrors),
    plugins: [
      ApolloServerPluginDrainHttpServer({ httpServer: server }),
      { async serverWillStart() { return { async drainServer() { liveSessions.dispose(); await wsCleanup.dispose(); } }; } },
    ],
  });
  await apollo.start();

  // Before the REST router, whose catch-all 404 would otherwise swallow /api/v1/docs.
  app.use(staticPages(services.config.GRAPHIQL));
  app.use(['/api/v1', '/graphql'], noStoreForPrivateAnswers);
  app.use('/api/v1', refuseCrossSite(origins), restRouter(schema, services, contextFor));
  app.post('/graphql', refuseCrossSite(origins), requireMediaType('application/json'));
  app.use(
    '/graphql',
    express.json({ limit: '1mb' }),
    expressMiddleware(apollo, { context: ({ req }) => contextFor(req as Request) }),
    graphqlHttpErrors(),
  );
  // Every other answer is JSON too: unknown paths and errors no router answered.
  app.use(notFoundAsJson);
  app.use(finalErrorHandler(services.log));

  return {
    server,
    async close() {
      await apollo.stop();
      wsServer.close();
    },
  };
}
