import pg from 'pg';

/** The SQL of a `pg` query call: its text, or the `text` of its query config. */
function sqlOf(statement: unknown): string {
  if (typeof statement === 'string') return statement;
  return (statement as { text?: unknown } | null)?.text?.toString() ?? '';
}

/**
 * Counts the SQL statements the server sends while `work` runs (the server runs in this process, on the `pg`
 * driver). With `matching`, only the statements whose SQL matches it count.
 */
export async function countQueries(work: () => Promise<unknown>, matching?: RegExp): Promise<number> {
  const original = pg.Client.prototype.query;
  let count = 0;
  pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
    if (!matching || sqlOf(args[0]).search(matching) !== -1) count++;
    return (original as (...a: unknown[]) => unknown).apply(this, args);
  } as typeof original;
  try {
    await work();
  } finally {
    pg.Client.prototype.query = original;
  }
  return count;
}
