import type { Worker } from 'node:worker_threads';
import type { Logger } from './logger.ts';
import { startThread, type ThreadName } from './threads.ts';

/**
 * A small pool of worker threads for work that must not run on the thread answering requests (SAML verification,
 * PDF layout): workers start when first needed, jobs beyond them wait in a bounded queue, each job has a time limit
 * (its worker is then replaced), and a worker's heap is capped, so a hostile or runaway job ends its worker, never
 * the API. What a job is and how its worker answers is the owner's (`PoolOwner`).
 *
 * A worker posts `{ kind: 'ready' }` once its code is loaded (a job's time limit starts only then), and every other
 * message carries the `job` number of the request it answers.
 */

export interface PoolLimits {
  workers: number;
  /** Jobs that may wait for a worker; past it, `busy()`. */
  queue: number;
  timeoutMs: number;
}

export interface PooledJob {
  /** The message posted to the worker; its `job` number identifies the answers. */
  readonly request: { job: number };
  /** Memory the message hands over to the worker rather than copies (detached here once posted). */
  readonly transfer?: ArrayBuffer[];
}

export interface PoolOwner<J extends PooledJob, M extends { kind: string; job?: number }> {
  thread: ThreadName;
  /** For the log: "SAML XML worker failed". */
  label: string;
  heapMb: number;
  /** A worker left without work this long stops, giving its memory back; kept for the process without it. */
  idleMs?: number;
  /** The error of a job refused because every worker is busy and the queue is full, or the pool has stopped. */
  busy(stopping: boolean): Error;
  /** The job ran past the time limit (its worker is being replaced). */
  timedOut(job: J): void;
  /** The job's worker failed, exited or was stopped under it. */
  lost(job: J, error: Error | null): void;
  /** A message of the job's worker about it; true when it finishes the job. `post` answers the worker. */
  received(job: J, message: M, post: (message: unknown) => void): boolean;
}

interface Slot<J> {
  worker: Worker;
  ready: boolean;
  job: J | null;
  timer?: NodeJS.Timeout;
  idle?: NodeJS.Timeout;
}

/** A worker that has not loaded its code by then is stopped (its job fails, the next gets a new worker). */
export const STARTUP_MS = 30_000;

export class WorkerPool<J extends PooledJob, M extends { kind: string; job?: number }> {
  private readonly slots: Slot<J>[] = [];
  private readonly queue: J[] = [];
  /**
   * Each waiting job's deadline: it waits at most the time a worker may take to start and run one job, then fails
   * as busy (a client does not wait behind a queue of slow jobs for minutes).
   */
  private readonly waiting = new Map<J, NodeJS.Timeout>();
  private stopped = false;
  /** The number of the next job: the worker's answers name it. */
  private nextJob = 0;

  constructor(
    private readonly limits: PoolLimits,
    private readonly owner: PoolOwner<J, M>,
    private readonly log: Logger,
  ) {}

  /**
   * Runs the job `make` builds for the next job number on an idle worker, or queues it; `owner.busy` is thrown when
   * neither is possible.
   */
  submit(make: (job: number) => J): void {
    if (this.stopped) throw this.owner.busy(true);
    const job = make(this.nextJob++);
    const slot = this.idleSlot();
    if (slot) this.run(slot, job);
    else if (this.queue.length < this.limits.queue) this.enqueue(job);
    else throw this.owner.busy(false);
  }

  private enqueue(job: J): void {
    this.queue.push(job);
    const deadline = setTimeout(() => {
      this.waiting.delete(job);
      const index = this.queue.indexOf(job);
      if (index === -1) return;
      this.queue.splice(index, 1);
      this.owner.lost(job, this.owner.busy(false));
    }, this.limits.timeoutMs + STARTUP_MS);
    deadline.unref();
    this.waiting.set(job, deadline);
  }

  private dequeue(): J | undefined {
    const job = this.queue.shift();
    if (job) {
      clearTimeout(this.waiting.get(job));
      this.waiting.delete(job);
    }
    return job;
  }

  /** Starts a worker if none runs, so that the first job does not wait for one. */
  warm(): void {
    if (!this.slots.length && !this.stopped) this.rest(this.spawn());
  }

