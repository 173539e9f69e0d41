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
