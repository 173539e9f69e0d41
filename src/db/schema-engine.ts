import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import pg from 'pg';
import { PrismaPg } from '@prisma/adapter-pg';
import {
  bindMigrationAwareSqlAdapterFactory,
  ColumnTypeEnum,
  type SqlDriverAdapter,
  type SqlQueryable,
  type SqlMigrationAwareDriverAdapterFactory,
} from '@prisma/driver-adapter-utils';
import type { SchemaEngine } from '@prisma/schema-engine-wasm/schema_engine_bg';

export type { SchemaEngine };

type EngineBindings = typeof import('@prisma/schema-engine-wasm/schema_engine_bg');

/** The few WebAssembly calls we need; the project's `lib` (ES2022, no DOM) does not declare them. */
interface WasmApi {
  compile(bytes: Uint8Array): Promise<object>;
  instantiate(module: object, imports: Record<string, object>): Promise<{ exports: Record<string, unknown> }>;
}

const BINDINGS_SPECIFIER = '@prisma/schema-engine-wasm/schema_engine_bg';

let bindings: Promise<EngineBindings> | undefined;

/**
 * Loads the WebAssembly schema engine once per process. The package's own entry point imports the `.wasm`
 * file as an ES module, which Node 20 only allows behind `--experimental-wasm-modules`, so we wire the
 * wasm-bindgen glue to the instance ourselves.
 */
export function loadSchemaEngine(): Promise<EngineBindings> {
  bindings ??= instantiateEngine().catch((error: unknown) => {
    bindings = undefined; // let a later call retry instead of caching the failure
    throw error;
  });
  return bindings;
}

async function instantiateEngine(): Promise<EngineBindings> {
  installPanicRegistry();
  // A literal specifier, so that the build bundles the glue (the package is ES modules only).
  const glue: EngineBindings = await import('@prisma/schema-engine-wasm/schema_engine_bg');
  const gluePath = createRequire(import.meta.url).resolve(BINDINGS_SPECIFIER);
  const wasm = (globalThis as unknown as { WebAssembly: WasmApi }).WebAssembly;
  const module = await wasm.compile(await readFile(join(dirname(gluePath), 'schema_engine_bg.wasm')));
  const instance = await wasm.instantiate(module, { './schema_engine_bg.js': withUnrefTimers(glue) });
  glue.__wbg_set_wasm(instance.exports);
  (instance.exports.__wbindgen_start as () => void)();
  return glue;
}

/** The engine's idle timers must not keep a finished script alive (they otherwise hold it for 10 s). */
function withUnrefTimers(glue: EngineBindings): Record<string, unknown> {
  const imports: Record<string, unknown> = { ...glue };
  for (const name of Object.keys(glue)) {
    if (!name.startsWith('__wbg_setTimeout_')) continue;
    imports[name] = (callback: () => void, delay: number) => {
      const timer = setTimeout(callback, delay >>> 0);
      timer.unref();
      return timer;
    };
  }
  return imports;
}

interface PanicRegistry {
  get(): string;
  set_message(message: string): void;
}

/**
 * The engine reports a Rust panic by calling `PRISMA_WASM_PANIC_REGISTRY.set_message` before trapping;
 * without the registry that call itself throws and the panic text is lost.
 */
function installPanicRegistry(): void {
  const holder = globalThis as { PRISMA_WASM_PANIC_REGISTRY?: PanicRegistry };
  if (holder.PRISMA_WASM_PANIC_REGISTRY) return;
  let last = '';
  holder.PRISMA_WASM_PANIC_REGISTRY = {
    get: () => last,
    set_message: (message) => {
      last = `RuntimeError: ${message}`;
    },
  };
}

const PG_CHAR_OID = 18;
const PG_TEXT_OID = 25;

/** Positions of `"char"` columns, keyed by a result's rows array, which adapter-pg hands on unchanged. */
const charColumnsByRows = new WeakMap<unknown[], number[]>();

