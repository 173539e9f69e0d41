/**
 * Single-line text written straight into a page's content stream.
 *
 * pdfkit's `text()` measures, encodes and kerns its string again on every call and writes a dozen small content
 * operators, each as its own buffer; a table of thousands of cells spent most of its rendering time (and most
 * of its garbage) there. A run is measured and encoded once per distinct font and text, with pdfkit's own font
 * object (the same glyph codes, advances and kerning pairs `text()` uses), and a row of runs goes into the page
 * as one write.
 *
 * This reaches two members pdfkit does not document: the current font object (`_font`: its `id`, `ascender`,
 * `encode()`, `widthOfString()`, `lineHeight()` and `ref()`) and the page's font resources (`page.fonts`). test/pdf-text.test.ts
 * reads written runs back with a PDF reader and compares them with pdfkit's own text, so a pdfkit release that
 * changes these fails there, not in users' hands.
 */

interface GlyphPosition {
  xAdvance: number;
  advanceWidth: number;
}

/** The standard-font object pdfkit keeps as the document's current font. */
interface PdfkitFont {
  id: string;
  /** In thousandths of the font size. */
  ascender: number;
  encode(text: string): [string[], GlyphPosition[]];
  /** Width with kerning, in points at font size `size`. */
  widthOfString(text: string, size: number): number;
  /** Distance between baselines at font size `size`, the font's line gap included when asked. */
  lineHeight(size: number, includeGap: boolean): number;
  ref(): unknown;
}

interface PdfkitInternals {
  _font: PdfkitFont;
  page: { height: number; fonts: Record<string, unknown> };
}

interface Run {
  /** Width in thousandths of the font size. */
  units: number;
  /** The TJ operand (glyph codes, split where a kerning pair moves the next glyph), once the text is written. */
  operand: string | null;
}

export interface Line {
  text: string;
  width: number;
}

export interface PlacedText {
  text: string;
  /** Left edge. */
  x: number;
  /** Top of the line, in pdfkit's page coordinates (from the top). */
  y: number;
}

/** A rectangle filled with a colour, in pdfkit's page coordinates (from the top). */
export interface Band {
  x: number;
  y: number;
  width: number;
  height: number;
  /** #rrggbb */
  color: string;
}

/** A PDF number: at most three decimals, no exponent. */
const pdfNumber = (value: number) => String(Math.round(value * 1000) / 1000);

const rgbOperands = new Map<string, string>();