  /** Workers running now. */
  get size(): number {
    return this.slots.length;
  }

  /** Stops every worker; what waits and what runs fails. */
  async close(): Promise<void> {
    this.stopped = true;
    const slots = this.slots.splice(0);
    for (let job = this.dequeue(); job; job = this.dequeue()) this.owner.lost(job, this.owner.busy(true));
    for (const slot of slots) {
      clearTimeout(slot.timer);
      clearTimeout(slot.idle);
      const job = slot.job;
      slot.job = null;
      if (job) this.owner.lost(job, this.owner.busy(true));
    }
    await Promise.all(slots.map((slot) => slot.worker.terminate()));
  }

  private idleSlot(): Slot<J> | undefined {
    return this.slots.find((slot) => !slot.job) ?? (this.slots.length < this.limits.workers ? this.spawn() : undefined);
  }

  private spawn(): Slot<J> {
    const worker = startThread(this.owner.thread, { resourceLimits: { maxOldGenerationSizeMb: this.owner.heapMb } });
    worker.unref();
    const slot: Slot<J> = { worker, ready: false, job: null };
    slot.timer = setTimeout(
      () => this.retire(slot, new Error(`the ${this.owner.label} worker did not start in ${STARTUP_MS} ms`)),
      STARTUP_MS,
    );
    slot.timer.unref();
    worker.on('message', (message: M) => this.received(slot, message));
    worker.on('error', (error) => this.retire(slot, error));
    worker.on('exit', (code) => this.retire(slot, new Error(`the ${this.owner.label} worker stopped (exit code ${code})`)));
    this.slots.push(slot);
    return slot;
  }

  private run(slot: Slot<J>, job: J): void {
    clearTimeout(slot.idle);
    slot.job = job;
    if (slot.ready) this.start(slot, job);
  }

  private start(slot: Slot<J>, job: J): void {
    slot.timer = setTimeout(() => {
      slot.job = null;
      this.retire(slot);
      this.owner.timedOut(job);
    }, this.limits.timeoutMs);
    try {
      slot.worker.postMessage(job.request, job.transfer);
    } catch (error) {
      // A request that cannot be sent (nothing sent today can fail so) fails alone; the worker is replaced.
      this.retire(slot, error as Error);
    }
  }

  private received(slot: Slot<J>, message: M): void {
    // A stopped worker's messages still queued for this thread are not answers any more.
    if (!this.slots.includes(slot)) return;
    if (message.kind === 'ready') {
      clearTimeout(slot.timer);
      slot.ready = true;
      if (slot.job) this.start(slot, slot.job);
      return;
    }
    const job = slot.job;
    if (!job || message.job !== job.request.job) return;
    if (!this.owner.received(job, message, (answer) => slot.worker.postMessage(answer))) return;
    clearTimeout(slot.timer);
    slot.job = null;
    const queued = this.dequeue();
    if (queued) this.run(slot, queued);
    else this.rest(slot);
  }

  /** Lets an idle worker stop after the owner's idle time, if it has one. */
  private rest(slot: Slot<J>): void {
    if (this.owner.idleMs === undefined) return;
    slot.idle = setTimeout(() => {
      if (!slot.job) this.retire(slot);
    }, this.owner.idleMs);
    slot.idle.unref();
  }

  /** Stops a worker that timed out, failed, exited or rested; its job (if any) fails, a waiting one gets a new worker. */
  private retire(slot: Slot<J>, error?: Error): void {
    const index = this.slots.indexOf(slot);
    if (index === -1) return;
    this.slots.splice(index, 1);
    clearTimeout(slot.timer);
    clearTimeout(slot.idle);
    void slot.worker.terminate();
    if (error) this.log.warn({ err: error }, `${this.owner.label} worker failed`);
    const job = slot.job;
    slot.job = null;
    if (job) this.owner.lost(job, error ?? null);
    if (!this.queue.length || this.stopped) return;
    // One worker fewer than the limit now: a waiting job gets a new one.
    const fresh = this.idleSlot();
    if (fresh) this.run(fresh, this.dequeue()!);
  }
}
