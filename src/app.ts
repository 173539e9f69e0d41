import { randomUUID } from 'node:crypto';
import type { IncomingMessage, Server } from 'node:http';
import { ApolloServer } from '@apollo/server';
import {
  ApolloServerPluginCacheControlDisabled,
  ApolloServerPluginInlineTraceDisabled,
  ApolloServerPluginLandingPageDisabled,
  ApolloServerPluginSchemaReportingDisabled,
  ApolloServerPluginUsageReportingDisabled,
} from '@apollo/server/plugin/disabled';
import { ApolloServerPluginDrainHttpServer } from '@apollo/server/plugin/drainHttpServer';
import { expressMiddleware } from '@as-integrations/express5';
import express, { type Request, type Response } from 'express';
import { useServer } from 'graphql-ws/use/ws';
import { WebSocketServer, type ServerOptions, type VerifyClientCallbackAsync } from 'ws';
import { restRouter } from '../rest-adapter/router.ts';
import { GraphqlAnswerBytes } from './graphql/answer-bytes.ts';
import { catalogCachePlugin } from './graphql/catalog-cache.ts';
import type { Context } from './graphql/context.ts';
import { formatGraphqlError, serviceAvailabilityPlugin } from './graphql/errors.ts';
import { cleanLiteralsRule, inputGuardPlugin, subscriptionInputProblem } from './graphql/input-guard.ts';
import { apolloLimits } from './graphql/limits/apollo.ts';
import { oneExecutionStop } from './graphql/limits/errors.ts';
import { graphqlBodyParser, graphqlBodyTooLarge } from './graphql/limits/http.ts';
import { graphqlLimitsOf } from './graphql/limits/rules.ts';
import { SharedSubscriptions } from './graphql/limits/shared-subscriptions.ts';
import { SubscriptionCaps } from './graphql/limits/subscriptions.ts';
import { clientAddressOf, subscribeWithinLimits, WebSocketCaps } from './graphql/limits/websocket.ts';
import { connectionCredential, LiveSessions } from './graphql/live-sessions.ts';
import { warnOnUntrustedProxy } from './auth/proxy-warning.ts';
import { buildContext } from './graphql/request-context.ts';
import { rateLimitPlugin } from './graphql/rate-limit.ts';
import { schema } from './graphql/schema.ts';
import { ensureDataSources } from './modules/data-sources/service.ts';
import { requireMediaType } from './http/content-type.ts';
import { refuseCrossSite } from './http/csrf.ts';
import { finalErrorHandler, graphqlHttpErrors, notFoundAsJson } from './http/errors.ts';
import { noStoreForPrivateAnswers, securityHeaders } from './http/headers.ts';
import { originPolicy, type OriginPolicy } from './http/origin.ts';
import { requestLog } from './http/request-log.ts';
import { expressServer } from './http/server.ts';
import { verifyUpgradeOrigin } from './http/websocket-origin.ts';
import { staticPages } from './pages.ts';
import { webApp } from './web-app.ts';
import type { Services } from './services.ts';
import { SHUTDOWN_GRACE_MS } from './shutdown.ts';

export interface App {
  server: Server;
  close(): Promise<void>;
}

function trustProxySetting(value: string): boolean | string | number {
  if (value === 'true') return true;
  if (value === 'false') return false;
  return /^\d+$/.test(value) ? Number(value) : value;
}

/**
 * The checks of a WebSocket upgrade, before graphql-ws sees it: cross-site upgrades carrying the session cookie are
 * refused (403), then the connection caps apply (503/429); frames are limited to the configured size.
 */
function upgradeChecks(origins: OriginPolicy, caps: WebSocketCaps): Pick<ServerOptions, 'maxPayload' | 'verifyClient'> {
  const sameOrigin = verifyUpgradeOrigin(origins);
  const { maxPayload, verifyClient: withinCaps } = caps.serverOptions();
  const verifyClient: VerifyClientCallbackAsync<IncomingMessage> = (info, done) =>
    sameOrigin(info, (accepted, ...refusal) =>
      accepted ? (withinCaps as VerifyClientCallbackAsync<IncomingMessage>)(info, done) : done(accepted, ...refusal),
    );
  return { maxPayload, verifyClient };
}

