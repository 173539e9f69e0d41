import { performance } from 'node:perf_hooks';
import {
  defaultFieldResolver,
  getNamedType,
  getNullableType,
  isLeafType,
  isNonNullType,
  isObjectType,
  type GraphQLField,
  type GraphQLLeafType,
  type GraphQLFieldResolver,
  type GraphQLResolveInfo,
  type GraphQLSchema,
} from 'graphql';
import type { Context } from '../context.ts';
import { LIMIT_CODES, QueryLimitError } from './errors.ts';

/**
 * The execution guard (docs/graphql-limits.md): every field's resolver is wrapped so that an operation stops with
 * one clear error once its answer would exceed GRAPHQL_MAX_ANSWER bytes (counted as values are resolved, before any
 * string is built) or once it has run GRAPHQL_DEADLINE; and so that a long operation yields the event loop every
 * SLICE_MS, letting other requests through between its slices.
 */

/** The longest a resolver chain runs before the guard lets the event loop serve others. */
export const SLICE_MS = 15;

/**
 * Root fields of one operation resolved at once. Root resolvers load their whole subtree from the database, and
 * aliases all start together: taking them a few at a time lets the byte cap stop the rest before they load.
 */
export const ROOT_FIELDS_AT_ONCE = 2;

let sliceStartedAt = performance.now();

/** Leaf values between two readings of the clock (a deadline is missed by microseconds, not by a clock read per value). */
const LEAF_CLOCK = 128;

class AnswerBudget {
  private bytes = 0;
  private leaves = 0;
  /** Why the operation stops, once it must. */
  refusal: QueryLimitError | null = null;
  private deadline: number;
  private rootsRunning = 0;
  private readonly rootsWaiting: Array<() => void> = [];

  constructor(
    private readonly maxBytes: number,
    private readonly deadlineMs: number,
  ) {
    this.deadline = performance.now() + deadlineMs;
  }

  /** The refusal once the answer is over its size or its time, else null. */
  stop(now: number): QueryLimitError | null {
    if (!this.refusal && now > this.deadline) {
      this.refusal = new QueryLimitError(
        LIMIT_CODES.timeout,
        `The operation ran longer than ${this.deadlineMs} ms: ask for smaller pages or fewer fields`,
        { deadline_ms: this.deadlineMs },
        503,
      );
    }
    return this.refusal;
  }

  spend(bytes: number): void {
    this.bytes += bytes;
    if (this.bytes <= this.maxBytes || this.refusal) return;
    this.refusal = new QueryLimitError(
      LIMIT_CODES.answer,
      `The answer would be larger than ${this.maxBytes} bytes: ask for smaller pages or fewer fields`,
      { max_answer_bytes: this.maxBytes },
      422,
    );
  }

  /** Runs a root field's resolver when fewer than ROOT_FIELDS_AT_ONCE others are running, within the budget. */
  async inRootSlot<T>(resolve: () => T): Promise<Awaited<T>> {
    if (this.rootsRunning >= ROOT_FIELDS_AT_ONCE) await new Promise<void>((start) => this.rootsWaiting.push(start));
    this.rootsRunning += 1;
    try {
      const refusal = this.stop(performance.now());
      if (refusal) throw refusal;
      return await resolve();
    } finally {
      this.rootsRunning -= 1;
      this.rootsWaiting.shift()?.();
    }
  }

  /** Gives the rest of the operation a whole deadline from `now` (after a write: see `guarded`). */
  restart(now: number): void {
    if (!this.refusal) this.deadline = now + this.deadlineMs;
  }

  /**
   * Adds a leaf's response name and value, reading the clock every LEAF_CLOCK leaves only: the refusal once the
   * operation must stop, else null.
   */
  spendLeaf(responseName: string, value: unknown): QueryLimitError | null {
    this.spend(responseName.length + 4 + jsonBytes(value, this.remaining()));
    this.leaves += 1;
    return this.leaves % LEAF_CLOCK === 0 ? this.stop(performance.now()) : this.refusal;
  }

  /** What is left before the cap: a bound for measuring a JSON value without walking it all. */
  remaining(): number {
    return this.maxBytes - this.bytes;
  }
}

/**
 * An operation's budget lives on its context, not in a WeakMap keyed by it: V8's young-generation collector keeps a
 * long-lived WeakMap's values alive, so each request's budget and context were moved to the old generation.
 */
const BUDGET = Symbol('answer budget');
type Budgeted = Context & { [BUDGET]?: AnswerBudget };

function newBudget(context: Budgeted): AnswerBudget {
  const { config } = context.services;
  const budget = new AnswerBudget(config.GRAPHQL_MAX_ANSWER, config.GRAPHQL_DEADLINE);
  context[BUDGET] = budget;
  return budget;
}

/** The bytes of a JSON value, approximately, walking no further than `limit`. */
function jsonBytes(value: unknown, limit: number): number {
  if (value === null || value === undefined) return 4;
  if (typeof value === 'string') return value.length + 2;
  if (typeof value !== 'object') return 8;
  if (value instanceof Date) return 26;
  let total = 2;
  if (Array.isArray(value)) {
    for (const item of value) {
      total += 1 + jsonBytes(item, limit - total);
      if (total > limit) return total;
    }
    return total;
  }
  for (const [key, item] of Object.entries(value)) {
    total += key.length + 4 + jsonBytes(item, limit - total);
    if (total > limit) return total;
  }
  return total;
}

const yieldWith = <T>(value: T) =>
  new Promise<T>((resolve) =>
    setImmediate(() => {
      sliceStartedAt = performance.now();
      resolve(value);
    }),
  );

