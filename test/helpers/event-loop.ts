/**
 * How the event loop turned while `work` ran: how many turns, and the longest wait between two of them. Work done on
 * this thread holds one turn for all its time; work handed to another thread lets the loop keep turning.
 */
export async function turnsDuring<T>(work: () => Promise<T>): Promise<{ value: T; turns: number; longestGapMs: number }> {
  let turns = 0;
  let longestGapMs = 0;
  let last = performance.now();
  let working = true;
  const turn = () => {
    const now = performance.now();
    longestGapMs = Math.max(longestGapMs, now - last);
    last = now;
    turns += 1;
    if (working) setImmediate(turn);
  };
  setImmediate(turn);
  try {
    const value = await work();
    return { value, turns, longestGapMs };
  } finally {
    working = false;
  }
}
