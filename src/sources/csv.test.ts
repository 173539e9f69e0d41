import { readFileSync } from 'node:fs';
import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { CSV_CHUNK, parseCsvInSlices } from './csv.ts';
import { turnsDuring } from '../../test/helpers/event-loop.ts';
import { referenceData } from '../../test/helpers/reference-data.ts';

const OPTIONS = { columns: true, skip_empty_lines: true, trim: true, bom: true } as const;

describe('parseCsvInSlices', () => {
  it("gives the synchronous parser's records for D3FEND's mappings file, letting the event loop turn meanwhile", async () => {
    const text = readFileSync(referenceData('d3fend', 'd3fend-1.2.0-attack-mappings.csv'), 'utf8');
    const started = performance.now();
    const expected = parse(text, OPTIONS);
    const inOneCall = performance.now() - started;
    const { value: rows, turns, longestGapMs } = await turnsDuring(() => parseCsvInSlices(text, OPTIONS));
    expect(rows).toEqual(expected);
    expect(turns).toBeGreaterThanOrEqual(Math.floor(text.length / CSV_CHUNK));
    // No turn waited for the whole parse. (Half of it was asked once: on two cores busy with other test files, one
    // slice's turn can wait that long for the CPU, 136 ms of a 272 ms parse.)
    expect(longestGapMs).toBeLessThan(inOneCall);
  });

  it('keeps quoted fields, line breaks inside them and characters beyond the BMP whole across chunk boundaries', async () => {
    // Each row's quoted note and emoji fall on every offset against the chunk size over the rows.
    const rows = Array.from({ length: 3_000 }, (_, index) => ({
      id: String(index),
      note: `line one ${'x'.repeat(index % 97)}\nline two, "quoted" 🛡️ ${index}`,
      name: `naïve${'🙂'.repeat(index % 5)}`,
    }));
    const text = `\uFEFFid,note,name\r\n${rows.map((row) => `${row.id},"${row.note.replaceAll('"', '""')}",${row.name}`).join('\r\n')}\r\n`;
    expect(text.length).toBeGreaterThan(3 * CSV_CHUNK);
    expect(await parseCsvInSlices(text, OPTIONS)).toEqual(rows);
    expect(await parseCsvInSlices(text, OPTIONS)).toEqual(parse(text, OPTIONS));
  });

  it("fails with the parser's error on a malformed file, past the first chunk too", async () => {
    const header = 'a,b\n';
    const good = '1,2\n'.repeat(CSV_CHUNK / 2);
    await expect(parseCsvInSlices(`${header}${good}3,"unclosed\n4,5\n`, OPTIONS)).rejects.toMatchObject({ code: 'CSV_QUOTE_NOT_CLOSED' });
    await expect(parseCsvInSlices(`${header}${good}1,2,3\n`, OPTIONS)).rejects.toMatchObject({ code: 'CSV_RECORD_INCONSISTENT_COLUMNS' });
  });

  it('gives no records for an empty text', async () => {
    expect(await parseCsvInSlices('', OPTIONS)).toEqual([]);
  });
});
