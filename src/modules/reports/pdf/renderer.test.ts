import { afterEach, describe, expect, it, vi } from 'vitest';
import { turnsDuring } from '../../../../test/helpers/event-loop.ts';
import { createLogger } from '../../../logger.ts';
import type { CoverageSummaryDocument } from '../documents/coverage.ts';
import type { ReportDocument } from '../documents/index.ts';
import { PdfRenderer, ReportRenderingBusyError } from './renderer.ts';

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

describe('PDF rendering in worker threads', () => {
  it('renders a report off the request thread: the event loop keeps turning while a long report is laid out', async () => {
    const pdfs = renderer();
    const { value: pdf, turns } = await turnsDuring(() => pdfs.render(coverageSummary(2_000)));
    expect(text(pdf)).toBe('%PDF-');
    expect(pdf.subarray(-6).toString('latin1')).toContain('%%EOF');
    expect(pdf.length).toBeGreaterThan(50_000);
    // Laid out on this thread, the whole report would have run between two turns.
    expect(turns).toBeGreaterThan(10);
    expect(pdfs.workers).toBe(1);
    // The worker stays for the next rendering.
    expect(text(await pdfs.render(coverageSummary(3)))).toBe('%PDF-');
    expect(pdfs.workers).toBe(1);
  });

  it('refuses with 503 REPORT_RENDERING_BUSY once the workers are busy and the queue is full', async () => {
    const pdfs = renderer({ workers: 1, queue: 1 });
    const first = pdfs.render(coverageSummary(200));
    const second = pdfs.render(coverageSummary(3));
    const third = pdfs.render(coverageSummary(3));
    await expect(third).rejects.toBeInstanceOf(ReportRenderingBusyError);
    await expect(third).rejects.toMatchObject({ status: 503, code: 'REPORT_RENDERING_BUSY' });
    expect(text(await first)).toBe('%PDF-');
    expect(text(await second)).toBe('%PDF-');
  });

  it('replaces a worker that runs past the time limit, and the rendering is a 503', async () => {
    const pdfs = renderer({ timeoutMs: 1 });
    await expect(pdfs.render(coverageSummary(2_000))).rejects.toMatchObject({ status: 503, code: 'REPORT_RENDERING_BUSY' });
    expect(pdfs.workers).toBe(0);
  });

  it('a report the layout cannot draw fails that rendering only; the worker renders the next one', async () => {
    const pdfs = renderer();
    const broken = { ...coverageSummary(3), techniques: null } as unknown as ReportDocument;
    await expect(pdfs.render(broken)).rejects.toThrow(/could not be rendered/);
    expect(text(await pdfs.render(coverageSummary(3)))).toBe('%PDF-');
    expect(pdfs.workers).toBe(1);
  });

  it('a worker without work stops after the idle time, and the next rendering starts another', async () => {
    const pdfs = renderer({}, 100);
    expect(text(await pdfs.render(coverageSummary(3)))).toBe('%PDF-');
    expect(pdfs.workers).toBe(1);
    await vi.waitFor(() => expect(pdfs.workers).toBe(0), { timeout: 5_000, interval: 20 });
    expect(text(await pdfs.render(coverageSummary(3)))).toBe('%PDF-');
    expect(pdfs.workers).toBe(1);
  });

  it('stopping fails what waits and ends the workers', async () => {
    const pdfs = renderer({ workers: 1, queue: 2 });
    const outcomes = Promise.allSettled([pdfs.render(coverageSummary(2_000)), pdfs.render(coverageSummary(3))]);
    await pdfs.close();
    for (const outcome of await outcomes) {
      expect(outcome).toMatchObject({ status: 'rejected', reason: { code: 'REPORT_RENDERING_BUSY' } });
    }
    await expect(pdfs.render(coverageSummary(3))).rejects.toMatchObject({ code: 'REPORT_RENDERING_BUSY' });
    expect(pdfs.workers).toBe(0);
  });
});
