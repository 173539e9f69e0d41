import { ServiceUnavailableError } from '../../errors.ts';
import type { Logger } from '../../logger.ts';
import { WorkerPool } from '../../worker-pool.ts';
import { type AttackCatalog, InvalidBundleError } from './stix.ts';

export interface ParseRequest {
  job: number;
  bytes: Uint8Array;
}

export type ToParser =
  | { kind: 'ready' }
  | { kind: 'parsed'; job: number; catalog: AttackCatalog }
  | { kind: 'invalid'; job: number; reason: string }
  | { kind: 'failed'; job: number; reason: string };

interface ParseJob {
  request: ParseRequest;
  transfer: ArrayBuffer[];
  resolve(catalog: AttackCatalog): void;
  reject(error: unknown): void;
}

/** A 34 MB bundle parses into a few hundred MB of objects; a larger or hostile file ends the worker, not the API. */
const WORKER_HEAP_MB = 1024;

/** Syncs are minutes apart at the least: the worker (and all the memory a parse grew it to) stops soon after. */
const IDLE_MS = 10_000;

/** A parse far past what the largest bundle takes (under a second). */
const TIMEOUT_MS = 120_000;

/**
 * ATT&CK bundles parsed in a worker thread (src/worker-pool.ts): `JSON.parse` of the Enterprise bundle and reading
 * its records out held the event loop for about 200 ms, during which the API (which runs the jobs itself in the
 * embedded default) answered nobody. One parse at a time; a sync already refuses a second one of its source.
 */
export class BundleParser {
  private readonly pool: WorkerPool<ParseJob, ToParser>;

  constructor(log: Logger, timeoutMs = TIMEOUT_MS) {
    this.pool = new WorkerPool<ParseJob, ToParser>(
      { workers: 1, queue: 8, timeoutMs },
      {
        thread: 'catalog-worker',
        label: 'ATT&CK parser',
        heapMb: WORKER_HEAP_MB,
        idleMs: IDLE_MS,
        busy: (stopping) => new ServiceUnavailableError(stopping ? 'The service is stopping' : 'Catalog files are being read at capacity'),
        timedOut: (job) => job.reject(new Error(`the ATT&CK bundle took longer than ${timeoutMs} ms to parse`)),
        lost: (job, error) => job.reject(error ?? new Error('the ATT&CK parser stopped')),
        received: (job, message) => {
          if (message.kind === 'parsed') job.resolve(message.catalog);
          else if (message.kind === 'invalid') job.reject(new InvalidBundleError(message.reason));
          else if (message.kind === 'failed') job.reject(new Error(`the ATT&CK bundle could not be read: ${message.reason}`));
          return true;
        },
      },
      log,
    );
  }

  /**
   * The catalog of a bundle's bytes; InvalidBundleError (in our words) when they are not an ATT&CK bundle. `bytes` is
   * handed to the worker: empty once this returns, unless it shared its memory (then it was copied).
   */
  parse(bytes: Buffer): Promise<AttackCatalog> {
    // Handed over rather than copied when the buffer has its memory to itself (a pooled slice is copied).
    const owned = bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength && bytes.buffer instanceof ArrayBuffer;
    const view = owned ? new Uint8Array(bytes.buffer, 0, bytes.byteLength) : new Uint8Array(bytes);
    return new Promise((resolve, reject) =>
      this.pool.submit((job) => ({ request: { job, bytes: view }, transfer: [view.buffer as ArrayBuffer], resolve, reject })),
    );
  }

  /** Workers running now. */
  get workers(): number {
    return this.pool.size;
  }

  close(): Promise<void> {
    return this.pool.close();
  }
}
