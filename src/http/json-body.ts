import type { Response } from 'express';

/**
 * JSON answers written as UTF-8 bytes piece by piece, never as one large string.
 *
 * V8 (Node 20) keeps a string of more than 128 KiB in its large-object space, and making one there cost 0.8–0.9 ms
 * on the 2-core hosts of docs/benchmark.md whatever its content, against 0.1 ms for half the size: a page of 50 tests
 * (68,000 characters, stored with two bytes per character as soon as one is beyond Latin-1, such as an en dash in a
 * name) spent an eighth of its CPU turning `JSON.stringify`'s result into one such string. Here each element of an
 * array is stringified on its own (a row: a few KiB) and written into one growing buffer; objects around the arrays
 * are walked key by key. The bytes are exactly `JSON.stringify`'s (test: src/http/json-body.test.ts).
 */

/** Objects nested deeper than this are stringified whole: answers put their lists a few levels down. */
const WALK_DEPTH = 8;

/** Lists of at least this many elements make an answer worth writing piece by piece; others are stringified whole. */
const LONG_LIST = 8;

const INITIAL_BYTES = 16 * 1024;

class ByteWriter {
  private buffer = Buffer.allocUnsafe(INITIAL_BYTES);
  private length = 0;

  write(text: string): void {
    // At most three bytes per UTF-16 unit: only a text that may not fit is measured.
    if (this.length + text.length * 3 > this.buffer.length) this.reserve(Buffer.byteLength(text));
    this.length += this.buffer.write(text, this.length);
  }

  private reserve(bytes: number): void {
    if (this.length + bytes <= this.buffer.length) return;
    let size = this.buffer.length * 2;
    while (size < this.length + bytes) size *= 2;
    const grown = Buffer.allocUnsafe(size);
    this.buffer.copy(grown, 0, 0, this.length);
    this.buffer = grown;
  }

  bytes(): Buffer {
    return this.buffer.subarray(0, this.length);
  }
}

/** Whether `JSON.stringify` writes `value` member by member: a plain object (not an array) without `toJSON`. */
function isWalkable(value: unknown, depth: number): value is Record<string, unknown> {
  if (depth >= WALK_DEPTH || value === null || typeof value !== 'object' || Array.isArray(value)) return false;
  const prototype = Object.getPrototypeOf(value);
  return (prototype === Object.prototype || prototype === null) && typeof (value as { toJSON?: unknown }).toJSON !== 'function';
}

/** A list without `toJSON`: written element by element. */
const isPlainArray = (value: unknown): value is unknown[] =>
  Array.isArray(value) && typeof (value as { toJSON?: unknown }).toJSON !== 'function';

/** Writes `value`, known to be written by `JSON.stringify` (not undefined, a function or a symbol). */
function writeValue(out: ByteWriter, value: unknown, depth: number): void {
  if (isPlainArray(value)) {
    out.write('[');
    for (let index = 0; index < value.length; index += 1) {
      if (index > 0) out.write(',');
      // Each element whole: a row of a list is small, and the list is what grows.
      out.write(JSON.stringify(value[index]) ?? 'null');
    }
    out.write(']');
    return;
  }
  if (!isWalkable(value, depth)) {
    out.write(JSON.stringify(value));
    return;
  }
  out.write('{');
  let separator = '';
  for (const key of Object.keys(value)) {
    const member = value[key];
    if (isWalkable(member, depth + 1) || isPlainArray(member)) {
      out.write(`${separator}${JSON.stringify(key)}:`);
      writeValue(out, member, depth + 1);
    } else {
      // Left out, as JSON.stringify leaves out undefined, functions, symbols and what toJSON turns into undefined.
      const text = JSON.stringify(member);
      if (text === undefined) continue;
      out.write(`${separator}${JSON.stringify(key)}:${text}`);
    }
    separator = ',';
  }
  out.write('}');
}

/**
 * `value` as the UTF-8 bytes of `JSON.stringify(value)`, or undefined where that is undefined (a function, a symbol,
 * undefined itself). `suffix` is appended (GraphQL answers end with a newline, as Apollo writes them). A `toJSON`
 * method is called with an empty key, as for a value stringified alone: the answers' dates have one, and ignore it.
 */
export function jsonBytes(value: unknown, suffix = ''): Buffer | undefined {
  if (!isWalkable(value, 0) && !isPlainArray(value)) {
    const text = JSON.stringify(value);
    return text === undefined ? undefined : Buffer.from(text + suffix);
  }
  const out = new ByteWriter();
  writeValue(out, value, 0);
  if (suffix) out.write(suffix);
  return out.bytes();
}

/** Whether `value` holds a list of LONG_LIST or more elements where `jsonBytes` writes elements one by one. */
function hasLongList(value: unknown, depth: number): boolean {
  if (isPlainArray(value)) return value.length >= LONG_LIST;
  if (!isWalkable(value, depth)) return false;
  return Object.keys(value).some((key) => hasLongList(value[key], depth + 1));
}

/**
 * An answer's body: the bytes of `jsonBytes` when it holds a list (a page, a catalog), else the string of
 * `JSON.stringify` (a record, an error), which is small and costs less to write whole. Undefined as `jsonBytes`.
 */
export function jsonAnswer(value: unknown, suffix = ''): Buffer | string | undefined {
  if (hasLongList(value, 0)) return jsonBytes(value, suffix);
  const text = JSON.stringify(value);
  return text === undefined ? undefined : text + suffix;
}

/** Sends `value` as `res.json` would (the same bytes and Content-Type), written by `jsonAnswer`. */
export function sendJson(res: Response, value: unknown): void {
  const body = jsonAnswer(value);
  if (body === undefined) res.json(value);
  else sendJsonBody(res, body);
}

/** Sends JSON already written (a string or its UTF-8 bytes) with the Content-Type `res.json` gives. */
export function sendJsonBody(res: Response, body: Buffer | string): void {
  res.set('Content-Type', 'application/json; charset=utf-8').send(body);
}
