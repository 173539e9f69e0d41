import PDFDocument from 'pdfkit';
import { type Line, type PlacedText, TextRuns } from './runs.ts';

/** Characters the standard PDF fonts can show (WinAnsi); anything else is drawn as "?". */
const WIN_ANSI_EXTRA = '€‚ƒ„…†‡ˆ‰Š‹ŒŽ‘’“”•–—˜™š›œžŸ';
const NOT_PRINTABLE = /[^\n\x20-\x7e\xa0-\xff]/;
const EVERY_NOT_PRINTABLE = new RegExp(NOT_PRINTABLE.source, 'g');
export const printable = (text: string) =>
  // Most texts need no change: one test instead of two replacements for every cell of a table.
  NOT_PRINTABLE.test(text)
    ? text.replace(/[\t\r\v\f]/g, ' ').replace(EVERY_NOT_PRINTABLE, (char) => (WIN_ANSI_EXTRA.includes(char) ? char : '?'))
    : text;

export const COLORS = {
  text: '#1f2937',
  muted: '#6b7280',
  rule: '#d1d5db',
  band: '#f3f4f6',
  accent: '#6d28d9',
  bar: '#7c3aed',
} as const;

const FONT = 'Helvetica';
const BOLD = 'Helvetica-Bold';
const MARGIN = 50;
/** Font size of the data notice in every page's footer. */
const NOTICE_SIZE = 6.5;
/** Room kept at the bottom of every page for the footer. */
const FOOTER_SPACE = 48;

export interface Bar {
  label: string;
  value: number;
  color?: string;
}

export interface Column {
  header: string;
  /** Relative width. */
  width: number;
  align?: 'left' | 'right';
}

interface PreparedRow {
  font: string;
  lineHeight: number;
  /** Each cell's text, wrapped to its column. */
  cells: Line[][];
  height: number;
}

export interface PdfMeta {
  title: string;
  subtitle: string | null;
  generatedAt: string;
  /** Printed in the footer of every page. */
  notice: string;
}

/** A report page flow on A4: header, sections, key figures, horizontal bar charts, tables, footer with page numbers. */
export class PdfReport {
  readonly doc: PDFKit.PDFDocument;
  private readonly left = MARGIN;
  private readonly width: number;
  /** Table cells and one-line labels, set without pdfkit's text(): each distinct string measured and encoded once. */
  private readonly runs: TextRuns;

  constructor(private readonly meta: PdfMeta) {
    this.doc = new PDFDocument({
      size: 'A4',
      margins: { top: MARGIN, left: MARGIN, right: MARGIN, bottom: MARGIN + FOOTER_SPACE },
      bufferPages: true,
      info: {
        Title: printable(meta.title),
        Author: 'Violet',
        Subject: printable(meta.subtitle ?? meta.title),
        CreationDate: new Date(meta.generatedAt),
      },
    });
    this.width = this.doc.page.width - 2 * MARGIN;
    this.runs = new TextRuns(this.doc);
    this.header();
  }

  private get bottom() {
    return this.doc.page.height - this.doc.page.margins.bottom;
  }

  /** Starts a new page unless `height` points still fit on this one. */
  private ensure(height: number) {
    if (this.doc.y + height > this.bottom) this.doc.addPage();
  }

  /** `text` cut with an ellipsis so that it fits `width` on one line in the given font. */
  private clip(text: string, width: number, font: string, size: number): string {
    let clipped = printable(text).replace(/\n/g, ' ');
    const full = this.runs.width(font, size, clipped);
    if (full <= width) return clipped;
    clipped = clipped.slice(0, Math.ceil((clipped.length * width) / full) + 1);
    while (clipped.length > 1 && this.runs.width(font, size, `${clipped}…`) > width) clipped = clipped.slice(0, -1);
    return `${clipped.trimEnd()}…`;
  }

  /** One line of text (cut to fit), placed without the line-wrapping pass; right-aligned within `width` on request. */
  private line(
    text: string,
    options: { font?: string; size?: number; color?: string; x: number; y: number; width: number; align?: 'left' | 'right' },
  ) {
    const { font = FONT, size = 10, color = COLORS.text, x, y, width, align = 'left' } = options;
    const shown = this.clip(text, width, font, size);
    const offset = align === 'right' ? width - this.runs.width(font, size, shown) : 0;
    // Spacing after the line (moveDown) follows the document's current font and size.
    this.doc.font(font).fontSize(size);
    this.runs.write(font, size, [{ text: shown, x: x + offset, y }], { color });
  }

