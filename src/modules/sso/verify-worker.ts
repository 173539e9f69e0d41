import { parentPort } from 'node:worker_threads';
import { type CacheProvider, SAML } from '@node-saml/node-saml';
import { algorithmProblem } from './algorithms.ts';
import { readAssertion, readResponseEnvelope } from './messages.ts';
import type { CacheCall, ToPool, ToWorker, VerifyRequest } from './verifier.ts';

/**
 * An XML worker: parses a SAMLResponse, refuses weak algorithms, and has node-saml verify it, off the API's
 * request thread. node-saml's request-id cache stays in the API process; its calls travel as messages.
 */
const port = parentPort!;
const pending = new Map<number, { resolve(value: unknown): void; reject(error: Error): void }>();
let nextCall = 0;

function call(job: number, op: CacheCall['op'], args: string[]): Promise<never> {
  const id = nextCall++;
  return new Promise((resolve, reject) => {
    pending.set(id, { resolve: resolve as (value: unknown) => void, reject });
    port.postMessage({ kind: 'cache', job, call: id, op, args } satisfies ToPool);
  });
}

const cacheFor = (job: number): CacheProvider => ({
  saveAsync: (key, value) => call(job, 'saveAsync', [key, value]),
  getAsync: (key) => call(job, 'getAsync', [key]),
  removeAsync: (key) => call(job, 'removeAsync', key ? [key] : []),
});

async function verify({ job, samlResponse, options, allowSha1 }: VerifyRequest): Promise<ToPool> {
  const envelope = readResponseEnvelope(samlResponse);
  if (!envelope) return { kind: 'refused', job, reason: 'the SAMLResponse is not a SAML Response' };
  const weak = algorithmProblem(envelope.algorithms, allowSha1);
  if (weak) return { kind: 'refused', job, reason: weak };
  try {
    const saml = new SAML({ ...options, wantAuthnResponseSigned: envelope.signed, cacheProvider: cacheFor(job) });
    const { profile } = await saml.validatePostResponseAsync({ SAMLResponse: samlResponse });
    const assertion = profile?.getAssertionXml ? readAssertion(profile.getAssertionXml()) : null;
    return { kind: 'verified', job, envelope, assertion };
  } catch (error) {
    return { kind: 'refused', job, reason: error instanceof Error ? error.message : String(error) };
  }
}

port.on('message', (message: ToWorker) => {
  if (message.kind === 'verify') {
    void verify(message).then((answer) => port.postMessage(answer));
    return;
  }
  const waiting = pending.get(message.call);
  pending.delete(message.call);
  if ('error' in message) waiting?.reject(new Error(message.error));
  else waiting?.resolve(message.value);
});

port.postMessage({ kind: 'ready' } satisfies ToPool);
