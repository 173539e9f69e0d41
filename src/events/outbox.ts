import type { Db, Prisma, PrismaClient } from '../db/client.ts';
import type { Logger } from '../logger.ts';
import type { DomainEvent } from './types.ts';

/** How long the committing process has to hand its events over before the relay takes them up. */
export const OUTBOX_GRACE_MS = 10_000;
/** How often each process looks for events not yet handed to their consumers. */
export const OUTBOX_RELAY_INTERVAL_MS = 2_000;
/** The relay's tries of one event (backing off from 5 s to 10 min) before it gives the event up and logs it. */
export const OUTBOX_MAX_ATTEMPTS = 10;
/** Handed-over events are kept this long (for inspection), then deleted. */
export const OUTBOX_RETENTION_MS = 7 * 24 * 3_600_000;
const PURGE_EVERY_MS = 3_600_000;
const BATCH = 100;

/** What the relay needs from the consumer dispatcher. */
export interface OutboxDispatcher {
  /** Names of the consumers of `event` that have not applied it yet (their `processed_events` rows are missing). */
  unapplied(events: readonly DomainEvent[]): Promise<Map<string, string[]>>;
  /** Hands `event` to the named consumers; true when each of them durably has it (queued on Redis, or applied). */
  handTo(event: DomainEvent, consumers: readonly string[]): Promise<boolean>;
}

/** Writes `events` in the change's transaction, so they commit (or roll back) with it. */
export async function recordEvents(tx: Db, events: readonly DomainEvent[]): Promise<void> {
  if (!events.length) return;
  const nextAttemptAt = new Date(Date.now() + OUTBOX_GRACE_MS);
  await tx.outboxEvent.createMany({
    data: events.map(({ id, type, payload, actorId, occurredAt }) => ({
      id,
      type,
      payload: payload as Prisma.InputJsonObject,
      actorId,
      occurredAt: new Date(occurredAt),
      nextAttemptAt,
    })),
  });
}

/** Marks these events handed over: the relay leaves them alone. */
export async function markDispatched(prisma: PrismaClient, ids: readonly string[]): Promise<void> {
  if (!ids.length) return;
  await prisma.outboxEvent.updateMany({
    where: { id: { in: [...ids] }, status: 'pending' },
    data: { status: 'dispatched', dispatchedAt: new Date() },
  });
}

interface ClaimedRow {
  id: string;
  type: DomainEvent['type'];
  payload: DomainEvent['payload'];
  actor_id: string | null;
  occurred_at: Date;
  attempts: number;
}

/**
 * The transactional outbox's relay, one per API and worker process: every few seconds it claims events whose
 * consumers may not have them (the committing process died, or could not hand them over), hands each to the
 * consumers that have not applied it, and marks it dispatched once they durably have it. Claiming pushes the
 * row's next attempt forward under `FOR UPDATE SKIP LOCKED`, so several processes never take the same rows.
 */
export class OutboxRelay {
  private timer?: NodeJS.Timeout;
  private running?: Promise<void>;
  private lastPurge = 0;

  constructor(
    private readonly prisma: PrismaClient,
    private readonly dispatcher: OutboxDispatcher,
    private readonly log: Logger,
  ) {}

  start(): void {
    if (this.timer) return;
    const tick = () => {
      this.running ??= this.relay()
        .then(() => undefined)
        .catch((error: unknown) => this.log.warn({ err: error }, 'outbox relay pass failed; retrying'))
        .finally(() => (this.running = undefined));
    };
    tick();
    this.timer = setInterval(tick, OUTBOX_RELAY_INTERVAL_MS);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    this.timer = undefined;
    await this.running;
  }

  /** One pass: claims the due events, batch by batch, and hands them over. */
  async relay(): Promise<number> {
    let relayed = 0;
    for (;;) {
      const rows = await this.claim();
      relayed += rows.length;
      if (rows.length) await this.handOver(rows);
      if (rows.length < BATCH) break;
    }
    await this.purge();
    return relayed;
  }

  private claim(): Promise<ClaimedRow[]> {
    return this.prisma.$queryRaw<ClaimedRow[]>`
      UPDATE outbox
         SET attempts = attempts + 1,
             next_attempt_at = now() + make_interval(secs => LEAST(600, 5 * power(2, attempts)))
       WHERE id IN (SELECT id FROM outbox WHERE status = 'pending' AND next_attempt_at <= now()
                    ORDER BY next_attempt_at LIMIT ${BATCH} FOR UPDATE SKIP LOCKED)
      RETURNING id, type, payload, actor_id, occurred_at, attempts`;
  }

  private async handOver(rows: readonly ClaimedRow[]): Promise<void> {
    const events = rows.map(
      (row) =>
        ({
          id: row.id,
          type: row.type,
          payload: row.payload,
          actorId: row.actor_id,
          occurredAt: row.occurred_at.toISOString(),
        }) as DomainEvent,
    );
    const missing = await this.dispatcher.unapplied(events);
    const done: string[] = [];
    const abandoned: string[] = [];
    await Promise.all(
      events.map(async (event, index) => {
        const consumers = missing.get(event.id) ?? [];
        if (!consumers.length || (await this.dispatcher.handTo(event, consumers))) done.push(event.id);
        else if (rows[index]!.attempts >= OUTBOX_MAX_ATTEMPTS) abandoned.push(event.id);
      }),
    );
    await markDispatched(this.prisma, done);
    if (abandoned.length) {
      await this.prisma.outboxEvent.updateMany({ where: { id: { in: abandoned } }, data: { status: 'abandoned' } });
      this.log.error({ events: abandoned }, 'events given up after every relay attempt: their consumers kept failing');
    }
  }

  private async purge(): Promise<void> {
    if (Date.now() - this.lastPurge < PURGE_EVERY_MS) return;
    this.lastPurge = Date.now();
    const before = new Date(Date.now() - OUTBOX_RETENTION_MS);
    await this.prisma.outboxEvent.deleteMany({ where: { status: { not: 'pending' }, occurredAt: { lt: before } } });
  }
}
