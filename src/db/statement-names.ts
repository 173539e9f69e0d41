/** The statements named per process: a bound on what each PostgreSQL session prepares. */
export const PREPARED_STATEMENTS_MAX = 500;

/**
 * The name of each statement sent, so that a connection parses it once and then only binds values (a test's
 * detail: 1.0 ms of PostgreSQL's time sent unprepared, 0.5 ms prepared and planned for its values). A name stands for
 * one SQL text, the same on every connection; texts past the first `max` stay unnamed, so that statements whose text
 * varies (lists of values written out) cannot grow a session's prepared statements without bound. Used by the
 * database client (src/db/client.ts) and by the benchmark's baseline, which prepares its statements the same way.
 */
export function statementNames(max = PREPARED_STATEMENTS_MAX, prefix = 'violet_'): (query: { sql: string }) => string {
  const names = new Map<string, string>();
  return ({ sql }) => {
    let name = names.get(sql);
    if (name === undefined && names.size < max) names.set(sql, (name = `${prefix}${names.size + 1}`));
    // pg sends a statement without a name unprepared.
    return name as string;
  };
}