/** The operands of `rg` for a #rrggbb colour: each channel a fraction of 255, to three decimals. */
function rgb(color: string): string {
  let operands = rgbOperands.get(color);
  if (operands === undefined) {
    if (!/^#[0-9a-f]{6}$/i.test(color)) throw new Error(`not a #rrggbb colour: ${color}`);
    const value = parseInt(color.slice(1), 16);
    operands = [value >> 16, (value >> 8) & 0xff, value & 0xff].map((channel) => pdfNumber(channel / 255)).join(' ');
    rgbOperands.set(color, operands);
  }
  return operands;
}

/**
 * A glyph code (two hex digits, from pdfkit's `encode()`) as it goes into a PDF literal string: printable ASCII as
 * itself, the delimiters and the backslash escaped, any other byte as an octal escape.
 */
function literalByte(code: string): string {
  const byte = parseInt(code, 16);
  if (byte === 0x28 || byte === 0x29 || byte === 0x5c) return `\\${String.fromCharCode(byte)}`;
  if (byte >= 0x20 && byte <= 0x7e) return String.fromCharCode(byte);
  return `\\${byte.toString(8).padStart(3, '0')}`;
}

/**
 * The TJ operand for a string: the glyph codes pdfkit's `text()` writes, split where it splits them (where a kerning
 * pair moves the next glyph), as literal strings rather than its hex strings: half the bytes to build and deflate.
 */
function operandOf(codes: string[], positions: GlyphPosition[]): string {
  const segments: string[] = [];
  let start = 0;
  positions.forEach((position, index) => {
    const end = index + 1;
    if (position.xAdvance !== position.advanceWidth || end === positions.length) {
      segments.push(`(${codes.slice(start, end).map(literalByte).join('')}) ${pdfNumber(position.advanceWidth - position.xAdvance)}`);
      start = end;
    }
  });
  return `[${segments.join(' ')}]`;
}

/** How many strings a font keeps measured and encoded; past that its entries are dropped at once and measured anew. */
const RUNS_KEPT = 20_000;

/**
 * Strings already measured and encoded, per standard font, shared by every document of the process: a standard
 * font's metrics never change, and reports repeat technique names, tactics, states and dates from one rendering
 * to the next. Only the 14 standard PDF fonts are used, so a font name always means the same metrics.
 */
const measuredRuns = new Map<string, Map<string, Run>>();

export class TextRuns {
  private readonly fonts = new Map<string, { font: PdfkitFont; runs: Map<string, Run> }>();

  constructor(private readonly doc: PDFKit.PDFDocument) {}

  private face(name: string) {
    let face = this.fonts.get(name);
    if (!face) {
      // Selecting a font is how pdfkit loads it; every drawing call in the report sets the font it draws with.
      this.doc.font(name);
      let runs = measuredRuns.get(name);
      if (!runs) measuredRuns.set(name, (runs = new Map()));
      face = { font: (this.doc as unknown as PdfkitInternals)._font, runs };
      this.fonts.set(name, face);
    }
    return face;
  }

  private run(name: string, text: string): Run {
    const { font, runs } = this.face(name);
    let run = runs.get(text);
    if (!run) {
      if (runs.size >= RUNS_KEPT) runs.clear();
      run = { units: font.widthOfString(text, 1000), operand: null };
      runs.set(text, run);
    }
    return run;
  }

  private operand(name: string, text: string): string {
    const run = this.run(name, text);
    run.operand ??= operandOf(...this.face(name).font.encode(text));
    return run.operand;
  }

  /** Width of `text` on one line, as pdfkit's `widthOfString` measures it. */
  width(font: string, size: number, text: string): number {
    return (this.run(font, text).units * size) / 1000;
  }

  /** Distance between the lines of wrapped text, as pdfkit's `currentLineHeight(true)` gives it. */
  lineHeight(font: string, size: number): number {
    return this.face(font).font.lineHeight(size, true);
  }

  /**
   * `text` broken into lines no wider than `width`: at its line feeds, then between words, greedily; a word wider
   * than a line is broken between characters. Nothing is left out.
   */
  wrap(font: string, size: number, text: string, width: number): Line[] {
    if (!text.includes('\n')) {
      const whole = this.measured(font, size, text);
      if (whole.width <= width) return [whole];
    }
    const lines: Line[] = [];
    for (const paragraph of text.split('\n')) {
      let line = '';
      // The line's width, summed word by word. Every kerning pair of the standard fonts with a space on its right
      // is negative, so the sum is never less than the line's true width.
      let bound = 0;
      for (let word of paragraph.split(' ')) {
        if (!word) continue;
        if (line) {
          const spaced = this.width(font, size, ` ${word}`);
          if (bound + spaced <= width) {
            line += ` ${word}`;
            bound += spaced;
            continue;
          }
          lines.push(this.measured(font, size, line));
        }
        while ((bound = this.width(font, size, word)) > width && word.length > 1) {
          const head = this.fitting(font, size, word, width);
          lines.push(head);
          word = word.slice(head.text.length);
        }
        line = word;
      }
      lines.push(this.measured(font, size, line));
    }
    return lines;
  }

  private measured(font: string, size: number, text: string): Line {
    return { text, width: this.width(font, size, text) };
  }

  /** The longest start of `text` (at least one character) that fits `width`. */
  private fitting(font: string, size: number, text: string, width: number): Line {
    let low = 1;
    let high = text.length - 1;
    while (low < high) {
      const middle = Math.ceil((low + high) / 2);
      if (this.width(font, size, text.slice(0, middle)) <= width) low = middle;
      else high = middle - 1;
    }
    return this.measured(font, size, text.slice(0, low));
  }

  /**
   * Writes texts in one font, size and colour, each on one line from its top-left corner, as
   * `text(…, { lineBreak: false })` would place them, over an optional filled band: one content write, in a graphics
   * state of its own (pdfkit's current colour and font stay as they were).
   */
  write(font: string, size: number, texts: PlacedText[], paint: { color: string; band?: Band }) {
    const shown = texts.filter((item) => item.text);
    const { band } = paint;
    if (!shown.length && !band) return;
    const { page } = this.doc as unknown as PdfkitInternals;
    const ops = ['q'];
    // pdfkit draws pages top-down (its first operator flips the y axis): the band is drawn in that space.
    if (band)
      ops.push(`${rgb(band.color)} rg ${pdfNumber(band.x)} ${pdfNumber(band.y)} ${pdfNumber(band.width)} ${pdfNumber(band.height)} re f`);
    if (shown.length) {
      const { font: face } = this.face(font);
      page.fonts[face.id] ??= face.ref();
      const ascent = (face.ascender / 1000) * size;
      // Text is set in the PDF's own bottom-up space.
      ops.push(`1 0 0 -1 0 ${pdfNumber(page.height)} cm BT /${face.id} ${pdfNumber(size)} Tf ${rgb(paint.color)} rg`);
      for (const item of shown) {
        ops.push(`1 0 0 1 ${pdfNumber(item.x)} ${pdfNumber(page.height - item.y - ascent)} Tm ${this.operand(font, item.text)} TJ`);
      }
      ops.push('ET');
    }
    ops.push('Q\n');
    // The operators are ASCII: handed over as bytes, pdfkit does not convert them character by character.
    this.doc.addContent(Buffer.from(ops.join('\n'), 'latin1'));
  }
}
