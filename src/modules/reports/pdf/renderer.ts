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
  constructor(message = 'Reports are being rendered at capacity; try again in a moment') {
    super(message, 2, 'REPORT_RENDERING_BUSY');
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
 * Report PDFs laid out and written by a pool of worker threads (src/worker-pool.ts), so that the API's event loop
 * never runs that work: a coverage summary of a thousand techniques is tens of milliseconds of pdfkit and zlib,
 * during which no other request would be answered.
 */
export class PdfRenderer {
  private readonly pool: WorkerPool<RenderJob, ToRenderer>;
  private nextJob = 0;

  constructor(limits: PoolLimits, log: Logger, idleMs = IDLE_MS) {
    this.pool = new WorkerPool<RenderJob, ToRenderer>(
      limits,
      {
        thread: 'pdf-worker',
        label: 'PDF',
        heapMb: WORKER_HEAP_MB,
        idleMs,
        busy: (stopping) => new ReportRenderingBusyError(stopping ? 'The service is stopping' : undefined),
        timedOut: (job) => job.reject(new ReportRenderingBusyError(`The report took longer than ${limits.timeoutMs} ms to render`)),
        // A worker that died under a rendering (its heap limit, say) leaves a 503, not an unexplained 500.
        lost: (job, error) =>
          job.reject(
            error instanceof ReportRenderingBusyError
              ? error
              : new ReportRenderingBusyError('The report could not be rendered; try again in a moment'),
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

  /** The PDF of `report`. Throws ReportRenderingBusyError when every worker is busy and the queue is full. */
  render(report: ReportDocument): Promise<Buffer> {
    return new Promise((resolve, reject) => this.pool.submit({ request: { job: this.nextJob++, report }, resolve, reject }));
  }

  /** Workers running now. */
  get workers(): number {
    return this.pool.size;
  }

  close(): Promise<void> {
    return this.pool.close();
  }
}
