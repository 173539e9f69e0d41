import { describe, expect, it } from 'vitest';
import { jsonAnswer, jsonBytes } from './json-body.ts';

/** A deterministic pseudo-random sequence (mulberry32), so that a failure names its seed. */
function randomOf(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Texts JSON must escape or that take two bytes per character in V8: quotes, controls, an en dash, emoji, lone surrogates. */
const AWKWARD = ['plain', 'T1003 – Credential Dumping', 'quote " and \\ back', 'tab\tnew\nline\u0000', '😀 emoji', '\ud800 lone', 'é', ''];

function randomValue(random: () => number, depth: number): unknown {
  const pick = <T>(items: readonly T[]) => items[Math.floor(random() * items.length)];
  const kind = depth > 4 ? Math.floor(random() * 6) : Math.floor(random() * 10);
  switch (kind) {
    case 0:
      return pick(AWKWARD);
    case 1:
      return pick([0, -0, 1.5, -42, 1e21, Number.NaN, Number.POSITIVE_INFINITY]);
    case 2:
      return pick([true, false, null]);
    case 3:
      return new Date(Date.UTC(2026, 10, Math.floor(random() * 28) + 1));
    case 4:
      return pick([undefined, () => 1, Symbol('s')]);
    case 5: {
      const json = pick([undefined, 'as text', { nested: true }]);
      return { toJSON: () => json };
    }
    case 6:
    case 7: {
      const list: unknown[] = [];
      for (let n = Math.floor(random() * 20); n > 0; n--) list.push(randomValue(random, depth + 1));
      return list;
    }
    default: {
      const object: Record<string, unknown> = random() < 0.2 ? Object.create(null) : {};
      for (let n = Math.floor(random() * 6); n > 0; n--) object[pick(AWKWARD) + n] = randomValue(random, depth + 1);
      return object;
    }
  }
}

const asText = (body: Buffer | string | undefined) => (body === undefined ? undefined : body.toString());

describe('JSON answers written piece by piece', () => {
  it('are the bytes of JSON.stringify for any value (2,000 random values, each seed its own)', () => {
    for (let seed = 1; seed <= 2000; seed++) {
      const value = randomValue(randomOf(seed), 0);
      const expected = JSON.stringify(value);
      expect({ seed, text: asText(jsonBytes(value)) }).toEqual({ seed, text: expected });
      expect({ seed, text: asText(jsonAnswer(value, '\n')) }).toEqual({ seed, text: expected === undefined ? undefined : `${expected}\n` });
    }
  });

  it('write a page of rows with characters beyond Latin-1 as UTF-8, growing past the first buffer', () => {
    const row = (n: number) => ({ id: n, name: `T${n} – Masquerade`, description: 'x'.repeat(1_500), at: new Date(0), gone: undefined });
    const page = { data: { tests: { items: Array.from({ length: 200 }, (_, n) => row(n)), total: 200, next: null } } };
    const body = jsonAnswer(page, '\n');
    expect(Buffer.isBuffer(body)).toBe(true);
    expect((body as Buffer).equals(Buffer.from(`${JSON.stringify(page)}\n`))).toBe(true);
    // One element larger than twice the buffer so far.
    const huge = [{ text: '–'.repeat(100_000) }, ...Array.from({ length: 10 }, (_, n) => n)];
    expect(jsonBytes(huge)!.equals(Buffer.from(JSON.stringify(huge)))).toBe(true);
  });

  it('write a record without a list as one string, and what JSON.stringify cannot write as undefined', () => {
    expect(jsonAnswer({ id: 1, tags: ['a', 'b'] })).toBe('{"id":1,"tags":["a","b"]}');
    expect(jsonAnswer(undefined)).toBeUndefined();
    expect(jsonBytes(() => 1)).toBeUndefined();
    expect(jsonBytes(Symbol('s'))).toBeUndefined();
    expect(asText(jsonBytes('–'))).toBe('"–"');
  });

  it('fail as JSON.stringify fails: a BigInt, a cycle', () => {
    const cyclic: Record<string, unknown> = { items: [] };
    cyclic.self = cyclic;
    expect(() => jsonBytes({ items: Array(10).fill(1n) })).toThrow(TypeError);
    expect(() => jsonBytes(cyclic)).toThrow(TypeError);
  });
});
