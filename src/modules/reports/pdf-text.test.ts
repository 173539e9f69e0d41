import { once } from 'node:events';
import PDFDocument from 'pdfkit';
import { describe, expect, it } from 'vitest';
import { PdfReport } from './pdf/canvas.ts';
import { TextRuns } from './pdf/runs.ts';

interface Item {
  text: string;
  x: number;
  /** Baseline, from the bottom of the page. */
  y: number;
  width: number;
  /** The reader's name for the font resource. */
  font: string;
}

/** The bytes of a document, ended by `end`. */
async function bytesOf(doc: PDFKit.PDFDocument, end: () => unknown = () => doc.end()): Promise<Uint8Array> {
  const chunks: Buffer[] = [];
  doc.on('data', (chunk: Buffer) => chunks.push(chunk));
  const ended = once(doc, 'end');
  end();
  await ended;
  return new Uint8Array(Buffer.concat(chunks));
}

/** Every text item of every page as a PDF reader sees it: position, advance width and font. */
async function itemsOf(bytes: Uint8Array): Promise<Item[][]> {
  const pdfjs = await import('pdfjs-dist/legacy/build/pdf.mjs');
  const pdf = await pdfjs.getDocument({ data: bytes, verbosity: 0 }).promise;
  const pages: Item[][] = [];
  for (let number = 1; number <= pdf.numPages; number++) {
    const page = await pdf.getPage(number);
    const content = await page.getTextContent();
    const items: Item[] = [];
    for (const item of content.items) {
      if (!('str' in item) || !item.str.trim()) continue;
      items.push({ text: item.str, x: item.transform[4], y: item.transform[5], width: item.width, font: item.fontName });
    }
    pages.push(items);
  }
  await pdf.destroy();
  return pages;
}

const freshDoc = () => new PDFDocument({ size: 'A4', margin: 50 });

describe('text runs', () => {
  const samples = ['AVAWAY Tokens', 'Type', 'Hijack Scheduled Tasks: Variant 3', 'Défense évasion', '0', '', 'T1059.001, T1003'];

  it('measures as pdfkit measures, kerning included', () => {
    const doc = freshDoc();
    const runs = new TextRuns(doc);
    for (const font of ['Helvetica', 'Helvetica-Bold']) {
      for (const text of samples) {
        expect(runs.width(font, 8.5, text)).toBeCloseTo(doc.font(font).fontSize(8.5).widthOfString(text), 9);
      }
    }
    // The sample has kerning pairs: without them it would be wider.
    const unkerned = [...'AVAWAY'].reduce((sum, char) => sum + runs.width('Helvetica', 10, char), 0);
    expect(runs.width('Helvetica', 10, 'AVAWAY')).toBeLessThan(unkerned - 1);
  });

  it('draws the band of a row and colours its text in a graphics state of its own, which ends with the row', async () => {
    const doc = new PDFDocument({ size: 'A4', margin: 50, compress: false });
    const runs = new TextRuns(doc);
    doc.fillColor('#ff0000');
    runs.write('Helvetica', 10, [{ text: 'Row', x: 60, y: 100 }], {
      color: '#1f2937',
      band: { x: 50, y: 95.5, width: 400, height: 20, color: '#fafafa' },
    });
    runs.write('Helvetica', 10, [], { color: '#1f2937' });
    doc.rect(0, 0, 10, 10).fill();
    const content = Buffer.from(await bytesOf(doc)).toString('latin1');
    const row = content.indexOf('q\n0.98 0.98 0.98 rg 50 95.5 400 20 re f\n');
    expect(row).toBeGreaterThan(0);
    // The text is drawn after its band, in the row's colour (#1f2937 as fractions of 255), inside the same q … Q.
    expect(content.slice(row)).toMatch(
      /^q\n0\.98 0\.98 0\.98 rg [^\n]+ re f\n1 0 0 -1 0 [\d.]+ cm BT \/F\d+ 10 Tf 0\.122 0\.161 0\.216 rg\n1 0 0 1 /,
    );
    expect(content.indexOf('ET\nQ\n', row)).toBeGreaterThan(content.indexOf('Tm', row));
    // An empty write draws nothing, and what pdfkit draws next is in the colour it set before the row (red).
    expect(content.slice(content.indexOf('ET\nQ\n', row))).toMatch(/^ET\nQ\n0 0 10 10 re\nf\n/);
    expect(content.slice(0, row)).toMatch(/1 0 0 scn\n$/);
  });

  it('writes text that a reader places and measures as pdfkit would', async () => {
    const doc = freshDoc();
    const runs = new TextRuns(doc);
    runs.write(
      'Helvetica',
      10,
      [
        { text: 'AVAWAY Tokens', x: 60, y: 100 },
        { text: 'Défense évasion', x: 300, y: 100 },
        { text: 'Path (C:\\Temp\\) 100%', x: 60, y: 150 },
      ],
      { color: '#1f2937', band: { x: 50, y: 95, width: 400, height: 20, color: '#fafafa' } },
    );
    runs.write('Helvetica-Bold', 12, [{ text: 'Type', x: 60, y: 200 }], { color: '#6d28d9' });
    doc.font('Helvetica').fontSize(10).text('AVAWAY Tokens', 60, 300, { lineBreak: false });
    const height = doc.page.height;
    const [page] = await itemsOf(await bytesOf(doc));
    const item = (text: string, y: number) => page.find((candidate) => candidate.text === text && Math.abs(height - candidate.y - y) < 12)!;

    const written = item('AVAWAY Tokens', 100);
    const byPdfkit = item('AVAWAY Tokens', 300);
    expect(written.x).toBeCloseTo(60, 2);
    expect(written.width).toBeCloseTo(runs.width('Helvetica', 10, 'AVAWAY Tokens'), 2);
    expect(written.width).toBeCloseTo(byPdfkit.width, 3);
    // The same baseline below the top of the line as pdfkit's own text.
    expect(height - written.y - 100).toBeCloseTo(height - byPdfkit.y - 300, 3);
    expect(item('Défense évasion', 100).x).toBeCloseTo(300, 2);
    expect(item('Défense évasion', 100).width).toBeCloseTo(runs.width('Helvetica', 10, 'Défense évasion'), 2);
    // Delimiters and backslashes of a literal string, escaped.
    expect(item('Path (C:\\Temp\\) 100%', 150).width).toBeCloseTo(runs.width('Helvetica', 10, 'Path (C:\\Temp\\) 100%'), 2);
    const bold = item('Type', 200);
    expect(bold.font).not.toBe(written.font);
    expect(bold.width).toBeCloseTo(runs.width('Helvetica-Bold', 12, 'Type'), 2);
  });

  describe('wrap', () => {
    const runs = new TextRuns(freshDoc());
    const wrap = (text: string, width: number) => runs.wrap('Helvetica', 9, text, width);
    const words = (text: string) => text.split(/\s+/).filter(Boolean);

    it('keeps a text that fits on one line', () => {
      expect(wrap('Credential Access', 200)).toEqual([
        { text: 'Credential Access', width: runs.width('Helvetica', 9, 'Credential Access') },
      ]);
      expect(wrap('', 50)).toEqual([{ text: '', width: 0 }]);
    });

    it('breaks between words, every line within the width, no word lost', () => {
      const text = 'Defense Evasion, Privilege Escalation, Persistence, Credential Access, Lateral Movement';
      for (const width of [60, 90, 140, 210]) {
        const lines = wrap(text, width);
        expect(lines.length).toBeGreaterThan(1);
        for (const line of lines) {
          expect(line.width).toBeCloseTo(runs.width('Helvetica', 9, line.text), 9);
          expect(line.width).toBeLessThanOrEqual(width);
        }
        expect(words(lines.map((line) => line.text).join(' '))).toEqual(words(text));
        // Greedy: the next line's first word would not have fitted on the line before it.
        lines.slice(1).forEach((line, index) => {
          expect(runs.width('Helvetica', 9, `${lines[index].text} ${words(line.text)[0]}`)).toBeGreaterThan(width);
        });
      }
    });

    it('breaks a word wider than a line between characters', () => {
      const word = 'HKLM\\SOFTWARE\\Microsoft\\Windows\\CurrentVersion\\Run';
      const lines = wrap(`key ${word}`, 70);
      expect(lines[0].text).toBe('key');
      expect(
        lines
          .slice(1)
          .map((line) => line.text)
          .join(''),
      ).toBe(word);
      for (const line of lines) expect(line.width).toBeLessThanOrEqual(70);
      // Each piece takes as many characters as fit.
      lines.slice(1, -1).forEach((line, index) => {
        const next = lines[index + 2].text;
        expect(runs.width('Helvetica', 9, line.text + next[0])).toBeGreaterThan(70);
      });
    });

    it('keeps line feeds and a single character wider than the line', () => {
      expect(wrap('first\nsecond', 300).map((line) => line.text)).toEqual(['first', 'second']);
      expect(wrap('a\n\nb', 300).map((line) => line.text)).toEqual(['a', '', 'b']);
      expect(wrap('W', 1).map((line) => line.text)).toEqual(['W']);
    });
  });
});

