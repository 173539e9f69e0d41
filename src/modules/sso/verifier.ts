import type { Worker } from 'node:worker_threads';
import type { CacheProvider } from '@node-saml/node-saml';
import { ServiceUnavailableError } from '../../errors.ts';
import type { Logger } from '../../logger.ts';
import { startThread } from '../../threads.ts';
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

export interface VerifierLimits {
  workers: number;
  /** Responses that may wait for a worker; past it, 503 SSO_BUSY. */
  queue: number;
  timeoutMs: number;
}

interface Job {
  request: VerifyRequest;
  cache: CacheProvider;
  resolve(verification: Verification): void;
  reject(error: unknown): void;
  /** A failure of the shared SSO state during the job: it decides the answer (503), not the worker's verdict. */
  cacheError?: unknown;
}

interface Slot {
  worker: Worker;
  /** The worker has loaded its code: a job's time limit starts only then. */
  ready: boolean;
  job: Job | null;
  timer?: NodeJS.Timeout;
}

/** Heap of one worker: a hostile document exhausts its worker, never the API. */
const WORKER_HEAP_MB = 128;

/**
 * A small pool of XML workers (started when first needed) that parse and verify SAML responses, so that the
 * API's event loop never runs that work: a bounded queue, a time limit per response (the worker is replaced).
 */
export class SamlVerifier {
  private readonly slots: Slot[] = [];
  private readonly queue: Job[] = [];
  private nextJob = 0;

  constructor(
    private readonly limits: VerifierLimits,
    private readonly log: Logger,
  ) {}

  /** Verifies a base64 SAMLResponse with node-saml; `cache` is its request-id cache. Throws SsoBusyError when full. */
  verify(samlResponse: string, options: SamlOptions, allowSha1: boolean, cache: CacheProvider): Promise<Verification> {
    return new Promise((resolve, reject) => {
      const job: Job = { request: { kind: 'verify', job: this.nextJob++, samlResponse, options, allowSha1 }, cache, resolve, reject };
      const slot = this.idleSlot();
      if (slot) this.run(slot, job);
      else if (this.queue.length < this.limits.queue) this.queue.push(job);
      else reject(new SsoBusyError());
    });
  }

  /** Starts a worker if none runs, so that the first answer does not wait for one (called when a sign-in starts). */
  warm(): void {
    if (!this.slots.length) this.spawn();
  }

  async close(): Promise<void> {
    const slots = this.slots.splice(0);
    for (const job of this.queue.splice(0)) job.reject(new SsoBusyError());
    await Promise.all(slots.map((slot) => slot.worker.terminate()));
  }

  private idleSlot(): Slot | undefined {
    return this.slots.find((slot) => !slot.job) ?? (this.slots.length < this.limits.workers ? this.spawn() : undefined);
  }

  private spawn(): Slot {
    const worker = startThread('sso-worker', { resourceLimits: { maxOldGenerationSizeMb: WORKER_HEAP_MB } });
    worker.unref();
    const slot: Slot = { worker, ready: false, job: null };
    worker.on('message', (message: ToPool) => this.received(slot, message));
    worker.on('error', (error) => this.retire(slot, error));
    worker.on('exit', (code) => this.retire(slot, new Error(`the XML worker stopped (exit code ${code})`)));
    this.slots.push(slot);
    return slot;
  }

  private run(slot: Slot, job: Job): void {
    slot.job = job;
    if (slot.ready) this.start(slot, job);
  }

  private start(slot: Slot, job: Job): void {
    slot.timer = setTimeout(() => {
      slot.job = null;
      this.retire(slot);
      job.resolve({ ok: false, reason: `the response took longer than ${this.limits.timeoutMs} ms to verify` });
    }, this.limits.timeoutMs);
    slot.worker.postMessage(job.request);
  }

  private received(slot: Slot, message: ToPool): void {
    if (message.kind === 'ready') {
      slot.ready = true;
      if (slot.job) this.start(slot, slot.job);
      return;
    }
    const job = slot.job;
    if (!job || message.job !== job.request.job) return;
    if (message.kind === 'cache') {
      void this.answerCache(slot, job, message);
      return;
    }
    clearTimeout(slot.timer);
    slot.job = null;
    if (job.cacheError) job.reject(job.cacheError);
    else
      job.resolve(
        message.kind === 'verified'
          ? { ok: true, envelope: message.envelope, assertion: message.assertion }
          : { ok: false, reason: message.reason },
      );
    const queued = this.queue.shift();
    if (queued) this.run(slot, queued);
  }

  private async answerCache(slot: Slot, job: Job, { call, op, args }: CacheCall): Promise<void> {
    try {
      const value = await (job.cache[op] as (...values: string[]) => Promise<unknown>)(...args);
      slot.worker.postMessage({ kind: 'cache-result', call, value } satisfies ToWorker);
    } catch (error) {
      job.cacheError ??= error;
      slot.worker.postMessage({ kind: 'cache-result', call, error: String(error) } satisfies ToWorker);
    }
  }

  /** Stops a worker that timed out, failed or exited; its job (if any) fails, and a waiting one gets a new worker. */
  private retire(slot: Slot, error?: Error): void {
    const index = this.slots.indexOf(slot);
    if (index === -1) return;
    this.slots.splice(index, 1);
    clearTimeout(slot.timer);
    void slot.worker.terminate();
    if (error) this.log.warn({ err: error }, 'SAML XML worker failed');
    if (slot.job) slot.job.reject(error ?? new Error('the XML worker stopped'));
    const queued = this.queue.shift();
    if (!queued) return;
    const fresh = this.idleSlot();
    if (fresh) this.run(fresh, queued);
    else this.queue.unshift(queued);
  }
}