  private write(
    text: string,
    options: { font?: string; size?: number; color?: string; x?: number; y?: number } & PDFKit.Mixins.TextOptions = {},
  ) {
    const { font = FONT, size = 10, color = COLORS.text, x, y, ...rest } = options;
    this.doc.font(font).fontSize(size).fillColor(color);
    if (x !== undefined && y !== undefined) this.doc.text(printable(text), x, y, rest);
    else this.doc.text(printable(text), rest);
  }

  private header() {
    this.write(this.meta.title, { font: BOLD, size: 20, color: COLORS.accent, x: this.left, y: MARGIN, width: this.width });
    if (this.meta.subtitle) this.write(this.meta.subtitle, { size: 11, color: COLORS.muted, width: this.width });
    this.write(`Generated ${formatDateTime(this.meta.generatedAt)}`, { size: 9, color: COLORS.muted, width: this.width });
    this.doc.moveDown(0.5);
    this.rule();
  }

  private rule() {
    const y = this.doc.y;
    this.ruleAt(y);
    this.doc.y = y + 8;
  }

  /** A thin line across the text width at `y`. */
  private ruleAt(y: number) {
    this.doc
      .moveTo(this.left, y)
      .lineTo(this.left + this.width, y)
      .lineWidth(0.5)
      .strokeColor(COLORS.rule)
      .stroke();
  }

  /** A section heading, kept on the same page as the first lines after it. */
  section(title: string) {
    this.ensure(110);
    this.doc.moveDown(0.6);
    this.write(title, { font: BOLD, size: 13, x: this.left, y: this.doc.y, width: this.width });
    this.doc.moveDown(0.3);
  }

  paragraph(text: string, options: { muted?: boolean } = {}) {
    this.ensure(20);
    this.write(text, { size: 10, color: options.muted ? COLORS.muted : COLORS.text, x: this.left, y: this.doc.y, width: this.width });
    this.doc.moveDown(0.4);
  }

  /** Key figures as boxes, four to a row: a small label above a large value. */
  figures(items: { label: string; value: string }[]) {
    const perRow = 4;
    const gap = 8;
    const boxWidth = (this.width - gap * (perRow - 1)) / perRow;
    const boxHeight = 44;
    for (let start = 0; start < items.length; start += perRow) {
      this.ensure(boxHeight + gap);
      const y = this.doc.y;
      items.slice(start, start + perRow).forEach((item, index) => {
        const x = this.left + index * (boxWidth + gap);
        this.doc.roundedRect(x, y, boxWidth, boxHeight, 4).fill(COLORS.band);
        this.line(item.label, { size: 8, color: COLORS.muted, x: x + 8, y: y + 7, width: boxWidth - 16 });
        this.line(item.value, { font: BOLD, size: 16, x: x + 8, y: y + 20, width: boxWidth - 16 });
      });
      this.doc.x = this.left;
      this.doc.y = y + boxHeight + gap;
    }
  }

  /** Label–value lines (metadata of the report's subject). */
  details(rows: [string, string][]) {
    for (const [label, value] of rows) {
      const height = this.doc
        .font(FONT)
        .fontSize(10)
        .heightOfString(printable(value), { width: this.width - 130 });
      this.ensure(height + 4);
      const y = this.doc.y;
      this.write(label, { font: BOLD, size: 10, x: this.left, y, width: 125 });
      this.write(value, { size: 10, x: this.left + 130, y, width: this.width - 130 });
      this.doc.y = y + height + 4;
    }
    this.doc.x = this.left;
  }

  /** A horizontal bar chart drawn with vector shapes; bars scale to `max` (default: the largest value). */
  barChart(title: string, bars: Bar[], options: { max?: number; format?: (value: number) => string } = {}) {
    const format = options.format ?? String;
    const max = options.max ?? Math.max(0, ...bars.map((bar) => bar.value));
    const rowHeight = 16;
    const labelWidth = 140;
    const valueWidth = 50;
    const area = this.width - labelWidth - valueWidth - 10;
    // A chart that fits on a page is kept together.
    this.ensure(Math.min(30 + rowHeight * bars.length, 300));
    this.write(title, { font: BOLD, size: 10, color: COLORS.muted, x: this.left, y: this.doc.y, width: this.width });
    this.doc.moveDown(0.3);
    const axisX = this.left + labelWidth;
    let top = this.doc.y;
    for (const bar of bars) {
      if (this.doc.y + rowHeight > this.bottom) {
        this.doc.addPage();
        top = this.doc.y;
      }
      const y = this.doc.y;
      this.line(bar.label, { size: 9, x: this.left, y: y + 3, width: labelWidth - 8 });
      const length = max > 0 ? Math.max(0, Math.min(1, bar.value / max)) * area : 0;
      this.doc.rect(axisX, y + 2, area, rowHeight - 4).fill(COLORS.band);
      if (length > 0) this.doc.rect(axisX, y + 2, length, rowHeight - 4).fill(bar.color ?? COLORS.bar);
      this.line(format(bar.value), { size: 9, x: axisX + area + 6, y: y + 3, width: valueWidth + 4 });
      this.doc.y = y + rowHeight;
    }
    this.doc.moveTo(axisX, top).lineTo(axisX, this.doc.y).lineWidth(0.75).strokeColor(COLORS.muted).stroke();
    this.doc.x = this.left;
    this.doc.moveDown(0.6);
  }

