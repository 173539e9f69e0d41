import { afterEach, describe, expect, it, vi } from 'vitest';
import { once } from 'node:events';
import { turnsDuring } from '../../../../test/helpers/event-loop.ts';
import { createLogger } from '../../../logger.ts';
import type { CoverageSummaryDocument } from '../documents/coverage.ts';
import type { ReportDocument } from '../documents/index.ts';
import { renderPdf } from './layouts.ts';
import { FAILED_RENDERING_MS, PdfRenderer, ReportRenderingBusyError } from './renderer.ts';

const log = createLogger('silent');
const renderers: PdfRenderer[] = [];

function renderer(limits: Partial<ConstructorParameters<typeof PdfRenderer>[0]> = {}, idleMs?: number): PdfRenderer {
  const made = new PdfRenderer({ workers: 1, queue: 4, timeoutMs: 60_000, ...limits }, log, idleMs);
  renderers.push(made);
  return made;
}

afterEach(async () => {
  await Promise.all(renderers.splice(0).map((made) => made.close()));
});

/** A coverage summary of `techniques` techniques: a long table, many pages. */
function coverageSummary(techniques: number): CoverageSummaryDocument {
  return {
    kind: 'coverage_summary',
    title: 'Coverage summary',
    subtitle: 'Detection coverage of the active technique catalog',
    generated_at: '2026-11-30T12:00:00.000Z',
    coverage: {
      total_techniques: techniques,
      validated: 1,
      partial: 0,
      not_covered: 0,
      in_progress: 0,
      not_evaluated: 0,
      coverage_percentage: 10,
    },
    by_tactic: [],
    techniques: Array.from({ length: techniques }, (_, index) => ({
      ttp_id: `T${1000 + index}`,
      name: `Technique number ${index} with a name long enough to wrap in its column`,
      tactics: ['Defense Evasion', 'Persistence'],
      status: 'validated',
      tests_total: index,
      tests_validated: index % 7,
      last_result: 'detected',
      last_validated_at: '2026-11-30T11:00:00.000Z',
    })),
  } as CoverageSummaryDocument;
}

const text = (pdf: Buffer) => pdf.subarray(0, 5).toString('latin1');

/** Milliseconds `report` takes to lay out on this thread (what a request would have waited behind). */
async function renderedHere(report: ReportDocument): Promise<number> {
  const started = performance.now();
  const pdf = renderPdf(report);
  pdf.resume();
  await once(pdf, 'end');
  return performance.now() - started;
}

describe('PDF rendering in worker threads', () => {
  it('renders a report off the request thread: no turn of the event loop waits for the layout', async () => {
    const pdfs = renderer();
    const report = coverageSummary(8_000);
    await pdfs.render(coverageSummary(3), 'warm-up');
    // The second time: pdfkit and its fonts loaded, the code warm, as in the worker.
    await renderedHere(coverageSummary(500));
    const here = await renderedHere(report);
    const { value: pdf, longestGapMs } = await turnsDuring(() => pdfs.render(report, 'large'));
    expect(text(pdf)).toBe('%PDF-');
    expect(pdf.subarray(-6).toString('latin1')).toContain('%%EOF');
    expect(pdf.length).toBeGreaterThan(100_000);
    // Laid out on this thread, the report would have held one turn for all of `here`.
    expect(longestGapMs, `the layout takes ${here.toFixed(0)} ms here`).toBeLessThan(here / 2);
    expect(pdfs.workers).toBe(1);
  });

  it('deflates the page contents at the fastest level, which the zlib header of every stream names', async () => {
    const pdf = (await renderer().render(coverageSummary(200), 'streams')).toString('latin1');
    const headers = [...pdf.matchAll(/(?<!end)stream\n([\s\S]{2})/g)].map(([, header]) => Buffer.from(header, 'latin1').toString('hex'));
    expect(headers.length).toBeGreaterThan(5);
    // 78 01: deflate, 32 KiB window, FLEVEL 0 (fastest); the default level writes 78 9c.
    expect(new Set(headers)).toEqual(new Set(['7801']));
  });

  it('refuses with 503 REPORT_RENDERING_BUSY once the workers are busy and the queue is full', async () => {
    const pdfs = renderer({ workers: 1, queue: 1 });
    const first = pdfs.render(coverageSummary(200), 'first');
    const second = pdfs.render(coverageSummary(3), 'second');
    const third = pdfs.render(coverageSummary(3), 'third');
    await expect(third).rejects.toBeInstanceOf(ReportRenderingBusyError);
    await expect(third).rejects.toMatchObject({ status: 503, code: 'REPORT_RENDERING_BUSY', retryAfterSeconds: 2, failed: false });
    expect(text(await first)).toBe('%PDF-');
    expect(text(await second)).toBe('%PDF-');
  });

  it('a rendering past the time limit is a 503, its worker replaced for the next job, and that content is refused for a while', async () => {
    const pdfs = renderer({ timeoutMs: 1_000 });
    const slow = pdfs.render(coverageSummary(200_000), 'slow');
    const next = pdfs.render(coverageSummary(3), 'next');
    await expect(slow).rejects.toMatchObject({ status: 503, code: 'REPORT_RENDERING_BUSY', failed: true });
    expect(text(await next)).toBe('%PDF-');
    // Asking for the same content again does not take a worker for the time limit again.
    const started = performance.now();
    await expect(pdfs.render(coverageSummary(200_000), 'slow')).rejects.toMatchObject({
      code: 'REPORT_RENDERING_BUSY',
      retryAfterSeconds: FAILED_RENDERING_MS / 1000,
    });
    expect(performance.now() - started).toBeLessThan(500);
  });

  it('a report the layout cannot draw fails that rendering only; the worker renders the next one', async () => {
    const pdfs = renderer();
    const broken = { ...coverageSummary(3), techniques: null } as unknown as ReportDocument;
    await expect(pdfs.render(broken, 'broken')).rejects.toThrow(/could not be rendered/);
    expect(text(await pdfs.render(coverageSummary(3), 'fine'))).toBe('%PDF-');
    expect(pdfs.workers).toBe(1);
  });

  it('a worker without work stops after the idle time, and the next rendering starts another', async () => {
    const pdfs = renderer({}, 100);
    expect(text(await pdfs.render(coverageSummary(3), 'one'))).toBe('%PDF-');
    expect(pdfs.workers).toBe(1);
    await vi.waitFor(() => expect(pdfs.workers).toBe(0), { timeout: 5_000, interval: 20 });
    expect(text(await pdfs.render(coverageSummary(3), 'two'))).toBe('%PDF-');
    expect(pdfs.workers).toBe(1);
  });

  it('stopping fails what waits and ends the workers', async () => {
    const pdfs = renderer({ workers: 1, queue: 2 });
    const outcomes = Promise.allSettled([pdfs.render(coverageSummary(2_000), 'running'), pdfs.render(coverageSummary(3), 'waiting')]);
    await pdfs.close();
    for (const outcome of await outcomes) {
      expect(outcome).toMatchObject({ status: 'rejected', reason: { code: 'REPORT_RENDERING_BUSY' } });
    }
    await expect(pdfs.render(coverageSummary(3), 'after')).rejects.toMatchObject({ code: 'REPORT_RENDERING_BUSY' });
    expect(pdfs.workers).toBe(0);
  });
});
