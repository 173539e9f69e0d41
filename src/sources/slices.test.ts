import { describe, expect, it } from 'vitest';
import { eachInSlices } from './slices.ts';
import { turnsDuring } from '../../test/helpers/event-loop.ts';

const busy = (ms: number) => {
  const until = performance.now() + ms;
  while (performance.now() < until);
};

describe('eachInSlices', () => {
  it('calls the work on every item in order, and lets the event loop turn once a slice has passed', async () => {
    const seen: number[] = [];
    const { turns, longestGapMs } = await turnsDuring(() =>
      eachInSlices(
        Array.from({ length: 40 }, (_, index) => index),
        (item) => {
          seen.push(item);
          busy(2);
        },
        10,
      ),
    );
    expect(seen).toEqual(Array.from({ length: 40 }, (_, index) => index));
    // 80 ms of work in slices of about 10: the loop turns between them and never waits for all of it.
    expect(turns).toBeGreaterThanOrEqual(4);
    expect(longestGapMs).toBeLessThan(40);
  });

  it('does not hand the event loop over while the slice lasts', async () => {
    const { turns } = await turnsDuring(() => eachInSlices([1, 2, 3], () => undefined, 1_000));
    expect(turns).toBeLessThanOrEqual(1);
  });

  it('stops at the first item whose work throws', async () => {
    const seen: number[] = [];
    const failing = eachInSlices([1, 2, 3], (item) => {
      if (item === 2) throw new Error('bad item');
      seen.push(item);
    });
    await expect(failing).rejects.toThrow('bad item');
    expect(seen).toEqual([1]);
  });
});
