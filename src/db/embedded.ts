import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Worker } from 'node:worker_threads';
import { startThread } from '../threads.ts';
import { lockDataDir } from './data-dir-lock.ts';

export interface EmbeddedPostgres {
  /** A postgresql:// URL that reaches the embedded database over the wire protocol (once `ready`). */
  url: string;
  /** Resolves once the database accepts connections; rejects (and cleans up) when it cannot open. */
  ready: Promise<void>;
  /**
   * Stops the database's thread and starts a new one on the same files and socket, once ready. PGlite's WebAssembly
   * memory grows to the most a statement needed and never shrinks; a new thread starts small.
   */
  restart(): Promise<void>;
  stop(): Promise<void>;
}

/** What the database thread (embedded-worker.ts) is started with. */
export interface EmbeddedWorkerData {
  directory: string;
  socketPath: string;
  maxConnections: number;
  sharedBuffers?: string;
}
export type ToEmbedded = { kind: 'stop' };
export type FromEmbedded = { kind: 'ready' } | { kind: 'stopped' } | { kind: 'failed'; message: string };

/**
 * Starts PGlite on `<dataDir>/pgdata` in a thread of its own and serves it on a private Unix socket, so the service
 * talks to it through the same `pg` driver adapter, migrations and raw SQL as it does to a PostgreSQL server.
 * PGlite runs one session, on which the connections take turns (embedded-wire.ts); it admits the caller's pool of
 * `poolSize` and the migration engine's connection. `onCrash` hears of a thread that ends without being asked to:
 * the database is gone.
 *
 * Synchronous up to the thread's start, so that the database opens on its own core while the caller goes on with
 * its own start (the API builds its schema and loads Prisma's query compiler meanwhile) instead of after it.
 */
export function launchEmbeddedPostgres(
  dataDir: string,
  poolSize: number,
  sharedBuffers?: string,
  onCrash?: (error: Error) => void,
): EmbeddedPostgres {
  const directory = resolve(dataDir, 'pgdata');
  mkdirSync(directory, { recursive: true });
  // PGlite is single-process: a second process on the same files would corrupt them.
  const lock = lockDataDir(resolve(dataDir));
  // A private Unix socket (mode 0700 directory): PGlite has no authentication of its own. It lives in the
  // temporary directory because socket paths are short; the lock records it, so a crash leaves nothing behind
  // for long: the next start removes it.
  const socketDir = mkdtempSync(join(tmpdir(), 'violet-pg-'));
  const release = () => {
    rmSync(socketDir, { recursive: true, force: true });
    lock.release();
  };
  lock.record(socketDir);
  const workerData: EmbeddedWorkerData = {
    directory,
    socketPath: join(socketDir, '.s.PGSQL.5432'),
    maxConnections: poolSize + 2,
    sharedBuffers,
  };
  /** A database thread; `stopping` once asked to stop, so that its end is not taken for a crash. */
  const startWorker = () => {
    const worker = startThread('pglite-worker', { workerData });
    const thread = {
      worker,
      stopping: false,
      ready: nextMessage(worker, 'ready').then(
        () => {
          worker.on('exit', (code) => {
            if (!thread.stopping) onCrash?.(new Error(`the embedded database stopped (thread exit code ${code})`));
          });
        },
        async (error: unknown) => {
          await worker.terminate();
          release();
          throw error;
        },
      ),
    };
    return thread;
  };
  const stopWorker = async (thread: ReturnType<typeof startWorker>) => {
    thread.stopping = true;
    const stopped = nextMessage(thread.worker, 'stopped');
    thread.worker.postMessage({ kind: 'stop' } satisfies ToEmbedded);
    await stopped.finally(() => thread.worker.terminate());
  };
  let current = startWorker();
  return {
    url: `postgresql://postgres@localhost/postgres?host=${encodeURIComponent(socketDir)}`,
    ready: current.ready,
    async restart() {
      await stopWorker(current);
      current = startWorker();
      await current.ready;
    },
    async stop() {
      await stopWorker(current);
      release();
    },
  };
}

/** `launchEmbeddedPostgres`, resolved once the database is ready. */
export async function startEmbeddedPostgres(dataDir: string, poolSize = 1, sharedBuffers?: string): Promise<EmbeddedPostgres> {
  const embedded = launchEmbeddedPostgres(dataDir, poolSize, sharedBuffers);
  await embedded.ready;
  return embedded;
}

/** Resolves on the thread's message `kind`; rejects when it reports a failure, fails or ends first. */
function nextMessage(worker: Worker, kind: 'ready' | 'stopped'): Promise<void> {
  return new Promise((resolve, reject) => {
    const cleanup = () => {
      worker.off('message', onMessage);
      worker.off('error', reject);
      worker.off('exit', onExit);
    };
    const onMessage = (message: FromEmbedded) => {
      if (message.kind !== kind && message.kind !== 'failed') return;
      cleanup();
      if (message.kind === 'failed') reject(new Error(`the embedded database did not start: ${message.message}`));
      else resolve();
    };
    const onExit = (code: number) => {
      cleanup();
      reject(new Error(`the embedded database's thread ended (exit code ${code})`));
    };
    worker.on('message', onMessage);
    worker.once('error', reject);
    worker.once('exit', onExit);
  });
}
