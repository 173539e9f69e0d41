import { parentPort } from 'node:worker_threads';
import type { ParseRequest, ToParser } from './parser.ts';
import { InvalidBundleError, parseAttackBundle } from './stix.ts';

/**
 * A catalog worker: parses an ATT&CK STIX bundle (tens of megabytes of JSON) and reads its records out, off the
 * API's request thread. Only the records travel back; the bundle's objects die with this worker's heap.
 */
const port = parentPort!;

port.on('message', ({ job, bytes }: ParseRequest) => {
  let answer: ToParser;
  try {
    answer = {
      kind: 'parsed',
      job,
      catalog: parseAttackBundle(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8')),
    };
  } catch (error) {
    // Our own words for a file that is not a bundle (never the parser's: they quote the file).
    answer =
      error instanceof InvalidBundleError
        ? { kind: 'invalid', job, reason: error.message }
        : { kind: 'failed', job, reason: error instanceof Error ? error.message : String(error) };
  }
  port.postMessage(answer);
});

port.postMessage({ kind: 'ready' } satisfies ToParser);
