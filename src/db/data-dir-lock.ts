import { readFileSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DomainError } from '../errors.ts';

export const LOCK_FILE = 'violet.lock';

/** What the lock file records: who holds the data directory, and the socket directory it serves PGlite on. */
interface LockContent {
  pid: number;
  socketDir?: string;
}

export class DataDirInUseError extends DomainError {
  override readonly status = 503;
  override readonly code = 'DATA_DIR_IN_USE';
  constructor(dataDir: string, pid: number) {
    super(
      `${dataDir} is in use by process ${pid}: the embedded database serves one process; stop it first, or give this one another DATA_DIR`,
    );
  }
}

/** Whether a process with this pid runs (EPERM: it runs, as another user). */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function readLock(path: string): LockContent | null {
  try {
    const content = JSON.parse(readFileSync(path, 'utf8')) as LockContent;
    return Number.isInteger(content.pid) ? content : null;
  } catch {
    return null; // gone, or written half by a process killed while writing it: stale either way
  }
}

export interface DataDirLock {
  /** Records the socket directory, so that whoever takes a stale lock over can remove it. */
  record(socketDir: string): void;
  release(): void;
}

/**
 * Takes `<dataDir>/violet.lock` for this process. A lock held by a live other process refuses the start
 * (DATA_DIR_IN_USE); one left by a process that died (its pid no longer runs, or is ours: a restarted
 * container reuses pid 1) is taken over, and the socket directory it recorded is removed.
 */
export function lockDataDir(dataDir: string): DataDirLock {
  const path = join(dataDir, LOCK_FILE);
  for (let attempt = 0; ; attempt++) {
    try {
      writeFileSync(path, JSON.stringify({ pid: process.pid } satisfies LockContent), { flag: 'wx', mode: 0o600 });
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST' || attempt > 0) throw error;
      const held = readLock(path);
      if (held && held.pid !== process.pid && alive(held.pid)) throw new DataDirInUseError(dataDir, held.pid);
      if (held?.socketDir) rmSync(held.socketDir, { recursive: true, force: true });
      try {
        unlinkSync(path);
      } catch {
        // taken over meanwhile, or already gone: the next attempt decides
      }
    }
  }
  let content: LockContent = { pid: process.pid };
  return {
    record(socketDir) {
      content = { ...content, socketDir };
      writeFileSync(path, JSON.stringify(content), { mode: 0o600 });
    },
    release() {
      if (readLock(path)?.pid !== process.pid) return;
      try {
        unlinkSync(path);
      } catch {
        // already gone
      }
    },
  };
}
