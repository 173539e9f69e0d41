import { UnrecoverableError } from '../jobs/errors.ts';
import { inTransaction, SYSTEM_ACTOR, type UnitOfWork } from '../db/unit-of-work.ts';
import { QueueName, type JobDefinition } from '../jobs/types.ts';
import type { Logger } from '../logger.ts';
import type { Services } from '../services.ts';
import type { Db } from '../db/client.ts';
import { markDispatched, recordEvents, type OutboxDispatcher } from './outbox.ts';
import type { DomainEvent, DomainEventType, EventOf } from './types.ts';

/**
 * Work that follows a committed domain event (notifications today; webhooks and e-mail are consumers too).
 * Each consumer declares the events it handles; it runs as a queued job (in-process without Redis), retried
 * with backoff, and applies each event once: its effects commit with a `processed_events` row.
 */
export interface EventConsumer<K extends DomainEventType = DomainEventType> {
  /** Stable: it keys the processed-events ledger and the job ids. */
  name: string;
  events: readonly K[];
  handle(event: EventOf<K>, uow: UnitOfWork, services: Services): Promise<void>;
}

/** Type-checks a consumer against its events, then stores it in the registry's common shape. */
export const defineConsumer = <K extends DomainEventType>(consumer: EventConsumer<K>): EventConsumer =>
  consumer as unknown as EventConsumer;

export const CONSUME_EVENT_JOB = 'consume-event';

interface ConsumeData extends Record<string, unknown> {
  consumer: string;
  event: DomainEvent;
}

/** Applies `event` with `consumer` unless it already was; a concurrent duplicate waits on the ledger row, then skips. */
export function consumeOnce(services: Services, consumer: EventConsumer, event: DomainEvent): Promise<'applied' | 'duplicate'> {
  return inTransaction(services, SYSTEM_ACTOR, async (uow) => {
    const claimed = await uow.tx.processedEvent.createMany({
      data: [{ consumer: consumer.name, eventId: event.id }],
      skipDuplicates: true,
    });
    if (!claimed.count) return 'duplicate';
    await consumer.handle(event, uow, services);
    return 'applied';
  });
}

/** The job that runs one consumer on one event. */
export function consumerJob(consumers: readonly EventConsumer[]): JobDefinition<ConsumeData> {
  const byName = new Map(consumers.map((consumer) => [consumer.name, consumer]));
  return {
    name: CONSUME_EVENT_JOB,
    queue: QueueName.events,
    description: 'Hand one domain event to one consumer',
    describe: (data) => `${data.consumer}: ${data.event.type}`,
    attempts: 5,
    async run({ consumer: name, event }, services) {
      const consumer = byName.get(name);
      if (!consumer) throw new UnrecoverableError(`No event consumer named ${name}`);
      return { outcome: await consumeOnce(services, consumer, event) };
    },
  };
}

/**
 * The dispatch side. In the change's transaction it records the events that have consumers in the outbox; once
 * committed, the process hands them at once to their consumers: one job per interested consumer, with an id
 * derived from both so a repeated enqueue is one job. When the queue refuses (Redis unreachable), the consumer
 * runs here at once instead: the ledger keeps that from applying twice. An event durably handed over is marked
 * dispatched; any other is taken up again by the outbox relay (src/events/outbox.ts) of some process.
 */
export class ConsumerDispatcher implements OutboxDispatcher {
  private readonly inFlight = new Set<Promise<unknown>>();

  constructor(
    private readonly consumers: readonly EventConsumer[],
    private readonly services: () => Services,
    private readonly log: Logger,
  ) {}

  private interested(event: DomainEvent): EventConsumer[] {
    return this.consumers.filter((consumer) => consumer.events.includes(event.type));
  }

  /** Writes the events that have consumers to the outbox, inside the change's transaction. */
  record(tx: Db, events: readonly DomainEvent[]): Promise<void> {
    return recordEvents(
      tx,
      events.filter((event) => this.interested(event).length),
    );
  }

  dispatch(events: readonly DomainEvent[]): void {
    const handed = events
      .filter((event) => this.interested(event).length)
      .map(async (event) =>
        (await this.handTo(
          event,
          this.interested(event).map(({ name }) => name),
        ))
          ? event.id
          : null,
      );
    if (!handed.length) return;
    this.track(
      Promise.all(handed)
        .then((ids) =>
          markDispatched(
            this.services().prisma,
            ids.filter((id) => id !== null),
          ),
        )
        .catch((error: unknown) => this.log.warn({ err: error }, 'events could not be marked dispatched; the outbox relay will')),
    );
  }

  async unapplied(events: readonly DomainEvent[]): Promise<Map<string, string[]>> {
    const applied = await this.services().prisma.processedEvent.findMany({
      where: { eventId: { in: events.map(({ id }) => id) } },
      select: { consumer: true, eventId: true },
    });
    const done = new Set(applied.map(({ consumer, eventId }) => `${consumer}/${eventId}`));
    return new Map(
      events.map((event) => [
        event.id,
        this.interested(event)
          .map(({ name }) => name)
          .filter((name) => !done.has(`${name}/${event.id}`)),
      ]),
    );
  }

  async handTo(event: DomainEvent, consumers: readonly string[]): Promise<boolean> {
    const handed = await Promise.all(
      this.interested(event)
        .filter(({ name }) => consumers.includes(name))
        .map((consumer) => this.hand(consumer, event)),
    );
    return handed.every(Boolean);
  }

  /** Resolves once every dispatch started so far has been queued (or run here). */
  async settled(): Promise<void> {
    while (this.inFlight.size) await Promise.allSettled([...this.inFlight]);
  }

  /** True when the consumer durably has the event: queued on a runner that survives this process, or applied here. */
  private async hand(consumer: EventConsumer, event: DomainEvent): Promise<boolean> {
    const context = { consumer: consumer.name, type: event.type };
    const work = (async () => {
      try {
        const data: ConsumeData = { consumer: consumer.name, event };
        const jobs = this.services().jobs;
        await jobs.enqueue(CONSUME_EVENT_JOB, data, { jobId: `${consumer.name}-${event.id}` });
        return jobs.durable;
      } catch (error) {
        this.log.warn({ err: error, ...context }, 'event consumer could not be queued; running it here');
        return consumeOnce(this.services(), consumer, event).then(
          () => true,
          (failure: unknown) => {
            this.log.error({ err: failure, ...context }, 'event consumer failed');
            return false;
          },
        );
      }
    })();
    this.track(work);
    return work;
  }

  private track(work: Promise<unknown>): void {
    this.inFlight.add(work);
    void work.finally(() => this.inFlight.delete(work));
  }
}
