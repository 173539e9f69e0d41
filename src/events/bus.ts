import { EventEmitter, on } from 'node:events';
import { randomUUID } from 'node:crypto';
import type { Db } from '../db/client.ts';
import type { Logger } from '../logger.ts';
import type { Redis } from '../redis.ts';
import type { DomainEvent, DomainEventType, EventOf } from './types.ts';

type Handler<K extends DomainEventType> = (event: EventOf<K>) => void | Promise<void>;

const DELIVERY = 'event';

/**
 * A subscription's filter from its optional id arguments, named as the payload's fields: an event passes when every
 * argument given equals its field (`{ testId, campaignId }`: one test, one campaign's tests, or every test).
 */
export function payloadMatches<P>(wanted: { [Field in keyof P]?: unknown }): (event: { payload: P }) => boolean {
  const given = Object.entries(wanted).flatMap(([field, value]) => (value ? [[field, String(value)] as const] : []));
  return ({ payload }) => given.every(([field, value]) => (payload as Record<string, unknown>)[field] === value);
}

/** The durable path of committed events to their consumers (src/events/consumers.ts). */
export interface EventDispatcher {
  record(tx: Db, events: readonly DomainEvent[]): Promise<void>;
  dispatch(events: readonly DomainEvent[]): void;
}

/**
 * The one domain event bus. Events are delivered in-process at once; with Redis they are also published
 * on a channel so every other API and worker process sees them (a process ignores its own echoes).
 */
export class EventBus {
  private readonly local = new EventEmitter({ captureRejections: false });
  private readonly origin = randomUUID();

  private constructor(
    private readonly log: Logger,
    private readonly channel: string,
    private readonly publisher?: Redis,
    private readonly subscriber?: Redis,
  ) {
    this.local.setMaxListeners(0);
  }

  private dispatcher?: EventDispatcher;

  /** Hands every event committed here to the consumer dispatcher: recorded in the transaction, dispatched after it. */
  dispatchTo(dispatcher: EventDispatcher): void {
    this.dispatcher = dispatcher;
  }

  /** Records `events` in the change's transaction (the outbox), so the consumers get them even after a crash. */
  async record(tx: Db, events: readonly DomainEvent[]): Promise<void> {
    await this.dispatcher?.record(tx, events);
  }

  static inProcess(log: Logger): EventBus {
    return new EventBus(log, 'events');
  }

  static async overRedis(log: Logger, publisher: Redis, subscriber: Redis, prefix: string): Promise<EventBus> {
    const bus = new EventBus(log, `${prefix}:events`, publisher, subscriber);
    subscriber.on('message', (channel: string, message: string) => bus.receive(channel, message));
    await subscriber.subscribe(bus.channel);
    return bus;
  }

  /**
   * Delivers in this process at once. Publishing to other processes is best-effort and never awaited: the
   * change is committed already, and a request must not wait for (or fail with) an unreachable Redis.
   */
  async publish(events: readonly DomainEvent[]): Promise<void> {
    if (events.length) this.dispatcher?.dispatch(events);
    for (const event of events) {
      this.local.emit(DELIVERY, event);
      this.publisher?.publish(this.channel, JSON.stringify({ origin: this.origin, event })).catch((error: unknown) => {
        this.log.warn({ err: error, type: event.type }, 'event could not be published to other processes');
      });
    }
  }

  /**
   * Whether the events of other processes reach this one now: always in-process (there are none), over Redis while
   * the subscriber's connection is up. Announcements made while it is down are lost, not replayed.
   */
  hearsOthers(): boolean {
    return !this.subscriber || this.subscriber.status === 'ready';
  }

  /** Runs `handler` for every event of `type`; returns the unsubscribe function. */
  on<K extends DomainEventType>(type: K, handler: Handler<K>): () => void {
    const listener = (event: DomainEvent) => {
      if (event.type !== type) return;
      Promise.resolve(handler(event as EventOf<K>)).catch((error) => {
        this.log.error({ err: error, type }, 'event handler failed');
      });
    };
    this.local.on(DELIVERY, listener);
    return () => this.local.off(DELIVERY, listener);
  }

  /** Events of `type` that pass `accept`, as an async iterator that unsubscribes when closed. */
  stream<K extends DomainEventType>(type: K, accept: (event: EventOf<K>) => boolean): AsyncIterableIterator<EventOf<K>> {
    const controller = new AbortController();
    const source = on(this.local, DELIVERY, { signal: controller.signal }) as AsyncIterableIterator<[DomainEvent]>;
    const done = (): IteratorResult<EventOf<K>> => ({ done: true, value: undefined });
    const iterator: AsyncIterableIterator<EventOf<K>> = {
      async next() {
        for (;;) {
          const result = await source.next().catch(done);
          if (result.done) return done();
          const [event] = result.value as [DomainEvent];
          if (event.type === type && accept(event as EventOf<K>)) return { done: false, value: event as EventOf<K> };
        }
      },
      async return() {
        controller.abort();
        return done();
      },
      [Symbol.asyncIterator]() {
        return iterator;
      },
    };
    return iterator;
  }

  private receive(channel: string, message: string): void {
    if (channel !== this.channel) return;
    try {
      const { origin, event } = JSON.parse(message) as { origin: string; event: DomainEvent };
      if (origin !== this.origin) this.local.emit(DELIVERY, event);
    } catch (error) {
      this.log.warn({ err: error }, 'malformed event on the bus ignored');
    }
  }

  async close(): Promise<void> {
    this.local.removeAllListeners();
    await this.subscriber?.unsubscribe(this.channel).catch(() => undefined);
  }
}

export function event<K extends DomainEventType>(type: K, payload: EventOf<K>['payload'], actorId: string | null): EventOf<K> {
  return { id: randomUUID(), type, payload, actorId, occurredAt: new Date().toISOString() } as EventOf<K>;
}
