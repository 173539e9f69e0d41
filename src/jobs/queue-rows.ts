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
 * with their process, so at the start of a runner that is not durable every pending row not held by a live lease
 * is lost, due or not (queue it with the delay its `nextAttemptAt` leaves: `delayUntil`).
 */
export function lostRows(services: Services, atStart: boolean, now: number) {
  const graceMs = atStart && !services.jobs.durable ? 0 : SWEEP_GRACE_MS;
  return {
    status: 'pending' as const,
    ...(graceMs ? { nextAttemptAt: { lt: new Date(now - graceMs) } } : {}),
    OR: [{ leaseUntil: null }, { leaseUntil: { lt: new Date(now) } }],
  };
}

/** A row's id and the wait until its next attempt is due (none when it is due, or has no time set). */
export const delayUntil = (row: { id: string; nextAttemptAt: Date | null }, now: number) => ({
  id: row.id,
  delayMs: Math.max(0, (row.nextAttemptAt?.getTime() ?? now) - now),
});
