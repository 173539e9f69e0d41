import { setNewest } from '../../../bounded-map.ts';
import { ServiceUnavailableError } from '../../../errors.ts';
import type { Logger } from '../../../logger.ts';
import { type PoolLimits, WorkerPool } from '../../../worker-pool.ts';
import type { ReportDocument } from '../documents/index.ts';

export interface RenderRequest {
  job: number;
  report: ReportDocument;
}

export type ToRenderer =
  | { kind: 'ready' }
  | { kind: 'rendered'; job: number; pdf: Uint8Array }
  | { kind: 'failed'; job: number; reason: string };

export class ReportRenderingBusyError extends ServiceUnavailableError {
  constructor(
    message = 'Reports are being rendered at capacity; try again in a moment',
    retryAfterSeconds = 2,
    /** The rendering itself failed (past its time, or its worker died), rather than found no room. */
    readonly failed = false,
  ) {
    super(message, retryAfterSeconds, 'REPORT_RENDERING_BUSY');
  }
}

interface RenderJob {
  request: RenderRequest;
  resolve(pdf: Buffer): void;
  reject(error: unknown): void;
}

/** Heap of one worker: the largest catalog's report takes a few MiB; a runaway layout ends its worker, not the API. */
const WORKER_HEAP_MB = 256;

/** A worker left without work this long stops, giving its memory (pdfkit, its fonts, its heap) back. */
export const IDLE_MS = 60_000;

/**
 * A content whose rendering failed is refused at once this long: asking again would take a worker for the whole
 * time limit again (one caller could keep every worker busy with one report).
 */
export const FAILED_RENDERING_MS = 60_000;
const FAILED_RENDERINGS_KEPT = 1_000;

/**
 * Report PDFs laid out and written by a pool of worker threads (src/worker-pool.ts), so that the API's event loop
 * never runs that work: a coverage summary of a thousand techniques is tens of milliseconds of pdfkit and zlib,
 * during which no other request would be answered.
 */
export class PdfRenderer {
  private readonly pool: WorkerPool<RenderJob, ToRenderer>;
  /** Contents whose rendering failed lately, and until when they are refused. */
  private readonly failed = new Map<string, number>();

  constructor(limits: PoolLimits, log: Logger, idleMs = IDLE_MS) {
    this.pool = new WorkerPool<RenderJob, ToRenderer>(
      limits,
      {
        thread: 'pdf-worker',
        label: 'PDF',
        heapMb: WORKER_HEAP_MB,
        idleMs,
        busy: (stopping) => new ReportRenderingBusyError(stopping ? 'The service is stopping' : undefined),
        timedOut: (job) =>
          job.reject(new ReportRenderingBusyError(`The report took longer than ${limits.timeoutMs} ms to render`, 2, true)),
        // A worker that died under a rendering (its heap limit, say) leaves a 503, not an unexplained 500.
        lost: (job, error) =>
          job.reject(
            error instanceof ReportRenderingBusyError
              ? error
              : new ReportRenderingBusyError('The report could not be rendered; try again in a moment', 2, true),
          ),
        received: (job, message) => {
          if (message.kind === 'rendered') job.resolve(Buffer.from(message.pdf.buffer, message.pdf.byteOffset, message.pdf.byteLength));
          else if (message.kind === 'failed') job.reject(new Error(`the PDF could not be rendered: ${message.reason}`));
          return true;
        },
      },
      log,
    );
  }

  /**
   * The PDF of `report`, whose content `key` names. Throws ReportRenderingBusyError when every worker is busy and
   * the queue is full, or when the same content failed to render within FAILED_RENDERING_MS.
   */
  async render(report: ReportDocument, key: string): Promise<Buffer> {
    const failedUntil = this.failed.get(key);
    if (failedUntil !== undefined && failedUntil > Date.now()) {
      throw new ReportRenderingBusyError(
        'This report could not be rendered a moment ago; try again later',
        FAILED_RENDERING_MS / 1000,
        true,
      );
    }
    try {
      return await new Promise<Buffer>((resolve, reject) => this.pool.submit((job) => ({ request: { job, report }, resolve, reject })));
    } catch (error) {
      if (error instanceof ReportRenderingBusyError && error.failed)
        setNewest(this.failed, key, Date.now() + FAILED_RENDERING_MS, FAILED_RENDERINGS_KEPT);
      throw error;
    }
  }

  /** Workers running now. */
  get workers(): number {
    return this.pool.size;
  }

  close(): Promise<void> {
    return this.pool.close();
  }
}