function isPromiseLike(value: unknown): value is PromiseLike<unknown> {
  return typeof (value as PromiseLike<unknown> | null)?.then === 'function';
}

/**
 * The promise as it is, marked handled. Refusals are always promises: graphql-js abandons the pending siblings of a
 * field that throws at once, and their rejections would be unhandled; it awaits every promise of a selection.
 */
function handled<T>(promise: Promise<T>): Promise<T> {
  promise.catch(() => undefined);
  return promise;
}

const refused = (refusal: QueryLimitError) => handled(Promise.reject(refusal));

/**
 * A guarded resolver of a leaf read from its parent's property may also complete the value itself: graphql-js (as the
 * build patches it, scripts/dependency-patches.mjs) calls `leafValue` first and takes its usual path, with a resolve
 * info, an arguments object and the wrapper below, only when it answers undefined, which no completed value is.
 */
export type GuardedResolver = GraphQLFieldResolver<unknown, Context> & {
  leafValue?: (source: unknown, context: Context, responseName: string) => unknown;
};

/**
 * The completed value of a leaf whose resolver reads the parent's property `field.name` (graphql-js's default
 * resolver, which Pothos gives exposed fields), accounted as the wrapper accounts it; undefined wherever graphql-js's
 * own path would do anything else: no budget yet or a refusal, a parent that is not an object, a method, an error, a
 * null where the type forbids it, a value the scalar refuses, a clock reading that stops the operation.
 */
function leafReader(field: GraphQLField<unknown, Context>): GuardedResolver['leafValue'] {
  const type = getNullableType(field.type) as GraphQLLeafType;
  const nullable = !isNonNullType(field.type);
  const { name } = field;
  return (source, context, responseName) => {
    const budget = (context as Budgeted)[BUDGET];
    if (budget === undefined || budget.refusal || source === null || typeof source !== 'object') return undefined;
    let completed: unknown = null;
    // Whatever throws here (a getter, a scalar's refusal) throws again on the usual path, inside graphql-js's own
    // handling of the field's errors.
    try {
      const value = (source as Record<string, unknown>)[name];
      if (value === null || value === undefined) {
        if (!nullable) return undefined;
      } else {
        if (typeof value === 'function' || value instanceof Error) return undefined;
        completed = type.serialize(value);
        if (completed === null || completed === undefined) return undefined;
      }
      return budget.spendLeaf(responseName, value) ? undefined : completed;
    } catch {
      return undefined;
    }
  };
}

function guarded(field: GraphQLField<unknown, Context>, startsExecution: boolean, writes: boolean): GuardedResolver {
  const resolve = field.resolve ?? defaultFieldResolver;
  const leaf = isLeafType(getNamedType(field.type));
  /**
   * A leaf's value adds its bytes; the clock is read every LEAF_CLOCK leaves only. A field with a selection below it
   * also reads the clock: past the deadline the operation stops, and past the slice its subtree is handed over after
   * `setImmediate`. A new slice starts at that moment, so one slice defers one subtree, not every field after it.
   */
  const account = (budget: AnswerBudget, info: GraphQLResolveInfo, value: unknown) => {
    if (leaf) {
      const refusal = budget.spendLeaf(info.path.key.toString(), value);
      return refusal ? refused(refusal) : value;
    }
    budget.spend(info.path.key.toString().length + 4 + (Array.isArray(value) ? value.length + 2 : 2));
    const now = performance.now();
    const refusal = budget.stop(now);
    if (refusal) return refused(refusal);
    if (now - sliceStartedAt <= SLICE_MS) return value;
    sliceStartedAt = now;
    return yieldWith(value);
  };
  const resolver: GuardedResolver = (parent, args, context, info) => {
    // A subscription executes its selection once per event, each with a budget of its own.
    const budget = (!startsExecution && (context as Budgeted)[BUDGET]) || newBudget(context);
    if (!info.path.prev && !startsExecution) {
      return handled(
        budget
          .inRootSlot(() => resolve(parent, args, context, info))
          .then((resolved) => {
            if (!writes) return account(budget, info, resolved);
            // A write that has run is never reported as timed out: the deadline counts its answer's selection from
            // here, and again after the answer yields the event loop to other requests (their time is not its own).
            budget.restart(performance.now());
            const answered = account(budget, info, resolved);
            return isPromiseLike(answered)
              ? Promise.resolve(answered).then((value) => {
                  budget.restart(performance.now());
                  return value;
                })
              : answered;
          }),
      );
    }
    // A leaf's resolver reads its parent's value; a field with a selection may load more, so it is not started late.
    const refusal = leaf ? budget.refusal : budget.stop(performance.now());
    if (refusal) return refused(refusal);
    const value = resolve(parent, args, context, info);
    return isPromiseLike(value)
      ? handled(Promise.resolve(value).then((resolved) => account(budget, info, resolved)))
      : account(budget, info, value);
  };
  if (leaf && !startsExecution && (field.resolve === undefined || field.resolve === defaultFieldResolver)) {
    resolver.leafValue = leafReader(field);
  }
  return resolver;
}

/** Wraps every field resolver of `schema` with the execution guard; returns the same schema. */
export function guardExecution(schema: GraphQLSchema): GraphQLSchema {
  const subscriptionRoot = schema.getSubscriptionType();
  const mutationRoot = schema.getMutationType();
  for (const type of Object.values(schema.getTypeMap())) {
    if (!isObjectType(type) || type.name.startsWith('__')) continue;
    for (const field of Object.values(type.getFields())) {
      field.resolve = guarded(field as GraphQLField<unknown, Context>, type === subscriptionRoot, type === mutationRoot);
    }
  }
  return schema;
}
