import zlib from 'node:zlib';
import { parentPort } from 'node:worker_threads';
import type { ReportDocument } from '../documents/index.ts';
import { renderPdf } from './layouts.ts';
import type { RenderRequest, ToRenderer } from './renderer.ts';

/**
 * A PDF worker: lays out and writes a report's PDF (pdfkit, its fonts, compression) off the API's request thread.
 * The bytes go back in a buffer of their own, transferred rather than copied.
 */
const port = parentPort!;

/**
 * pdfkit deflates every page's content stream with zlib's default level (6), which was a sixth of a rendering. The
 * fastest level takes half the time for a file about 13 % larger (a campaign report of 708 tests: 10.1 → 5.4 ms of
 * zlib, 104 → 118 KB). pdfkit has no option for it; this thread renders PDFs only, so its zlib compresses so.
 */
const deflateSync = zlib.deflateSync;
zlib.deflateSync = ((buffer: zlib.InputType, options?: zlib.ZlibOptions) =>
  deflateSync(buffer, { level: zlib.constants.Z_BEST_SPEED, ...options })) as typeof zlib.deflateSync;

function render(report: ReportDocument): Promise<Uint8Array<ArrayBuffer>> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    const pdf = renderPdf(report);
    pdf.on('data', (chunk: Buffer) => chunks.push(chunk));
    pdf.on('error', reject);
    pdf.on('end', () => {
      // Not Buffer.concat: its result may be a view of Node's shared pool, which must not be transferred.
      const bytes = new Uint8Array(new ArrayBuffer(chunks.reduce((total, chunk) => total + chunk.length, 0)));
      let offset = 0;
      for (const chunk of chunks) {
        bytes.set(chunk, offset);
        offset += chunk.length;
      }
      resolve(bytes);
    });
  });
}

// Every outcome is answered: the listener's promise never rejects.
port.on('message', async ({ job, report }: RenderRequest) => {
  try {
    const pdf = await render(report);
    port.postMessage({ kind: 'rendered', job, pdf } satisfies ToRenderer, [pdf.buffer]);
  } catch (error) {
    port.postMessage({ kind: 'failed', job, reason: error instanceof Error ? error.message : String(error) } satisfies ToRenderer);
  }
});

port.postMessage({ kind: 'ready' } satisfies ToRenderer);
