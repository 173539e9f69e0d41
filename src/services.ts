import type { RevocationStore } from './auth/revocations.ts';
import type { SsoState } from './auth/sso-state.ts';
import type { LoginThrottle } from './auth/throttle.ts';
import type { CatalogCache } from './graphql/catalog-cache.ts';
import type { SessionCache } from './auth/session-cache.ts';
import type { TokenService } from './auth/tokens.ts';
import type { ResultCache } from './cache.ts';
import type { Config } from './config.ts';
import type { SecretKeyring } from './crypto/secret-box.ts';
import type { Database, PrismaClient } from './db/client.ts';
import type { EventBus } from './events/bus.ts';
import type { RequestRateLimits } from './http/rate-limit.ts';
import type { ConsumerDispatcher, EventConsumer } from './events/consumers.ts';
import type { OutboxRelay } from './events/outbox.ts';
import type { JobDefinition, JobRunner } from './jobs/types.ts';
import type { Logger } from './logger.ts';
import type { SamlVerifier } from './modules/sso/verifier.ts';
import type { PdfRenderer } from './modules/reports/pdf/renderer.ts';
import type { BundleParser } from './modules/catalog/parser.ts';
import type { Redis } from './redis.ts';
import type { Storage } from './storage/index.ts';

/** Everything a request, a job or a script needs, created once per process. */
export interface Services {
  config: Config;
  log: Logger;
  db: Database;
  prisma: PrismaClient;
  bus: EventBus;
  tokens: TokenService;
  sessions: SessionCache;
  /** Answers of ATT&CK catalog reads, kept for the catalog's version (src/graphql/catalog-cache.ts). */
  catalogCache: CatalogCache;
  /** Keys for secrets stored in the database (webhook secrets, the SMTP password), derived from the service secret. */
  secrets: SecretKeyring;
  revocations: RevocationStore;
  loginThrottle: LoginThrottle;
  /** General request budgets (reads, writes, expensive) per user or client address. */
  rateLimits: RequestRateLimits;
  jobs: JobRunner;
  /** Hands committed domain events to their consumers (workers/consumers.ts). */
  consumers: ConsumerDispatcher;
  /** Hands committed events whose consumers may not have them yet (after a crash) over again; started by the entry points. */
  outbox: OutboxRelay;
  /** Evidence files: S3-compatible object storage or DATA_DIR/evidence, and the signer of download links. */
  storage: Storage;
  /** Cached analytics (5-minute results), shared through Redis when configured. */
  cache: ResultCache;
  /** Single sign-on's issued request ids and used assertion ids, shared through Redis when configured. */
  ssoState: SsoState;
  /** The XML workers that parse and verify SAML responses off the request thread. */
  samlVerifier: SamlVerifier;
  /** Renders report PDFs in worker threads (src/modules/reports/pdf/renderer.ts). */
  pdfRenderer: PdfRenderer;
  /** Parses ATT&CK bundles in a worker thread (src/modules/catalog/parser.ts). */
  bundleParser: BundleParser;
  redis?: Redis;
  close(): Promise<void>;
}

export type ProcessRole = 'api' | 'worker';

/** What the entry points plug in (workers/wiring.ts): this module never imports the jobs or consumers themselves. */
export interface Wiring {
  jobs: readonly JobDefinition[];
  consumers: readonly EventConsumer[];
}
