import type { CacheProvider } from '@node-saml/node-saml';
import { ServiceUnavailableError } from '../../errors.ts';
import type { Logger } from '../../logger.ts';
import { type PoolLimits, WorkerPool } from '../../worker-pool.ts';
import type { AssertionFacts, ResponseEnvelope } from './messages.ts';
import type { SamlOptions } from './saml.ts';

export interface VerifyRequest {
  kind: 'verify';
  job: number;
  samlResponse: string;
  options: SamlOptions;
  allowSha1: boolean;
}
export interface CacheCall {
  kind: 'cache';
  job: number;
  call: number;
  op: 'saveAsync' | 'getAsync' | 'removeAsync';
  args: string[];
}
export type ToPool =
  | CacheCall
  | { kind: 'verified'; job: number; envelope: ResponseEnvelope; assertion: AssertionFacts | null }
  | { kind: 'refused'; job: number; reason: string }
  | { kind: 'ready' };
export type ToWorker =
  | VerifyRequest
  | { kind: 'cache-result'; call: number; value: unknown }
  | { kind: 'cache-result'; call: number; error: string };

/** What a worker made of a response: node-saml verified it (and what it says), or why not. */
export type Verification = { ok: true; envelope: ResponseEnvelope; assertion: AssertionFacts | null } | { ok: false; reason: string };

export class SsoBusyError extends ServiceUnavailableError {
  constructor() {
    super('Single sign-on is busy; try again in a moment', 2, 'SSO_BUSY');
  }
}

interface Job {
  request: VerifyRequest;
  cache: CacheProvider;
  resolve(verification: Verification): void;
  reject(error: unknown): void;
  /** A failure of the shared SSO state during the job: it decides the answer (503), not the worker's verdict. */
  cacheError?: unknown;
}

/** Heap of one worker: a hostile document exhausts its worker, never the API. */
const WORKER_HEAP_MB = 128;

/**
 * A small pool of XML workers (src/worker-pool.ts, started when first needed) that parse and verify SAML responses,
 * so that the API's event loop never runs that work: a bounded queue, a time limit per response (the worker is
 * replaced).
 */
export class SamlVerifier {
  private readonly pool: WorkerPool<Job, ToPool>;

  constructor(limits: PoolLimits, log: Logger) {
    this.pool = new WorkerPool<Job, ToPool>(
      limits,
      {
        thread: 'sso-worker',
        label: 'SAML XML',
        heapMb: WORKER_HEAP_MB,
        busy: () => new SsoBusyError(),
        timedOut: (job) => job.resolve({ ok: false, reason: `the response took longer than ${limits.timeoutMs} ms to verify` }),
        lost: (job, error) => job.reject(error ?? new Error('the XML worker stopped')),
        received: (job, message, post) => {
          if (message.kind === 'cache') {
            void answerCache(job, message, post);
            return false;
          }
          if (job.cacheError) job.reject(job.cacheError);
          else if (message.kind === 'verified') job.resolve({ ok: true, envelope: message.envelope, assertion: message.assertion });
          else if (message.kind === 'refused') job.resolve({ ok: false, reason: message.reason });
          return true;
        },
      },
      log,
    );
  }

  /** Verifies a base64 SAMLResponse with node-saml; `cache` is its request-id cache. Throws SsoBusyError when full. */
  verify(samlResponse: string, options: SamlOptions, allowSha1: boolean, cache: CacheProvider): Promise<Verification> {
    return new Promise((resolve, reject) =>
      this.pool.submit((job) => ({ request: { kind: 'verify', job, samlResponse, options, allowSha1 }, cache, resolve, reject })),
    );
  }

  /** Starts a worker if none runs, so that the first answer does not wait for one (called when a sign-in starts). */
  warm(): void {
    this.pool.warm();
  }

  close(): Promise<void> {
    return this.pool.close();
  }
}

/** Runs one of node-saml's request-id cache calls for the worker, in this process, and posts its result back. */
async function answerCache(job: Job, { call, op, args }: CacheCall, post: (message: ToWorker) => void): Promise<void> {
  try {
    const value = await (job.cache[op] as (...values: string[]) => Promise<unknown>)(...args);
    post({ kind: 'cache-result', call, value });
  } catch (error) {
    job.cacheError ??= error;
    post({ kind: 'cache-result', call, error: String(error) });
  }
}
