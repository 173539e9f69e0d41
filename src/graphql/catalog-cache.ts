import { HeaderMap, type ApolloServerPlugin } from '@apollo/server';
import {
  getNamedType,
  isObjectType,
  Kind,
  type DocumentNode,
  type FormattedExecutionResult,
  type FragmentDefinitionNode,
  type GraphQLObjectType,
  type GraphQLSchema,
  type OperationDefinitionNode,
  type SelectionSetNode,
} from 'graphql';
import { accessKind, type Principal } from '../auth/access.ts';
import type { RawReader } from '../db/raw-reads.ts';
import { Prisma } from '../generated/prisma/client.ts';
import type { Context } from './context.ts';

/**
 * The read model whose answers are kept: the ATT&CK catalog (techniques and tactics). Its version changes when a
 * transaction that wrote one of its tables commits (the tables' triggers, migration `attack_catalog_version`).
 */
export const CATALOG = 'attack';

/**
 * Marks a root query field whose answer depends only on its arguments and the catalog's tables (`extensions`), and,
 * on an object type, lists the fields of it that do (`catalogFields`).
 */
export const catalogRoot = { catalog: CATALOG } as const;
export const catalogFields = (names: readonly string[]) => ({ catalogFields: names }) as const;

/**
 * The version of `catalog` (migration `attack_catalog_version`), or null without a version row. Read before every
 * catalog read, on the pool without Prisma (src/db/raw-reads.ts): through `$queryRaw` this one-row read took a sixth
 * of the CPU of a kept answer.
 */
export async function catalogVersion(rows: RawReader, catalog: string): Promise<string | null> {
  const [row] = await rows<{ version: string }>(Prisma.sql`SELECT version::text AS version FROM catalog_versions WHERE name = ${catalog}`);
  return row?.version ?? null;
}

/**
 * The memory a GraphQL answer takes, in characters of its JSON: its objects (about 3 times the JSON on the technique
 * list) and the JSON itself.
 */
const OBJECT_SIZE_FACTOR = 4;

/** An entry larger than this share of the budget is not kept: one answer cannot push out all the others. */
const LARGEST_SHARE = 4;

interface Entry {
  version: string;
  answer: unknown;
  size: number;
}

/** The longest a request waits for the same request's answer being computed before computing its own. */
export const FLIGHT_WAIT_MS = 5_000;

/** Where a catalog read stands (`CatalogCache.find`). */
export interface Found {
  key: string;
  version: string;
  /** The answer kept for the key and version, or undefined: then the request computes it. */
  answer: unknown;
  /** Called by a request that computed, once its answer is kept or will not be: the requests waiting go on. */
  settle: () => void;
}

const SETTLED = () => undefined;

/**
 * Answers of catalog reads, kept for their version: the technique list, which REST clients and dashboards read to map
 * their work to ATT&CK, is then the version's one-row read instead of a thousand rows read, mapped and executed.
 *
 * Exact, not eventually right: each request reads the catalog's version first, and an answer is served only if it
 * was computed under that version. The version is set at commit by the database itself, so a change made through the
 * service, an import, or a statement typed by hand in psql is seen by the next request of every process. An answer
 * computed while a change commits is stored under the version read before it (never newer than its rows): a later
 * request reads the new version and computes again.
 *
 * Who may read what is checked before an answer is served: REST rows check the caller's role first; a GraphQL field
 * checks its access rule while executing, so answers are kept per kind of caller (role, key scope, …): each kind's
 * first request runs every check, and an answer with an error is never kept.
 *
 * Bounded by `maxChars` (the characters of the answers' JSON, the least recently used out first); 0 keeps nothing.
 */
export class CatalogCache {
  private readonly entries = new Map<string, Entry>();
  private size = 0;
  private readonly plans = new WeakMap<DocumentNode, Map<string, boolean>>();
  /** Answers being computed, by version and key: the promise settles when the answer is kept, or will not be. */
  private readonly flights = new Map<string, Promise<void>>();
  /** GraphQL answers' data and their JSON as Apollo writes it, so that a kept answer is not serialised again. */
  private readonly written = new WeakMap<object, string>();
  /**
   * The UTF-8 bytes of each kept GraphQL answer's JSON, by that JSON: the response sends them (`keptBytes`) instead
   * of encoding the string again, which for the technique list made a 360 KB buffer per request, and the garbage
   * collection of those buffers a fifth of the request's CPU. Dropped with the answer.
   */
  private readonly bytesOfJson = new Map<string, Buffer>();

  constructor(
    private readonly maxChars: number,
    private readonly readVersion: (catalog: string) => Promise<string | null>,
  ) {}

  get enabled(): boolean {
    return this.maxChars > 0;
  }

