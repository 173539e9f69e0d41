import { randomUUID } from 'node:crypto';
import type { Prisma } from '../../db/client.ts';
import type { UnitOfWork } from '../../db/unit-of-work.ts';
import type { Test, TestState } from '../../generated/prisma/client.ts';
import { lockAndRead } from '../../db/row-lock.ts';
import { assertUuid } from '../../validation.ts';

export type TestQuery = { select?: Prisma.TestSelect; include?: Prisma.TestInclude };

/** Throws 404 for anything that is not a UUID, before it can reach SQL. */
export const assertTestId = (id: string): void => assertUuid('Test', id);

export interface TimelineEntry {
  kind: string;
  fromState?: TestState | null;
  toState?: TestState | null;
  details?: Prisma.InputJsonValue;
}

/** A test locked for the rest of the transaction, and the clock its changes are recorded with. */
export interface LockedTest {
  test: Test;
  /** The moment of this change: never earlier than the test's last timeline entry. */
  now: Date;
  /** Appends timeline entries, strictly ordered after every earlier one. */
  record(...entries: TimelineEntry[]): Promise<void>;
}

/**
 * Locks the test row and re-reads it inside the transaction: concurrent changes of one test run one after
 * the other, each seeing the state the previous one committed. `FOR NO KEY UPDATE` still lets other
 * transactions insert rows that reference the test (evidence, evaluations) meanwhile.
 */
export async function lockTest(uow: UnitOfWork, id: string): Promise<LockedTest> {
  const test = await lockAndRead(uow.tx, 'tests', 'Test', id, () => uow.tx.test.findUnique({ where: { id } }), 'noKeyUpdate');
  const last = await uow.tx.testEvent.findFirst({ where: { testId: id }, orderBy: { at: 'desc' }, select: { at: true } });
  return timelineOf(uow, test, last?.at);
}

/** The recorder for a test created in this transaction (nothing to lock yet). */
export const newTimeline = (uow: UnitOfWork, test: Test): LockedTest => timelineOf(uow, test, undefined);

function timelineOf(uow: UnitOfWork, test: Test, lastAt: Date | undefined): LockedTest {
  let next = Math.max(Date.now(), lastAt ? lastAt.getTime() + 1 : 0);
  const now = new Date(next);
  return {
    test,
    now,
    async record(...entries) {
      for (const entry of entries) {
        await uow.tx.testEvent.create({
          data: {
            testId: test.id,
            kind: entry.kind,
            fromState: entry.fromState ?? null,
            toState: entry.toState ?? null,
            details: entry.details ?? {},
            actorId: uow.actor.userId,
            actorName: uow.actor.username,
            at: new Date(next++),
          },
        });
      }
    },
  };
}

/**
 * Takes, in technique order, the locks that writing tests of these techniques takes on their figures
 * (`technique_test_stats`, kept by triggers on `tests`; each statement's trigger locks the rows it recomputes, until
 * the commit). A transaction that writes tests of several techniques in several statements takes them first, so that
 * two such transactions cannot take them in opposite orders and deadlock.
 */
export async function lockTechniqueFigures(uow: UnitOfWork, techniqueIds: readonly string[]): Promise<void> {
  const ids = [...new Set(techniqueIds)];
  if (ids.length > 1) await uow.tx.$executeRaw`SELECT lock_technique_test_stats(${ids}::uuid[])`;
}

export type NewTest = Omit<Prisma.TestUncheckedCreateInput, 'id' | 'lineageId' | 'createdById' | 'state'> & { lineageId?: string };

/** Inserts a draft test with its `created` timeline entry, audit entry and event; answers it read with `query`. */
export async function insertTest(
  uow: UnitOfWork,
  createdById: string,
  fields: NewTest,
  details: Prisma.InputJsonObject,
  query: TestQuery = {},
) {
  const id = randomUUID();
  const test = await uow.tx.test.create({ data: { ...fields, id, lineageId: fields.lineageId ?? id, createdById, state: 'draft' } });
  await newTimeline(uow, test).record({ kind: 'created', toState: 'draft', details });
  await uow.audit({
    action: 'create_test',
    entityType: 'test',
    entityId: id,
    details: { name: test.name, technique_id: test.techniqueId, ...details },
  });
  uow.emit('test.changed', { testId: id, campaignId: test.campaignId, change: 'created' });
  return uow.tx.test.findUniqueOrThrow({ ...query, where: { id } });
}
