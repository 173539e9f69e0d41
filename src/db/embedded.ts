import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';
import { lockDataDir } from './data-dir-lock.ts';

export interface EmbeddedPostgres {
  /** A postgresql:// URL that reaches the embedded database over the wire protocol. */
  url: string;
  stop(): Promise<void>;
}

/**
 * Starts PGlite on `<dataDir>/pgdata` and serves it on a private Unix socket, so the service talks to it through
 * the same `pg` driver adapter, migrations and raw SQL as it does to a PostgreSQL server.
 * PGlite runs one session: callers must use a pool of one connection.
 */
export async function startEmbeddedPostgres(dataDir: string): Promise<EmbeddedPostgres> {
  const directory = resolve(dataDir, 'pgdata');
  await mkdir(directory, { recursive: true });
  // PGlite is single-process: a second process on the same files would corrupt them.
  const lock = await lockDataDir(resolve(dataDir));
  let db: PGlite;
  try {
    db = await PGlite.create({ dataDir: directory });
  } catch (error) {
    await lock.release();
    throw error;
  }
  // A private Unix socket (mode 0700 directory): PGlite has no authentication of its own. It lives in the
  // temporary directory because socket paths are short; the lock records it, so a crash leaves nothing behind
  // for long: the next start removes it.
  const socketDir = await mkdtemp(join(tmpdir(), 'violet-pg-'));
  await lock.record(socketDir);
  const server = new PGLiteSocketServer({ db, path: join(socketDir, '.s.PGSQL.5432'), maxConnections: 4 });
  await server.start();
  return {
    url: `postgresql://postgres@localhost/postgres?host=${encodeURIComponent(socketDir)}`,
    async stop() {
      await server.stop();
      await db.close();
      await rm(socketDir, { recursive: true, force: true });
      await lock.release();
    },
  };
}