/** The HTTP server: REST under /api/v1, GraphQL (HTTP and WebSocket) at /graphql, local docs pages. */
export async function createApp(services: Services): Promise<App> {
  // The data sources exist before anyone can list them, whether or not this process runs the scheduler.
  await ensureDataSources(services);
  const app = express();
  app.disable('x-powered-by');
  // API answers are no-store, so an ETag (a SHA-1 of every answer body) would buy nothing; static assets keep theirs.
  app.set('etag', false);
  app.set('trust proxy', trustProxySetting(services.config.TRUST_PROXY));
  app.use(requestLog(services.log));

  app.use(warnOnUntrustedProxy(services));
  app.use(securityHeaders());
  const origins = originPolicy(services.config, app.get('trust proxy fn'));
  const debugErrors = services.config.DEBUG_ERRORS;

  const server = expressServer(app);
  const contextFor = (req: Request): Promise<Context> =>
    buildContext(services, { headers: req.headers, clientIp: req.ip ?? '', requestId: String(req.id), log: req.log });

  const { config } = services;
  const limits = graphqlLimitsOf(config);
  const wsCaps = new WebSocketCaps(
    {
      maxPayload: config.WS_MAX_PAYLOAD,
      maxConnections: config.WS_MAX_CONNECTIONS,
      maxConnectionsPerClient: config.WS_MAX_CONNECTIONS_PER_CLIENT,
    },
    app.get('trust proxy fn'),
  );
  const subscriptionCaps = new SubscriptionCaps({
    perSocket: config.WS_MAX_SUBSCRIPTIONS_PER_SOCKET,
    perUser: config.WS_MAX_SUBSCRIPTIONS_PER_USER,
    maxCost: limits.maxCost,
  });
  const sharedSubscriptions = new SharedSubscriptions();
  const withinLimits = subscribeWithinLimits(schema, limits, subscriptionCaps, [cleanLiteralsRule]);
  const wsServer = new WebSocketServer({ server, path: '/graphql', ...upgradeChecks(origins, wsCaps) });
  wsServer.on('connection', (socket, request) => wsCaps.track(socket, request));
  const liveSessions = new LiveSessions(services);
  const wsCleanup = useServer<Record<string, unknown>, { request: IncomingMessage }>(
    {
      schema,
      subscribe: sharedSubscriptions.subscribe,
      isProd: !debugErrors,
      connectionInitWaitTimeout: config.WS_CONNECTION_INIT_TIMEOUT,
      // Followed so that the connection closes when its session ends or its role changes; its user holds its subscriptions.
      onConnect: async (ctx) => {
        const { socket, request } = ctx.extra;
        const userId = await liveSessions.track(socket, connectionCredential(ctx.connectionParams, request.headers));
        subscriptionCaps.connect(socket, userId, clientAddressOf(request, app.get('trust proxy fn')));
      },
      onSubscribe: (ctx, id, payload) => subscriptionInputProblem(payload.variables) ?? withinLimits(ctx, id, payload),
      onComplete: (ctx, id) => subscriptionCaps.release(ctx.extra.socket, id),
      onClose: (ctx) => subscriptionCaps.releaseAll(ctx.extra.socket),
      context: (ctx) =>
        buildContext(
          services,
          {
            headers: ctx.extra.request.headers,
            clientIp: ctx.extra.request.socket.remoteAddress ?? '',
            requestId: randomUUID(),
            log: services.log,
          },
          connectionCredential(ctx.connectionParams, ctx.extra.request.headers),
        ),
      // The same error policy as over HTTP: domain errors with their code, internal ones masked.
      onNext: (_ctx, _id, _payload, _args, result) =>
        result.errors
          ? {
              ...result,
              errors: oneExecutionStop(
                result.errors.map((error) => formatGraphqlError(error.toJSON(), error, services.log, undefined, debugErrors)),
              ).errors,
            }
          : undefined,
      onError: (_ctx, _id, _payload, errors) => {
        services.log.warn({ errors: errors.map((error) => error.message) }, 'subscription error');
      },
    },
    wsServer,
  );

  const apolloLimited = apolloLimits<Context>(schema, limits);
  const answerBytes = new GraphqlAnswerBytes((json) => services.catalogCache.keptBytes(json));
  const apollo = new ApolloServer<Context>({
    schema,
    ...apolloLimited.options,
    validationRules: [...apolloLimited.options.validationRules, cleanLiteralsRule],
    introspection: true,
    includeStacktraceInErrorResponses: debugErrors,
    stringifyResult: (result) => services.catalogCache.keptJson(result) ?? answerBytes.stringify(result),
    formatError: (formatted, error) => formatGraphqlError(formatted, error, services.log, undefined, debugErrors),
    // main.ts and workers/main.ts own SIGTERM/SIGINT (src/shutdown.ts): Apollo's handlers re-raise the signal.
    stopOnTerminationSignals: false,
    plugins: [
      // Answers are no-store and nothing leaves the server: without the per-field cache hints and traces, no
      // plugin wraps the resolvers (the schema is shared with the REST rows, which would pay for it too), and an
      // APOLLO_KEY in the environment cannot make the server report to Apollo's cloud.
      ApolloServerPluginCacheControlDisabled(),
      ApolloServerPluginInlineTraceDisabled(),
      ApolloServerPluginUsageReportingDisabled(),
      ApolloServerPluginSchemaReportingDisabled(),
      // Apollo's own landing page loads its scripts and fonts from Apollo's and Google's CDNs: a browser opening
      // /graphql is sent to the local GraphiQL instead (src/pages.ts), and no request pays for the Accept negotiation.
      ApolloServerPluginLandingPageDisabled(),
      inputGuardPlugin,
      rateLimitPlugin,
      serviceAvailabilityPlugin,
      // Closes idle keep-alive connections at once; in-flight requests (REST too: same server) get the grace period.
      ApolloServerPluginDrainHttpServer({ httpServer: server, stopGracePeriodMillis: SHUTDOWN_GRACE_MS }),
      {
        async serverWillStart() {
          return {
            async drainServer() {
              liveSessions.dispose();
              await wsCleanup.dispose();
            },
          };
        },
      },
      ...apolloLimited.plugins,
      catalogCachePlugin(schema, services.catalogCache),
      answerBytes.plugin,
    ],
  });
  await apollo.start();

  // Before the REST router, whose catch-all 404 would otherwise swallow /api/v1/docs.
  app.use(staticPages(services.config.GRAPHIQL));
  app.use(['/api/v1', '/graphql'], noStoreForPrivateAnswers);
  // The REST router refuses cross-site writes per row, so that the SAML callback (signed, cookie-less) can be exempt.
  app.use('/api/v1', restRouter(schema, services, contextFor, origins, limits));
  app.post('/graphql', refuseCrossSite(origins), requireMediaType('application/json'));
  app.use(
    '/graphql',
    graphqlBodyParser(config.GRAPHQL_MAX_BODY),
    graphqlBodyTooLarge(config.GRAPHQL_MAX_BODY),
    expressMiddleware(apollo, {
      context: async ({ req, res }) => {
        const context = await contextFor(req as Request);
        answerBytes.attach(context, res as Response);
        return context;
      },
    }),
    graphqlHttpErrors(),
  );
  app.use(webApp());
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