describe('report tables', () => {
  it('draw every cell, wrapped within its column, right-aligned numbers flush with the column edge, header on every page', async () => {
    const pdf = new PdfReport({ title: 'Table check', subtitle: null, generatedAt: '2026-01-02T03:04:05.000Z', notice: 'Notice' });
    const rows = Array.from({ length: 120 }, (_, index) => [
      `T${1000 + index}`,
      index % 3 ? `Technique ${index}` : `A technique with a long name that takes two or three lines in its column ${index}`,
      String(index * 7),
    ]);
    pdf.table(
      [
        { header: 'ID', width: 1 },
        { header: 'Technique', width: 2 },
        { header: 'Tests', width: 1, align: 'right' },
      ],
      rows,
    );
    const pages = await itemsOf(await bytesOf(pdf.doc, () => pdf.end()));
    expect(pages.length).toBeGreaterThan(2);
    const text = pages
      .flat()
      .map((item) => item.text)
      .join(' ');
    for (const [id, name] of rows) {
      expect(text).toContain(id);
      for (const word of name.split(' ')) expect(text).toContain(word);
    }
    // 495.28 points of table width, 4 points of padding: the Tests column's text ends 4 points before the margin.
    const right = 50 + 495.28 - 4;
    for (const page of pages) {
      expect(page.filter((item) => item.text === 'Technique').length).toBe(1);
      for (const item of page.filter((candidate) => /^\d+$/.test(candidate.text) && candidate.x > 400))
        expect(item.x + item.width).toBeCloseTo(right, 1);
      // Wrapped names stay inside their column (from 50 + 123.82 to 50 + 371.46, less padding).
      for (const item of page.filter((candidate) => candidate.x > 170 && candidate.x < 420 && !/^\d+$/.test(candidate.text))) {
        expect(item.x + item.width).toBeLessThanOrEqual(50 + (495.28 * 3) / 4 - 4 + 0.01);
      }
    }
  });
});
