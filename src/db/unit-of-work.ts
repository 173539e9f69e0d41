import { event } from '../events/bus.ts';
import type { DomainEvent, DomainEventType, EventOf } from '../events/types.ts';
import type { EventBus } from '../events/bus.ts';
import type { Logger } from '../logger.ts';
import type { Db, Prisma, PrismaClient } from './client.ts';

/** Who performs a change, as recorded in the audit log. */
export interface Actor {
  userId: string | null;
  username: string;
  /** Set while a data-source sync runs: its audit entries name the run and count as the run's committed work. */
  syncRun?: SyncRunRecorder;
}

/** Called with every audit entry written on behalf of a sync run, inside the entry's transaction. */
export interface SyncRunRecorder {
  id: string;
  record(tx: Db, entry: AuditInput): Promise<void>;
}

export const SYSTEM_ACTOR: Actor = { userId: null, username: 'system' };

export interface AuditInput {
  action: string;
  entityType: string;
  entityId?: string | null;
  details?: Prisma.InputJsonValue;
}

export interface TransactionOptions {
  /** Milliseconds the transaction may run (Prisma's default is 5 s; bulk imports need more). */
  timeout?: number;
  /** Milliseconds to wait for a connection. */
  maxWait?: number;
  isolationLevel?: Prisma.TransactionIsolationLevel;
  /**
   * The transaction writes many rows at once (a snapshot's 1,000 technique rows, an import's batches): the statements
   * its triggers run for each row (foreign-key checks, the read models' refreshes) keep their plans from row to row
   * for this transaction, instead of being planned again for every row as the sessions' own statements are
   * (`PREPARED_SESSION_OPTIONS`, src/db/session-options.ts). A snapshot's 2,000 foreign-key checks took 43 ms planned
   * row by row and 15 ms with kept plans.
   */
  bulk?: boolean;
}

/** One transaction: the change, its audit entries, and what happens once it commits. */
export interface UnitOfWork {
  tx: Db;
  actor: Actor;
  audit(entry: AuditInput): Promise<void>;
  /**
   * A domain event: written to the outbox in this transaction, published (and handed to its consumers) only once
   * it has committed.
   */
  emit<K extends DomainEventType>(type: K, payload: EventOf<K>['payload']): void;
  /**
   * Work outside the database (scheduler entries, queued jobs) that must follow this change: runs once the
   * transaction has committed, in registration order, never after a rollback.
   */
  afterCommit(work: () => Promise<unknown>): void;
}

/** What a transaction needs from the process: the database, the event bus, and a log for after-commit failures. */
export interface TransactionDeps {
  prisma: PrismaClient;
  bus: EventBus;
  log: Logger;
}

const isObject = (value: Prisma.InputJsonValue): value is Prisma.InputJsonObject =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * Runs `work` in a database transaction. Audit entries and the outbox rows of its events are written inside it;
 * events are published and after-commit work runs only after the commit, so nothing outside the database
 * follows a rolled-back change, and no committed event is lost to a crash.
 * The change stands when after-commit work fails: every callback still runs, the failures are logged, and the
 * first one is thrown to the caller (e.g. 503 QUEUE_UNAVAILABLE), whose state is repaired by the job runner's
 * periodic schedule reconciliation.
 */
export async function inTransaction<T>(
  deps: TransactionDeps,
  actor: Actor,
  work: (uow: UnitOfWork) => Promise<T>,
  options: TransactionOptions = {},
): Promise<T> {
  const events: DomainEvent[] = [];
  const committed: (() => Promise<unknown>)[] = [];
  const { bulk, ...transaction } = options;
  const result = await deps.prisma.$transaction(async (tx) => {
    if (bulk) await tx.$executeRaw`SET LOCAL plan_cache_mode = auto`;
    const value = await work({
      tx,
      actor,
      async audit(entry) {
        const { action, entityType, entityId = null, details = {} } = entry;
        const run = actor.syncRun;
        const recorded = run && isObject(details) ? { ...details, run_id: run.id } : details;
        await tx.auditLog.create({
          data: { userId: actor.userId, username: actor.username, action, entityType, entityId, details: recorded },
        });
        await run?.record(tx, entry);
      },
      emit(type, payload) {
        events.push(event(type, payload, actor.userId) as DomainEvent);
      },
      afterCommit(callback) {
        committed.push(callback);
      },
    });
    await deps.bus.record(tx, events);
    return value;
  }, transaction);
  await deps.bus.publish(events);
  await runAfterCommit(committed, deps.log);
  return result;
}

async function runAfterCommit(callbacks: readonly (() => Promise<unknown>)[], log: Logger): Promise<void> {
  const failures: unknown[] = [];
  for (const callback of callbacks) {
    try {
      await callback();
    } catch (error) {
      log.warn({ err: error }, 'after-commit work failed; the committed change stands');
      failures.push(error);
    }
  }
  if (failures.length) throw failures[0];
}
