import { databaseRevocations } from './auth/revocations.ts';
import { createSsoState } from './auth/sso-state.ts';
import { LoginThrottle } from './auth/throttle.ts';
import { TokenService } from './auth/tokens.ts';
import { SessionCache } from './auth/session-cache.ts';
import { CatalogCache, catalogVersion } from './graphql/catalog-cache.ts';
import { createResultCache } from './cache.ts';
import { SecretKeyring } from './crypto/secret-box.ts';
import { serviceSecret } from './crypto/service-secret.ts';
import type { Config } from './config.ts';
import { openDatabase } from './db/client.ts';
import { EventBus } from './events/bus.ts';
import { RequestRateLimits } from './http/rate-limit.ts';
import { ConsumerDispatcher } from './events/consumers.ts';
import { OutboxRelay } from './events/outbox.ts';
import { InProcessJobRunner } from './jobs/in-process.ts';
import type { JobRunner } from './jobs/types.ts';
import type { Logger } from './logger.ts';
import { SamlVerifier } from './modules/sso/verifier.ts';
import { PdfRenderer } from './modules/reports/pdf/renderer.ts';
import { BundleParser } from './modules/catalog/parser.ts';
import { connectRedis, connectRedisFailFast, reportOutages } from './redis.ts';
import type { ProcessRole, Services, Wiring } from './services.ts';
import { createStorage } from './storage/index.ts';

/**
 * The composition root: builds the services of one process from its configuration and what the entry point
 * plugs in (its jobs and event consumers), choosing embedded or production engines for each part.
 */
export async function createServices(config: Config, log: Logger, role: ProcessRole, wiring: Wiring): Promise<Services> {
  const db = await openDatabase(
    {
      databaseUrl: config.DATABASE_URL,
      dataDir: config.DATA_DIR,
      sharedBuffers: config.EMBEDDED_SHARED_BUFFERS,
      poolSize: config.DATABASE_POOL_SIZE,
      poolTimeoutMs: config.DATABASE_POOL_TIMEOUT,
      transactionTimeoutMs: config.DATABASE_TRANSACTION_TIMEOUT,
      preparedStatements: config.DATABASE_PREPARED_STATEMENTS,
    },
    log,
  );
  // BullMQ is a few hundred modules the embedded mode never uses: loaded only with Redis, and before connecting, so
  // that loading it cannot stall the event loop while Redis commands wait on their timeouts.
  const bullmq = config.REDIS_URL ? await import('./jobs/bullmq.ts') : undefined;
  const redis = config.REDIS_URL ? connectRedis(config.REDIS_URL, log) : undefined;
  const subscriber = redis
    ? reportOutages(redis.duplicate(), log, 'Redis unreachable: events from other processes wait for it')
    : undefined;
  // What requests touch in Redis goes through a fail-fast connection, so an outage degrades them instead of freezing them.
  const requestRedis = config.REDIS_URL ? connectRedisFailFast(config.REDIS_URL, config.REDIS_COMMAND_TIMEOUT, log) : undefined;
  const bus =
    requestRedis && subscriber ? await EventBus.overRedis(log, requestRedis, subscriber, config.REDIS_PREFIX) : EventBus.inProcess(log);
  if (config.DATABASE_URL && !config.JWT_SECRET) {
    log.warn('JWT_SECRET is not set: a secret kept in DATA_DIR is used, so every API process must share DATA_DIR');
  }
  const secret = await serviceSecret(config.JWT_SECRET, config.DATA_DIR);
  const services: Services = {
    config,
    log,
    db,
    prisma: db.prisma,
    bus,
    tokens: TokenService.create(secret, config.JWT_TTL),
    sessions: new SessionCache(config.SESSION_CACHE, bus),
    catalogCache: new CatalogCache(config.CATALOG_CACHE_MB * 2 ** 20, (catalog) => catalogVersion(db.rows, catalog)),
    secrets: new SecretKeyring(secret),
    revocations: databaseRevocations(db.prisma),
    loginThrottle: new LoginThrottle({
      maxFailures: config.LOGIN_MAX_FAILURES,
      lockoutMs: config.LOGIN_LOCKOUT,
      exemptLoopback: config.RATE_LIMIT_EXEMPT_LOOPBACK,
      redis: requestRedis,
      prefix: config.REDIS_PREFIX,
      log,
    }),
    rateLimits: new RequestRateLimits({
      enabled: config.RATE_LIMIT_ENABLED,
      limits: { reads: config.RATE_LIMIT_READS, writes: config.RATE_LIMIT_WRITES, expensive: config.RATE_LIMIT_EXPENSIVE },
      windowMs: config.RATE_LIMIT_WINDOW,
      exemptLoopback: config.RATE_LIMIT_EXEMPT_LOOPBACK,
      redis: requestRedis,
      prefix: config.REDIS_PREFIX,
      log,
    }),
    jobs: undefined as unknown as JobRunner,
    consumers: undefined as unknown as ConsumerDispatcher,
    outbox: undefined as unknown as OutboxRelay,
    storage: await createStorage(config, log),
    cache: createResultCache(bus, log, requestRedis, config.REDIS_PREFIX),
    ssoState: createSsoState(requestRedis, config.REDIS_PREFIX, log),
    samlVerifier: new SamlVerifier(
      { workers: config.SSO_XML_WORKERS, queue: config.SSO_XML_QUEUE, timeoutMs: config.SSO_XML_TIMEOUT },
      log,
    ),
    pdfRenderer: new PdfRenderer({ workers: config.PDF_WORKERS, queue: config.PDF_QUEUE, timeoutMs: config.PDF_RENDER_TIMEOUT }, log),
    bundleParser: new BundleParser(log),
    redis,
    async close() {
      await services.outbox.stop();
      await services.samlVerifier.close();
      await services.pdfRenderer.close();
      // After the jobs: a sync that is parsing its bundle when the process stops finishes within the grace period.
      await services.jobs.close();
      await services.bundleParser.close();
      services.sessions.dispose();
      await bus.close();
      subscriber?.disconnect();
      requestRedis?.disconnect();
      redis?.disconnect();
      await db.close();
    },
  };
  const definitions = new Map(wiring.jobs.map((definition) => [definition.name, definition]));
  services.jobs =
    bullmq && redis && requestRedis
      ? new bullmq.BullmqJobRunner(definitions, () => services, log, {
          connection: redis,
          queueConnection: requestRedis,
          prefix: config.REDIS_PREFIX,
          process: role === 'worker' || config.RUN_WORKERS === 'inline',
        })
      : new InProcessJobRunner(definitions, () => services, log);
  services.consumers = new ConsumerDispatcher(wiring.consumers, () => services, log);
  services.outbox = new OutboxRelay(db.prisma, services.consumers, log);
  bus.dispatchTo(services.consumers);
  return services;
}