  /**
   * Whether `operation` of `document` reads only the catalog: a query whose root fields are marked catalog roots and
   * whose every selected field is one of its type's catalog fields (fragments followed). Decided once per document.
   */
  reads(schema: GraphQLSchema, document: DocumentNode, operation: OperationDefinitionNode): boolean {
    let byOperation = this.plans.get(document);
    if (!byOperation) this.plans.set(document, (byOperation = new Map()));
    const name = operation.name?.value ?? '';
    let plan = byOperation.get(name);
    if (plan === undefined) byOperation.set(name, (plan = readsOnlyCatalog(schema, document, operation)));
    return plan;
  }

  /** The catalog's current version; null (keep nothing) while it cannot be read or has no version row. */
  async version(): Promise<string | null> {
    if (!this.enabled) return null;
    try {
      return await this.readVersion(CATALOG);
    } catch {
      return null; // the request's own reads will meet the same failure and answer it
    }
  }

  /**
   * Where a request stands: null when `operation` is not a catalog read, keeps nothing, or comes from no principal, or
   * the version cannot be read; otherwise its key (the caller's kind of access, then what `parts` gives: built only for
   * a catalog read), the version it is answered under, and the answer kept for both if any.
   *
   * Without a kept answer, the first such request computes it and the same requests arriving meanwhile wait for it
   * (single flight: after a catalog change, a dashboard's burst executes the list once), at most FLIGHT_WAIT_MS; a
   * request that computes must call `settle` once its answer is kept or known not to be (an error).
   */
  async find(
    principal: Principal | null,
    schema: GraphQLSchema,
    document: DocumentNode,
    operation: OperationDefinitionNode,
    parts: () => string[],
  ): Promise<Found | null> {
    const kind = accessKind(principal);
    if (!this.enabled || !kind || !this.reads(schema, document, operation)) return null;
    const version = await this.version();
    if (!version) return null;
    const key = [kind, ...parts()].join('\n');
    const flight = `${version}\n${key}`;
    let answer = this.get(key, version);
    const computing = answer === undefined ? this.flights.get(flight) : undefined;
    if (computing) {
      await computing;
      answer = this.get(key, version);
    }
    // After a wait that ended without an answer (an error, or past the wait), this request computes unannounced.
    if (answer !== undefined || computing) return { key, version, answer, settle: SETTLED };
    return { key, version, answer, settle: this.announce(flight) };
  }

  /** Registers the flight that computes `flight`'s answer; its settle (or FLIGHT_WAIT_MS) releases the waiters. */
  private announce(flight: string): () => void {
    let release!: () => void;
    const done = new Promise<void>((resolve) => {
      release = resolve;
    });
    const settle = () => {
      clearTimeout(timer);
      if (this.flights.get(flight) === done) this.flights.delete(flight);
      release();
    };
    const timer = setTimeout(settle, FLIGHT_WAIT_MS);
    timer.unref();
    this.flights.set(flight, done);
    return settle;
  }

  /** The answer kept under `key` for `version`, if any. */
  get(key: string, version: string): unknown {
    const entry = this.entries.get(key);
    if (entry?.version !== version) return undefined;
    // The most recently used last: what callers keep asking stays while one-off reads pass through.
    this.entries.delete(key);
    this.entries.set(key, entry);
    return entry.answer;
  }

  /**
   * Keeps `answer` (which takes `size` characters) under `key` for `version`; the least recently used go first. A
   * GraphQL answer's data written by `serialize` is kept with the bytes of its JSON, counted in its size.
   */
  set(key: string, version: string, answer: unknown, size: number): void {
    if (!this.enabled) return;
    const json = this.writtenJson(answer);
    const bytes = json === undefined ? undefined : Buffer.from(json);
    const total = size + (bytes?.length ?? 0);
    if (total * LARGEST_SHARE > this.maxChars) return;
    this.forget(key);
    while (this.size + total > this.maxChars) this.forget(this.entries.keys().next().value as string);
    this.entries.set(key, { version, answer, size: total });
    this.size += total;
    if (json !== undefined && bytes) this.bytesOfJson.set(json, bytes);
  }

  private forget(key: string): void {
    const entry = this.entries.get(key);
    if (!entry) return;
    this.entries.delete(key);
    this.size -= entry.size;
    const json = this.writtenJson(entry.answer);
    // Another entry with the same JSON loses its bytes too: its answers are then sent as the string, the same JSON.
    if (json !== undefined) this.bytesOfJson.delete(json);
  }

  /** The JSON `serialize` wrote for `answer`, when it is a GraphQL answer's data. */
  private writtenJson(answer: unknown): string | undefined {
    return typeof answer === 'object' && answer !== null ? this.written.get(answer) : undefined;
  }

