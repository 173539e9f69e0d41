import { readFile } from 'node:fs/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { turnsDuring } from '../../../test/helpers/event-loop.ts';
import { referenceData } from '../../../test/helpers/reference-data.ts';
import { createLogger } from '../../logger.ts';
import { BundleParser } from './parser.ts';
import { InvalidBundleError, parseAttackBundle } from './stix.ts';

const parsers: BundleParser[] = [];
function parser(timeoutMs?: number): BundleParser {
  const made = new BundleParser(createLogger('silent'), timeoutMs);
  parsers.push(made);
  return made;
}

afterEach(async () => {
  await Promise.all(parsers.splice(0).map((made) => made.close()));
});

const BUNDLE = referenceData('attack', 'enterprise-attack-18.1.json');

describe('ATT&CK bundles parsed in a worker thread', () => {
  it('reads the same catalog as on this thread, and no turn of the event loop waits for the parse', async () => {
    const bundles = parser();
    await bundles.parse(await readFile(referenceData('attack', 'enterprise-attack-17.1.trimmed.json')));
    const bytes = await readFile(BUNDLE);
    const started = performance.now();
    const expected = parseAttackBundle(bytes.toString('utf8'));
    const here = performance.now() - started;
    const { value: catalog, longestGapMs } = await turnsDuring(() => bundles.parse(bytes));
    expect(catalog).toEqual(expected);
    expect(catalog.techniques.length).toBeGreaterThan(600);
    expect(catalog.techniques.find((technique) => technique.ttpId === 'T1059')?.attackModified).toBeInstanceOf(Date);
    // Parsed on this thread, the 34 MB of JSON would have held one turn for all of `here`.
    expect(longestGapMs, `the parse takes ${here.toFixed(0)} ms here`).toBeLessThan(here / 2);
    // The file's bytes were handed to the worker, not copied.
    expect(bytes.length).toBe(0);
  });

  it('a file that is not a bundle is refused in our words, and the worker parses the next one', async () => {
    const bundles = parser();
    const secret = Buffer.from('PRIVATE KEY -----BEGIN');
    const refusal = await bundles.parse(secret).catch((error: unknown) => error);
    // A small buffer shares Node's pool with others: copied, not handed over.
    expect(secret.toString()).toBe('PRIVATE KEY -----BEGIN');
    expect(refusal).toBeInstanceOf(InvalidBundleError);
    expect((refusal as Error).message).toBe('not a STIX bundle (not JSON)');
    await expect(bundles.parse(Buffer.from('{"type":"bundle"}'))).rejects.toThrow(
      'not a STIX bundle (type "bundle" with an objects array)',
    );
    const empty = Buffer.from(JSON.stringify({ type: 'bundle', id: 'bundle--1', objects: [] }));
    await expect(bundles.parse(empty)).rejects.toThrow('the bundle holds no ATT&CK tactics or techniques');
    const catalog = await bundles.parse(await readFile(referenceData('attack', 'enterprise-attack-17.1.trimmed.json')));
    expect(catalog.techniques.length).toBeGreaterThan(100);
    expect(bundles.workers).toBe(1);
  });

  it('a parse past its time limit fails and its worker is replaced', async () => {
    const bundles = parser(1);
    await expect(bundles.parse(await readFile(BUNDLE))).rejects.toThrow(/longer than 1 ms/);
    expect(bundles.workers).toBe(0);
  });
});
