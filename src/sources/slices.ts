import { setImmediate as nextTurn } from 'node:timers/promises';

/** The longest a loop over a source's files runs before the event loop serves others. */
export const SLICE_MS = 10;

/**
 * Calls `work` on each item, handing the event loop over whenever `sliceMs` has passed since it last did. Without
 * Redis the API runs syncs itself: a loop of thousands of small parses (a Sigma archive holds about 3,000 rules,
 * a quarter of a millisecond each) would otherwise keep every request waiting for all of it.
 */
export async function eachInSlices<T>(items: Iterable<T>, work: (item: T) => void, sliceMs = SLICE_MS): Promise<void> {
  let started = performance.now();
  for (const item of items) {
    work(item);
    if (performance.now() - started < sliceMs) continue;
    await nextTurn();
    started = performance.now();
  }
}