  /** A table with a shaded header (repeated on every page it spans) and wrapped cells. */
  table(columns: Column[], rows: string[][], options: { empty?: string } = {}) {
    const total = columns.reduce((sum, column) => sum + column.width, 0);
    const widths = columns.map((column) => (column.width / total) * this.width);
    const padding = 4;
    const size = 8.5;
    const prepare = (cells: string[], font: string): PreparedRow => {
      const wrapped = cells.map((cell, index) => this.runs.wrap(font, size, printable(cell), widths[index] - 2 * padding));
      const lineHeight = this.runs.lineHeight(font, size);
      return { font, lineHeight, cells: wrapped, height: Math.max(...wrapped.map((lines) => lines.length)) * lineHeight + 2 * padding };
    };
    const drawRow = (row: PreparedRow, fill: string | null) => {
      const y = this.doc.y;
      const placed: PlacedText[] = [];
      let x = this.left;
      row.cells.forEach((lines, index) => {
        const inner = widths[index] - 2 * padding;
        lines.forEach((line, number) => {
          const offset = columns[index].align === 'right' ? inner - line.width : 0;
          placed.push({ text: line.text, x: x + padding + offset, y: y + padding + number * row.lineHeight });
        });
        x += widths[index];
      });
      const band = fill ? { x: this.left, y, width: this.width, height: row.height, color: fill } : undefined;
      this.runs.write(row.font, size, placed, { color: COLORS.text, band });
      this.doc.y = y + row.height;
    };
    const header = prepare(
      columns.map((column) => column.header),
      BOLD,
    );
    const body = rows.length
      ? rows.map((row) => prepare(row, FONT))
      : [prepare([options.empty ?? 'None', ...columns.slice(1).map(() => '')], FONT)];
    // A short table is kept together; a long one starts with its header and at least three rows.
    const whole = header.height + body.reduce((sum, row) => sum + row.height, 0);
    this.ensure(whole <= 260 ? whole : header.height + body.slice(0, 3).reduce((sum, row) => sum + row.height, 0));
    drawRow(header, COLORS.band);
    body.forEach((row, index) => {
      if (this.doc.y + row.height > this.bottom) {
        this.doc.addPage();
        drawRow(header, COLORS.band);
      }
      drawRow(row, rows.length && index % 2 ? '#fafafa' : null);
    });
    this.ruleAt(this.doc.y);
    this.doc.x = this.left;
    this.doc.font(FONT).fontSize(size).moveDown(0.8);
  }

  /** Writes the footer (report title, page numbers, data notice) on every page and ends the document. */
  end(): PDFKit.PDFDocument {
    const { start, count } = this.doc.bufferedPageRange();
    // The notice wrapped once for every page, as text() would wrap it.
    const notice = this.runs.wrap(FONT, NOTICE_SIZE, printable(this.meta.notice), this.width);
    const noticeLineHeight = this.runs.lineHeight(FONT, NOTICE_SIZE);
    for (let index = start; index < start + count; index++) {
      this.doc.switchToPage(index);
      // Below the bottom margin: written as runs, which pdfkit's page flow does not move to a new page.
      const y = this.doc.page.height - MARGIN - FOOTER_SPACE + 14;
      this.ruleAt(y);
      this.line(this.meta.title, { size: 7.5, color: COLORS.muted, x: this.left, y: y + 5, width: this.width - 90 });
      this.line(`Page ${index - start + 1} of ${count}`, {
        size: 7.5,
        color: COLORS.muted,
        x: this.left + this.width - 80,
        y: y + 5,
        width: 80,
        align: 'right',
      });
      this.runs.write(
        FONT,
        NOTICE_SIZE,
        notice.map((line, number) => ({ text: line.text, x: this.left, y: y + 17 + number * noticeLineHeight })),
        { color: COLORS.muted },
      );
    }
    this.doc.end();
    return this.doc;
  }
}

/** 2025-03-31 14:05 UTC */
export const formatDateTime = (iso: string) => `${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC`;
