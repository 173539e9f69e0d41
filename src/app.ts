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
import { credentialOf } from './auth/authenticate.ts';
import { warnOnUntrustedProxy } from './auth/proxy-warning.ts';
import type { Context } from './graphql/context.ts';
import { formatGraphqlError, serviceAvailabilityPlugin } from './graphql/errors.ts';
import { buildContext } from './graphql/request-context.ts';
import { schema } from './graphql/schema.ts';
import { ensureDataSources } from './modules/data-sources/service.ts';
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

  app.use(warnOnUntrustedProxy(services));

  const server = createServer(app);
  const contextFor = (req: Request): Promise<Context> =>
    buildContext(services, { headers: req.headers, clientIp: req.ip ?? '', requestId: String(req.id), log: req.log });

  const wsServer = new WebSocketServer({ server, path: '/graphql' });
  const wsCleanup = useServer<Record<string, unknown>, { request: IncomingMessage }>(
    {
      schema,
      context: (ctx) => {
        const fromParams = ctx.connectionParams?.authorization ?? ctx.connectionParams?.Authorization;
        const credential = typeof fromParams === 'string' ? fromParams.replace(/^Bearer\s+/i, '') : credentialOf(ctx.extra.request.headers);
        return buildContext(
          services,
          { headers: ctx.extra.request.headers, clientIp: ctx.extra.request.socket.remoteAddress ?? '', requestId: randomUUID(), log: services.log },
          credential,
        );
      },
      // The same error policy as over HTTP: domain errors with their code, internal ones masked.
      onNext: (_ctx, _id, _payload, _args, result) =>
        result.errors ? { ...result, errors: result.errors.map((error) => formatGraphqlError(error.toJSON(), error, services.log)) } : undefined,
      onError: (_ctx, _id, _payload, errors) => {
        services.log.warn({ errors: errors.map((error) => error.message) }, 'subscription error');
      },
    },
    wsServer,
  );

  const apollo = new ApolloServer<Context>({
    schema,
    introspection: true,
    formatError: (formatted, error) => formatGraphqlError(formatted, error, services.log),
    plugins: [
      ApolloServerPluginDrainHttpServer({ httpServer: server }),
      serviceAvailabilityPlugin,
      { async serverWillStart() { return { async drainServer() { await wsCleanup.dispose(); } }; } },
    ],
  });
  await apollo.start();

  // Before the REST router, whose catch-all 404 would otherwise swallow /api/v1/docs.
  app.use(staticPages(services.config.GRAPHIQL));
  app.use('/api/v1', restRouter(schema, services, contextFor));
  app.use('/graphql', express.json({ limit: '1mb' }), expressMiddleware(apollo, { context: ({ req }) => contextFor(req as Request) }));

  return {
    server,
    async close() {
      await apollo.stop();
      wsServer.close();
    },
  };
}