/** Labels `"char"` columns as text and remembers where they were; mutates and returns its argument. */
function hideCharColumns<T>(result: T): T {
  for (const item of Array.isArray(result) ? result : [result]) {
    const { fields = [], rows } = (item ?? {}) as Partial<pg.QueryResult>;
    const positions = fields.flatMap((field, index) => (field.dataTypeID === PG_CHAR_OID ? [index] : []));
    for (const index of positions) fields[index].dataTypeID = PG_TEXT_OID;
    if (positions.length > 0 && rows) charColumnsByRows.set(rows, positions);
  }
  return result;
}

/**
 * The engine's catalog queries return Postgres' internal `"char"` type (pg_class.relkind,
 * pg_constraint.contype, ...). adapter-pg 7.10.1 rejects that OID ("Column type 'char' could not be
 * deserialized") and has no OID it maps to the engine's Character type, which the engine insists on
 * (reading such a column as text panics). So the client passes them off as text, and
 * `withCharColumns` restores the Character type on the adapter's result. In the client, so that pool
 * queries and transactions (which check out a client) are both covered.
 */
class CharAsTextClient extends pg.Client {
  // `any` keeps this override compatible with every overload of pg's query().
  // biome-ignore lint/suspicious/noExplicitAny: matches every overload of pg's query()
  override query(...args: any[]): any {
    const query = super.query as (...queryArgs: unknown[]) => unknown;
    const callback: unknown = args.at(-1);
    if (typeof callback === 'function') {
      const relabelled = (error: unknown, result: unknown) => callback(error, hideCharColumns(result));
      return query.apply(this, [...args.slice(0, -1), relabelled]);
    }
    const pending = query.apply(this, args);
    return pending instanceof Promise ? pending.then(hideCharColumns) : pending;
  }
}

/**
 * pg-pool closes a connection whenever a query on it fails. A server with a connection limit may not yet have
 * seen that close when the pool reconnects, and turn the new connection away, so the engine could not even
 * record a failed migration. A failed statement leaves the connection usable, and
 * pg-pool still drops a client whose connection broke when it is released.
 */
class ConnectionKeepingPool extends pg.Pool {
  // biome-ignore lint/suspicious/noExplicitAny: matches every overload of pg's query()
  override query(...args: any[]): any {
    const query = super.query as (...queryArgs: unknown[]) => unknown;
    if (typeof args.at(-1) === 'function') return query.apply(this, args); // adapter-pg never calls back
    return this.connect().then(async (client) => {
      const ignore = () => {}; // the failing query rejects; an unheard 'error' event would crash the process
      client.on('error', ignore);
      try {
        const run = client.query.bind(client) as (...queryArgs: unknown[]) => Promise<unknown>;
        return await run(...args);
      } finally {
        client.removeListener('error', ignore);
        client.release();
      }
    });
  }
}

function withCharColumns<Q extends SqlQueryable>(queryable: Q): Q {
  const queryRaw = queryable.queryRaw.bind(queryable);
  queryable.queryRaw = async (query) => {
    const resultSet = await queryRaw(query);
    for (const index of charColumnsByRows.get(resultSet.rows) ?? []) {
      resultSet.columnTypes[index] = ColumnTypeEnum.Character;
    }
    return resultSet;
  };
  return queryable;
}

/**
 * adapter-pg 7.10.1 runs scripts by splitting on `;`, which breaks `$$` bodies and string literals.
 * A parameterless query goes through pg's simple protocol, which accepts many statements (run in one
 * implicit transaction, as the native engine does), and errors keep adapter-pg's own mapping.
 */
function withWholeScripts(adapter: SqlDriverAdapter): SqlDriverAdapter {
  adapter.executeScript = async (script: string) => {
    await adapter.executeRaw({ sql: script, args: [], argTypes: [] });
  };
  return adapter;
}

/** Applies both fixes to an adapter and to the transactions it starts. */
function patchAdapter(adapter: SqlDriverAdapter): SqlDriverAdapter {
  const startTransaction = adapter.startTransaction.bind(adapter);
  adapter.startTransaction = async (isolationLevel) => withCharColumns(await startTransaction(isolationLevel));
  return withWholeScripts(withCharColumns(adapter));
}

