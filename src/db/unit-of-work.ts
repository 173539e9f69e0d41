import { event } from '../events/bus.ts';
import type { DomainEvent, DomainEventType, EventOf } from '../events/types.ts';
import type { Services } from '../services.ts';
import type { Db, Prisma } from './client.ts';

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
}

/** One transaction: the change, its audit entries, and the domain events published once it commits. */
export interface UnitOfWork {
  tx: Db;
  actor: Actor;
  audit(entry: AuditInput): Promise<void>;
  emit<K extends DomainEventType>(type: K, payload: EventOf<K>['payload']): void;
}

const isObject = (value: Prisma.InputJsonValue): value is Prisma.InputJsonObject =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * Runs `work` in a database transaction. Audit entries are written inside it; events are published only
 * after the commit, so no consumer ever sees a change that was rolled back.
 */
export async function inTransaction<T>(
  services: Pick<Services, 'prisma' | 'bus'>,
  actor: Actor,
  work: (uow: UnitOfWork) => Promise<T>,
  options: TransactionOptions = {},
): Promise<T> {
  const events: DomainEvent[] = [];
  const result = await services.prisma.$transaction(
    async (tx) =>
      work({
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
      }),
    options,
  );
  await services.bus.publish(events);
  return result;
}
