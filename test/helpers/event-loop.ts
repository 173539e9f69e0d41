/**
 * How many turns the event loop made while `work` ran: work done on this thread runs between two turns, work handed
 * to another thread lets the loop keep turning (thousands of turns for a few milliseconds of waiting).
 */
export async function turnsDuring<T>(work: () => Promise<T>): Promise<{ value: T; turns: number }> {
  let turns = 0;
  let working = true;
  const turn = () => {
    turns += 1;
    if (working) setImmediate(turn);
  };
  setImmediate(turn);
  try {
    const value = await work();
    return { value, turns };
  } finally {
    working = false;
  }
}