export const EMPTY_PUBLIC_SCHEMA = 'DROP SCHEMA IF EXISTS public CASCADE; CREATE SCHEMA public;';

export interface EngineConnection {
  /** Database the engine reads and migrates. */
  connectionString: string;
  /**
   * Disposable database for commands that replay migrations (diff, ...). Its `public` schema is wiped
   * every time the engine connects to it. When equal to `connectionString`, one pool serves both, which
   * spares a server with few connections one more.
   */
  shadowDatabaseUrl?: string;
}

/** Owns the pools handed to the engine, since adapters built on external pools never end them. */
class PgAdapterFactory implements SqlMigrationAwareDriverAdapterFactory {
  readonly provider = 'postgres';
  readonly adapterName = '@prisma/adapter-pg';
  private readonly pools = new Map<string, pg.Pool>();
  private readonly clientsEnded: Promise<unknown>[] = [];

  constructor(private readonly connection: EngineConnection) {}

  connect(): Promise<SqlDriverAdapter> {
    return this.adapterFor(this.connection.connectionString);
  }

  /**
   * Used instead of adapter-pg's own, whose pool keeps connecting to the main database (a
   * `connectionString` overrides pg's `database` option) and so would replay migrations there.
   */
  async connectToShadowDb(): Promise<SqlDriverAdapter> {
    const { shadowDatabaseUrl } = this.connection;
    if (!shadowDatabaseUrl) throw new Error('This schema engine was created without a shadow database URL');
    const adapter = await this.adapterFor(shadowDatabaseUrl);
    await adapter.executeScript(EMPTY_PUBLIC_SCHEMA);
    return adapter;
  }

  /**
   * pg-pool's end() resolves before its sockets are closed; a server with a connection limit could then turn
   * away whoever connects next, so wait for every client too.
   */
  async close(): Promise<void> {
    const pools = [...this.pools.values()];
    this.pools.clear();
    await Promise.all(pools.map((pool) => pool.end()));
    await Promise.all(this.clientsEnded);
  }

  private adapterFor(url: string): Promise<SqlDriverAdapter> {
    return new PrismaPg(this.poolFor(url)).connect().then(patchAdapter);
  }

  private poolFor(url: string): pg.Pool {
    let pool = this.pools.get(url);
    if (!pool) {
      // One connection: migrations are sequential.
      pool = new ConnectionKeepingPool({ connectionString: url, max: 1, Client: CharAsTextClient });
      pool.on('error', () => {}); // an idle client dropped by the server must not crash the process
      pool.on('connect', (client) => this.clientsEnded.push(new Promise((ended) => client.once('end', ended))));
      this.pools.set(url, pool);
    }
    return pool;
  }
}

export interface SchemaFile {
  path: string;
  content: string;
}

export interface BoundSchemaEngine {
  engine: SchemaEngine;
  /** Frees the engine and ends its connection pools. */
  close(): Promise<void>;
}

/** Engine log lines are JSON; they are dropped unless a sink is given. */
export type EngineLogSink = (line: string) => void;

/**
 * The engine panics (aborting the process from a promise job) when given no schema at all, even for
 * commands that never read it, such as applying migrations; this one only names the connector.
 */
export const DATASOURCE_ONLY_SCHEMA: SchemaFile = {
  path: 'schema.prisma',
  content: 'datasource db {\n  provider = "postgresql"\n}\n',
};

export async function createSchemaEngine(
  connection: EngineConnection,
  schemaFiles: SchemaFile[] = [DATASOURCE_ONLY_SCHEMA],
  onLog: EngineLogSink = () => {},
): Promise<BoundSchemaEngine> {
  const { SchemaEngine } = await loadSchemaEngine();
  const factory = new PgAdapterFactory(connection);
  const datamodels = schemaFiles.map((file): [string, string] => [file.path, file.content]);
  let engine: SchemaEngine;
  try {
    engine = await SchemaEngine.new({ datamodels }, onLog, bindMigrationAwareSqlAdapterFactory(factory));
  } catch (error) {
    await factory.close();
    throw error;
  }
  return {
    engine,
    async close() {
      engine.free();
      await factory.close();
    },
  };
}
