import { once } from 'node:events';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { parse, type Options } from 'csv-parse';

/** Characters handed to the parser per turn of the event loop: a few milliseconds of parsing. */
export const CSV_CHUNK = 64 * 1024;

const isHighSurrogate = (code: number) => code >= 0xd800 && code <= 0xdbff;

/**
 * The records of a CSV text, as `csv-parse/sync` gives them for the same options, parsed a chunk per turn of the event
 * loop: D3FEND's mappings file (0.9 MB) took about 100 ms in one call of the synchronous parser, during which the API
 * (which runs syncs itself without Redis) answered nobody. A chunk never ends inside a surrogate pair.
 */
export async function parseCsvInSlices<T = Record<string, string>>(text: string, options: Options): Promise<T[]> {
  const parser = parse(options);
  const feeding = (async () => {
    let start = 0;
    while (start < text.length && !parser.destroyed) {
      let end = Math.min(start + CSV_CHUNK, text.length);
      if (end < text.length && isHighSurrogate(text.charCodeAt(end - 1))) end -= 1;
      if (!parser.write(text.slice(start, end))) await once(parser, 'drain');
      start = end;
      await nextTurn();
    }
    if (!parser.destroyed) parser.end();
  })();
  // A parse error ends the reading below, which reports it; the feeding then stops, its own failure the same one.
  feeding.catch(() => undefined);
  const rows: T[] = [];
  for await (const row of parser) rows.push(row as T);
  await feeding;
  return rows;
}
