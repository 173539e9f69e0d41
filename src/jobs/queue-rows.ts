import type { Services } from '../services.ts';

/**
 * Queues one `job` per stored row (`{ rowId }` as its data under `key`). A queue that refuses only delays a row:
 * the row stays pending in the database and its sweep queues it again, so the refusal is logged, not thrown.
 */
export function queueRows(
  services: Services,
  job: string,
  key: string,
  rows: readonly { id: string; delayMs?: number }[],
  what: string,
): Promise<void> {
  return Promise.all(
    rows.map(({ id, delayMs }) =>
      services.jobs.enqueue(job, { [key]: id }, { delayMs }).catch((error: unknown) => {
        services.log.warn({ err: error, [key]: id }, `${what} could not be queued; the sweep will send it`);
      }),
    ),
  ).then(() => undefined);
}

/** Pending rows past due by this much are queued again by their sweep: their job was lost. */
export const SWEEP_GRACE_MS = 30_000;

/**
 * The pending rows a sweep queues again: past due by SWEEP_GRACE_MS and held by no live lease. Jobs in memory die
 * with their process, so at the start of a runner that is not durable every pending row is lost, due or not, and
 * leased or not: the lease of an attempt cut by the process's end holds its row until it runs out. Each is queued
 * for when it may be attempted (`delayUntil`); another process's live attempt is not doubled, as an attempt claims
 * its row's lease first.
 */
export function lostRows(services: Services, atStart: boolean, now: number) {
  if (atStart && !services.jobs.durable) return { status: 'pending' as const };
  return {
    status: 'pending' as const,
    nextAttemptAt: { lt: new Date(now - SWEEP_GRACE_MS) },
    OR: [{ leaseUntil: null }, { leaseUntil: { lt: new Date(now) } }],
  };
}

/** What `delayUntil` reads of a row: the columns a sweep selects. */
export const WHEN_DUE = { id: true, nextAttemptAt: true, leaseUntil: true } as const;

/** Past a lease's end, so that an attempt (which compares it with its own clock reading) finds it over. */
const LEASE_SLACK_MS = 1_000;

/** A row's id and the wait until it may be attempted: its next attempt due and its lease run out. */
export const delayUntil = (row: { id: string; nextAttemptAt: Date | null; leaseUntil: Date | null }, now: number) => ({
  id: row.id,
  delayMs: Math.max(0, (row.nextAttemptAt?.getTime() ?? now) - now, row.leaseUntil ? row.leaseUntil.getTime() + LEASE_SLACK_MS - now : 0),
});