  /** The bytes of a kept GraphQL answer's JSON, when `body` is that JSON (what the response is about to send). */
  keptBytes(body: string): Buffer | undefined {
    return this.bytesOfJson.size ? this.bytesOfJson.get(body) : undefined;
  }

  /** The JSON of a GraphQL answer of `data` alone, as Apollo writes it; remembered for `keptJson`. */
  serialize(data: object): string {
    const json = `{"data":${JSON.stringify(data)}}\n`;
    this.written.set(data, json);
    return json;
  }

  /** The JSON of a kept GraphQL answer as it was written the first time (for Apollo's `stringifyResult`). */
  keptJson(result: FormattedExecutionResult): string | undefined {
    return (!result.errors && !result.extensions && result.data && this.written.get(result.data)) || undefined;
  }
}

function readsOnlyCatalog(schema: GraphQLSchema, document: DocumentNode, operation: OperationDefinitionNode): boolean {
  if (operation.operation !== 'query') return false;
  const fragments = new Map<string, FragmentDefinitionNode>();
  for (const definition of document.definitions) {
    if (definition.kind === Kind.FRAGMENT_DEFINITION) fragments.set(definition.name.value, definition);
  }
  const allowed = (type: GraphQLObjectType, field: string, root: boolean): boolean => {
    if (root) return type.getFields()[field]?.extensions.catalog === CATALOG;
    const names = type.extensions.catalogFields as readonly string[] | undefined;
    return names?.includes(field) ?? false;
  };
  // Each named fragment is judged once (its type is its type condition; whether it sits at the root is part of the
  // question), so a document whose fragments spread each other twice over costs its size, not 2^depth. A fragment
  // under judgement counts as false: a cycle (which validation refuses anyway) ends there.
  const judged = new Map<string, boolean>();
  const visit = (set: SelectionSetNode, type: GraphQLObjectType, root: boolean): boolean =>
    set.selections.every((selection) => {
      if (selection.kind === Kind.FIELD) {
        const name = selection.name.value;
        if (name === '__typename') return true;
        if (!allowed(type, name, root)) return false;
        if (!selection.selectionSet) return true;
        const inner = getNamedType(type.getFields()[name].type);
        return isObjectType(inner) && visit(selection.selectionSet, inner, false);
      }
      const fragment = selection.kind === Kind.INLINE_FRAGMENT ? selection : fragments.get(selection.name.value);
      const condition = fragment?.typeCondition;
      if (!fragment || (condition && schema.getType(condition.name.value) !== type)) return false; // an interface, a union
      if (selection.kind === Kind.INLINE_FRAGMENT) return visit(selection.selectionSet, type, root);
      const key = `${root ? 'root' : 'inner'} ${selection.name.value}`;
      let verdict = judged.get(key);
      if (verdict === undefined) {
        judged.set(key, false);
        judged.set(key, (verdict = visit(fragment.selectionSet, type, root)));
      }
      return verdict;
    });
  const rootType = schema.getQueryType();
  return rootType !== null && rootType !== undefined && visit(operation.selectionSet, rootType, true);
}

/**
 * GraphQL over HTTP's side: a catalog query whose answer is kept for the current version is answered without
 * executing; otherwise its answer, if free of errors, is kept. Runs after the rate limit, the cost and introspection
 * checks (they resolve with the operation), so a kept answer is no way around them.
 */
export function catalogCachePlugin(schema: GraphQLSchema, cache: CatalogCache): ApolloServerPlugin<Context> {
  return {
    async requestDidStart() {
      let pending: Found | null = null;
      return {
        async responseForOperation({ document, operation, source, request, contextValue }) {
          const parts = () => ['graphql', operation.name?.value ?? '', source, JSON.stringify(request.variables ?? {})];
          const found = await cache.find(contextValue.auth.principal, schema, document, operation, parts);
          if (!found) return null;
          if (found.answer !== undefined) {
            const data = found.answer as Record<string, unknown>;
            return { http: { status: undefined, headers: new HeaderMap() }, body: { kind: 'single', singleResult: { data } } };
          }
          pending = found;
          return null;
        },
        async willSendResponse({ response }) {
          if (!pending) return;
          try {
            if (response.body.kind !== 'single') return;
            const { data, errors, extensions } = response.body.singleResult;
            if (errors?.length || extensions || !data) return;
            // Served to every later caller of its kind as it is: frozen, so that nothing can change it for them.
            const json = cache.serialize(deepFreeze(data));
            // Kept as objects too (plugins may read the answer), which take a few times their JSON's size.
            cache.set(pending.key, pending.version, data, OBJECT_SIZE_FACTOR * json.length + pending.key.length);
          } finally {
            pending.settle();
          }
        },
      };
    },
  };
}

function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object' && !Object.isFrozen(value)) {
    for (const inner of Object.values(value)) deepFreeze(inner);
    Object.freeze(value);
  }
  return value;
}
