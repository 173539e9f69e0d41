import pg from 'pg';

/** Runs one statement on the PostgreSQL server at `server` (creating or dropping a benchmark's database). */
export async function adminSql(server: string, sql: string): Promise<void> {
  const client = new pg.Client(server);
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}
