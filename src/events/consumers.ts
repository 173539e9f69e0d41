import { UnrecoverableError } from 'bullmq';
import { inTransaction, SYSTEM_ACTOR, type UnitOfWork } from '../db/unit-of-work.ts';
import { QueueName, type JobDefinition } from '../jobs/types.ts';
import type { Logger } from '../logger.ts';
import type { Services } from '../services.ts';
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
 * The dispatch side, called once per committed batch of events in the process that committed them: one job per
 * interested consumer, with an id derived from both so a repeated enqueue is one job. When the queue refuses
 * (Redis unreachable), the consumer runs here at once instead: the ledger keeps that from applying twice.
 */
export class ConsumerDispatcher {
  private readonly inFlight = new Set<Promise<unknown>>();

  constructor(
    private readonly consumers: readonly EventConsumer[],
    private readonly services: () => Services,
    private readonly log: Logger,
  ) {}

  dispatch(events: readonly DomainEvent[]): void {
    for (const event of events) {
      for (const consumer of this.consumers) {
        if (consumer.events.includes(event.type)) this.track(this.hand(consumer, event));
      }
    }
  }

  /** Resolves once every dispatch started so far has been queued (or run here). */
  async settled(): Promise<void> {
    while (this.inFlight.size) await Promise.allSettled([...this.inFlight]);
  }

  private async hand(consumer: EventConsumer, event: DomainEvent): Promise<void> {
    const context = { consumer: consumer.name, type: event.type };
    try {
      const data: ConsumeData = { consumer: consumer.name, event };
      await this.services().jobs.enqueue(CONSUME_EVENT_JOB, data, { jobId: `${consumer.name}-${event.id}` });
    } catch (error) {
      this.log.warn({ err: error, ...context }, 'event consumer could not be queued; running it here');
      await consumeOnce(this.services(), consumer, event).catch((failure: unknown) =>
        this.log.error({ err: failure, ...context }, 'event consumer failed'),
      );
    }
  }

  private track(work: Promise<unknown>): void {
    this.inFlight.add(work);
    void work.finally(() => this.inFlight.delete(work));
  }
}
