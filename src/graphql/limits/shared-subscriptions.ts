import { print, subscribe, type ExecutionArgs, type ExecutionResult } from 'graphql';
import type { Context } from '../context.ts';

/** Results a slow subscriber may have waiting; older ones are dropped (a live stream, not a log). */
const QUEUE_MAX = 100;

/** One subscriber's stream of a shared subscription: what the source yields, from the moment it joined. */
class Subscriber implements AsyncIterableIterator<ExecutionResult> {
  private readonly queue: ExecutionResult[] = [];
  private waiting: ((result: IteratorResult<ExecutionResult>) => void) | null = null;
  private closed = false;

  constructor(private readonly onLeave: (subscriber: Subscriber) => void) {}

  push(value: ExecutionResult): void {
    if (this.closed) return;
    if (this.waiting) {
      const wake = this.waiting;
      this.waiting = null;
      wake({ value, done: false });
      return;
    }
    if (this.queue.length >= QUEUE_MAX) this.queue.shift();
    this.queue.push(value);
  }

  end(): void {
    this.closed = true;
    this.waiting?.({ value: undefined, done: true });
    this.waiting = null;
  }

  next(): Promise<IteratorResult<ExecutionResult>> {
    const value = this.queue.shift();
    if (value) return Promise.resolve({ value, done: false });
    if (this.closed) return Promise.resolve({ value: undefined, done: true });
    return new Promise((resolve) => (this.waiting = resolve));
  }

  return(): Promise<IteratorResult<ExecutionResult>> {
    if (!this.closed) {
      this.end();
      this.onLeave(this);
    }
    return Promise.resolve({ value: undefined, done: true });
  }

  [Symbol.asyncIterator]() {
    return this;
  }
}

interface Hub {
  source: AsyncGenerator<ExecutionResult>;
  subscribers: Set<Subscriber>;
}

/**
 * Identical subscriptions share their work: the same document, variables and operation for the same principal (so
 * the same visibility) are executed once per event and the result is sent to every subscriber. Without this, each
 * event costs as many executions as there are identical subscriptions.
 */
export class SharedSubscriptions {
  private readonly hubs = new Map<string, Hub>();

  /** graphql-ws `subscribe`: joins the running execution of an identical subscription, or starts one. */
  readonly subscribe = async (args: ExecutionArgs): Promise<AsyncIterableIterator<ExecutionResult> | ExecutionResult> => {
    const principal = (args.contextValue as Context).auth.principal;
    const key = JSON.stringify([
      principal?.userId ?? null,
      principal?.role ?? null,
      principal?.keyScope ?? null,
      print(args.document),
      args.variableValues ?? {},
      args.operationName ?? null,
    ]);
    let hub = this.hubs.get(key);
    if (!hub) {
      const source = await subscribe(args);
      if (!(Symbol.asyncIterator in source)) return source;
      // Another identical subscription may have started while this one was subscribing.
      hub = this.hubs.get(key);
      if (hub) void source.return(undefined);
      else this.hubs.set(key, (hub = this.pump(key, source)));
    }
    const shared = hub;
    const subscriber = new Subscriber((leaving) => {
      shared.subscribers.delete(leaving);
      if (shared.subscribers.size > 0 || this.hubs.get(key) !== shared) return;
      this.hubs.delete(key);
      void shared.source.return(undefined);
    });
    shared.subscribers.add(subscriber);
    return subscriber;
  };

  private pump(key: string, source: AsyncGenerator<ExecutionResult>): Hub {
    const hub: Hub = { source, subscribers: new Set() };
    void (async () => {
      try {
        for await (const result of source) for (const subscriber of hub.subscribers) subscriber.push(result);
      } catch {
        // A failing source ends its subscribers' streams; graphql-ws then completes them.
      } finally {
        if (this.hubs.get(key) === hub) this.hubs.delete(key);
        for (const subscriber of hub.subscribers) subscriber.end();
      }
    })();
    return hub;
  }

  /** How many distinct executions are running (for tests and metrics). */
  get running(): number {
    return this.hubs.size;
  }
}
