import { PrismaPg } from '@prisma/adapter-pg';
import pg from 'pg';
import { PrismaClient } from '../generated/prisma/client.ts';
import type { Logger } from '../logger.ts';
import { launchEmbeddedPostgres } from './embedded.ts';
import { applyMigrations } from './migrate.ts';
import { rawReader, type RawReader } from './raw-reads.ts';
import { PREPARED_SESSION_OPTIONS, SESSION_OPTIONS } from './session-options.ts';
import { relationLoadStrategyOf } from './relation-loading.ts';
import { statementNames } from './statement-names.ts';

export { PrismaClient };
export type { Prisma } from '../generated/prisma/client.ts';

/** A Prisma client or the transaction client handed to `$transaction` callbacks. */
export type Db = Omit<PrismaClient, '$connect' | '$disconnect' | '$on' | '$transaction' | '$extends'>;

export interface Database {
  prisma: PrismaClient;
  /** Hand-written reads on the pool Prisma's statements use (src/db/raw-reads.ts). */
  rows: RawReader;
  engine: 'postgresql' | 'pglite';
  close(): Promise<void>;
}

export interface DatabaseOptions {
  databaseUrl?: string;
  dataDir: string;
  /** The embedded database's `shared_buffers` (a PostgreSQL size); PGlite's own default otherwise. */
  sharedBuffers?: string;
  poolSize?: number;
  /** Milliseconds a query or transaction waits for a pooled connection before failing (answered 503). */
  poolTimeoutMs?: number;
  /** Milliseconds a transaction may run unless it asks for more. */
  transactionTimeoutMs?: number;
  /** Whether PostgreSQL connections prepare the statements they run (never on the embedded database: one session). */
  preparedStatements?: boolean;
  migrate?: boolean;
}

/** The raw reads' texts a session prepares (src/db/raw-reads.ts): the test list's filters and selections. */
const RAW_READS_MAX = 100;

/**
 * Opens PostgreSQL at `databaseUrl`, or the embedded PGlite in `dataDir` when none is given, applies pending
 * migrations and returns a Prisma client on the `pg` driver adapter (the same code path for both engines).
 */
export async function openDatabase(options: DatabaseOptions, log: Logger): Promise<Database> {
  const poolSize = options.poolSize ?? 10;
  const embedded = options.databaseUrl
    ? undefined
    : launchEmbeddedPostgres(options.dataDir, poolSize, options.sharedBuffers, (error) => {
        log.fatal({ err: error }, 'the embedded database stopped: exiting');
        process.exit(1);
      });
  const url = options.databaseUrl ?? embedded!.url;
  const poolTimeoutMs = options.poolTimeoutMs ?? 5_000;
  // A bounded wait for a connection: under overload a request fails fast (503) instead of queueing forever.
  const pool = { connectionString: url, connectionTimeoutMillis: poolTimeoutMs };
  // The embedded database's connections share its one session, where their statements' names would collide.
  const prepared = !embedded && options.preparedStatements !== false;
  const sessionOptions = prepared ? `${SESSION_OPTIONS} ${PREPARED_SESSION_OPTIONS}` : SESSION_OPTIONS;
  // One pool for Prisma's statements and the raw reads; Prisma's adapter ends it when the client disconnects.
  const connections = new pg.Pool({ ...pool, max: poolSize, ...(embedded ? {} : { options: sessionOptions }) });
  const adapter = new PrismaPg(connections, {
    disposeExternalPool: true,
    ...(prepared ? { statementNameGenerator: statementNames() } : {}),
  });
  const prisma = withRelationLoading(
    new PrismaClient({
      adapter,
      transactionOptions: { maxWait: poolTimeoutMs, timeout: options.transactionTimeoutMs ?? 5_000 },
    }),
  );
  // Loads Prisma's query compiler, which needs no connection: it happens while the database opens and migrates.
  const connected = prisma.$connect();
  connected.catch(() => undefined); // awaited below, unless opening fails first
  if (embedded) {
    await embedded.ready;
    log.info({ dataDir: options.dataDir }, 'embedded PostgreSQL (PGlite) started');
  }
  if (options.migrate !== false) {
    const { applied } = await applyMigrations(url);
    if (applied.length) log.info({ applied }, 'database migrations applied');
    // Creating and migrating a database grows PGlite's memory by hundreds of MiB that it would keep: start it anew.
    if (embedded && applied.length) await embedded.restart();
  }
  await connected;
  return {
    prisma,
    // Named apart from Prisma's statements, and fewer: a session prepares at most PREPARED_STATEMENTS_MAX + RAW_READS_MAX.
    rows: rawReader(connections, prepared ? statementNames(RAW_READS_MAX, 'violet_read_') : undefined),
    engine: embedded ? 'pglite' : 'postgresql',
    async close() {
      await prisma.$disconnect();
      await embedded?.stop();
    },
  };
}

/**
 * The client with each read's relation loading chosen by `relationLoadStrategyOf` (src/db/relation-loading.ts):
 * to-one relations in the record's own statement, to-many relations in statements of their own. A query extension
 * changes no model method's type, so the client keeps its own; only `$on` (logging events) is absent from an
 * extended client, and nothing here subscribes to them (`Db` leaves it out).
 */
export function withRelationLoading(client: PrismaClient): PrismaClient {
  return client.$extends({
    name: 'relation-loading',
    query: {
      $allModels: {
        $allOperations({ model, operation, args, query }) {
          const strategy = relationLoadStrategyOf(model, operation, args);
          const read = args as Record<string, unknown>;
          return (query as (args: unknown) => Promise<unknown>)(strategy ? { ...read, relationLoadStrategy: strategy } : read);
        },
      },
    },
  }) as unknown as PrismaClient;
}
