import pg from 'pg';

/** The SQL of a `pg` query call: its text, or the `text` of its query config. */
function sqlOf(statement: unknown): string {
  if (typeof statement === 'string') return statement;
  return (statement as { text?: unknown } | null)?.text?.toString() ?? '';
}

/**
 * The statement that reads a token's user and revocation (src/auth/authenticate.ts). A request sends it or not
 * depending on the requests of the last second with the same token (src/auth/session-cache.ts).
 */
export const SESSION_READ = /FROM revoked_tokens WHERE jti/;

/**
 * Counts the SQL statements the server sends while `work` runs (the server runs in this process, on the `pg`
 * driver), the session read left out. With `matching`, only the statements whose SQL matches it count.
 */
export async function countQueries(work: () => Promise<unknown>, matching?: RegExp): Promise<number> {
  const original = pg.Client.prototype.query;
  let count = 0;
  pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
    const sql = sqlOf(args[0]);
    if (matching ? sql.search(matching) !== -1 : sql.search(SESSION_READ) === -1) count++;
    return (original as (...a: unknown[]) => unknown).apply(this, args);
  } as typeof original;
  try {
    await work();
  } finally {
    pg.Client.prototype.query = original;
  }
  return count;
}
