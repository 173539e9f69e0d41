import { Queue, Worker, type Job } from 'bullmq';
import { UnrecoverableError } from './errors.ts';
import { DomainError, ServiceUnavailableError } from '../errors.ts';
import type { Logger } from '../logger.ts';
import { reportOutages, type Redis } from '../redis.ts';
import type { Services } from '../services.ts';
import { syncSchedules, type ScheduleSync } from './schedules.ts';
import { withTimeout } from './timeout.ts';
import {
  BACKOFF_BASE_MS,
  DEFAULT_ATTEMPTS,
  JOB_CONCURRENCY,
  QueueName,
  type DynamicSchedule,
  type JobDefinition,
  type JobRunner,
  type Repeat,
} from './types.ts';

/** Worker presence is shown by health and status answers, which must stay fast when Redis is slow or down. */
const WORKER_COUNT_TIMEOUT_MS = 1_000;
/** How long a closing worker may take to finish its current jobs before it is closed by force. */
const WORKER_CLOSE_GRACE_MS = 5_000;

/** How often every process checks that Redis still holds every recurring job (a Redis back empty holds none). */
export const SCHEDULE_CHECK_MS = 30_000;

/** Seconds a client is asked to wait when the queue is unreachable. */
const QUEUE_RETRY_AFTER_SECONDS = 5;

export interface BullmqOptions {
  /** The workers' connection (blocking commands wait out an outage). */
  connection: Redis;
  /** The queues' connection, fail-fast, so enqueueing while Redis is unreachable answers 503 at once (default: `connection`). */
  queueConnection?: Redis;
  prefix: string;
  /** Whether this process works the queues (worker) or only enqueues (API). */
  process: boolean;
  concurrency?: number;
}

/** Jobs on Redis through BullMQ: the API enqueues and schedules, `npm run worker` processes. */
export class BullmqJobRunner implements JobRunner {
  readonly kind = 'bullmq' as const;
  readonly durable = true;
  private readonly queues = new Map<QueueName, Queue>();
  private readonly workers: Worker[] = [];
  private started = false;
  private readonly queueConnection: Redis;
  private scheduleCheck?: NodeJS.Timeout;
  private repairing?: Promise<void>;

  constructor(
    private readonly definitions: ReadonlyMap<string, JobDefinition>,
    private readonly services: () => Services,
    private readonly log: Logger,
    private readonly options: BullmqOptions,
  ) {
    this.queueConnection = options.queueConnection ?? options.connection;
    for (const name of Object.values(QueueName)) {
      const queue = new Queue(name, { connection: this.queueConnection, prefix: options.prefix });
      // An unheard 'error' would end the process; a failing command is already answered where it was sent.
      queue.on('error', (error) => this.log.warn({ err: error, queue: name }, 'job queue error'));
      this.queues.set(name, queue);
    }
  }

  private queueOf(definition: JobDefinition): Queue {
    return this.queues.get(definition.queue)!;
  }

  private definitionOf(name: string): JobDefinition {
    const definition = this.definitions.get(name);
    if (!definition) throw new Error(`Unknown job ${name}`);
    return definition;
  }

  async start(): Promise<void> {
    // Start-up waits for Redis (as it always did); afterwards queue operations fail fast.
    await Promise.all([...this.queues.values()].map((queue) => queue.waitUntilReady()));
    for (const definition of this.definitions.values()) {
      if (definition.repeat) await this.upsertSchedule(definition.name, definition.name, definition.repeat);
    }
    await this.syncSchedules('all');
    if (this.options.process) {
      for (const queue of this.queues.keys()) {
        const worker = new Worker(queue, (job) => this.process(job), {
          connection: reportOutages(this.options.connection.duplicate(), this.log, 'Redis unreachable: workers wait for it'),
          prefix: this.options.prefix,
          concurrency: this.options.concurrency ?? JOB_CONCURRENCY,
        });
        worker.on('failed', (job, error) => this.log.error({ err: error, job: job?.name, id: job?.id }, 'job failed'));
        this.workers.push(worker);
      }
    }
    // Schedules live in Redis only: a Redis that comes back empty holds none, so every process puts them back.
    this.queueConnection.on('ready', this.onReady);
    this.scheduleCheck = setInterval(() => void this.repairSchedules(), SCHEDULE_CHECK_MS);
    this.scheduleCheck.unref();
    this.started = true;
    if (this.options.process) {
      for (const definition of this.definitions.values()) if (definition.runAtStart) await this.enqueue(definition.name, { atStart: true });
    }
  }

  private readonly onReady = () => void this.repairSchedules();

  /**
   * Registers again every recurring job (fixed or read from the database) that Redis does not hold; run when
   * Redis is reachable again and every SCHEDULE_CHECK_MS. Present schedules are left as they are.
   */
  repairSchedules(): Promise<void> {
    this.repairing ??= this.registerMissing()
      .catch((error: unknown) => this.log.warn({ err: error }, 'recurring jobs could not be checked; retrying later'))
      .finally(() => (this.repairing = undefined));
    return this.repairing;
  }

  private async registerMissing(): Promise<void> {
    const restored = await this.syncSchedules('missing');
    if (restored.length) this.log.warn({ schedules: restored }, 'recurring jobs missing from Redis registered again');
  }

  /** Ids of the schedules Redis holds now, with the job each one runs. */
  private async heldSchedules(): Promise<Map<string, string>> {
    const held = new Map<string, string>();
    for (const queue of this.queues.values()) {
      for (const scheduler of await this.reachable(() => queue.getJobSchedulers())) held.set(scheduler.id ?? scheduler.key, scheduler.name);
    }
    return held;
  }

  /**
   * Brings every job's run-time schedules in line with the database (src/jobs/schedules.ts), from what Redis held
   * before; `missing` also registers the fixed schedules Redis lost. Returns the ids it registered.
   */
  private async syncSchedules(sync: ScheduleSync): Promise<string[]> {
    const held = await this.heldSchedules();
    const registered: string[] = [];
    for (const definition of this.definitions.values()) {
      if (sync === 'missing' && definition.repeat && !held.has(definition.name)) {
        await this.upsertSchedule(definition.name, definition.name, definition.repeat);
        registered.push(definition.name);
      }
      // Redis is asked for ids only: `all` registers every wanted schedule again.
      const own = new Map<string, undefined>();
      for (const [id, name] of held) if (name === definition.name) own.set(id, undefined);
      const writes = {
        register: (schedule: DynamicSchedule) => this.upsertSchedule(schedule.id, definition.name, schedule.repeat, schedule.data),
        remove: (id: string) => this.removeSchedule(id),
      };
      registered.push(...(await syncSchedules(definition, this.services(), own, writes, sync)));
    }
    return registered;
  }

  async upsertSchedule(id: string, jobName: string, repeat: Repeat, data: Record<string, unknown> = {}): Promise<void> {
    const definition = this.definitionOf(jobName);
    await this.reachable(() =>
      this.queueOf(definition).upsertJobScheduler(id, repeat, { name: jobName, data, opts: this.jobOptions(definition) }),
    );
  }

  async removeSchedule(id: string): Promise<void> {
    await this.reachable(async () => {
      for (const queue of this.queues.values()) await queue.removeJobScheduler(id);
    });
  }

  assertAvailable(): void {
    if (this.queueConnection.status !== 'ready') throw this.unavailable();
  }

  async reconcileSchedules(): Promise<void> {
    await this.syncSchedules('all');
  }

  private unavailable(): ServiceUnavailableError {
    return new ServiceUnavailableError('The job queue is unavailable; retry shortly', QUEUE_RETRY_AFTER_SECONDS, 'QUEUE_UNAVAILABLE');
  }

  /** Runs a queue operation, or answers 503 QUEUE_UNAVAILABLE when Redis is unreachable or stops answering. */
  private async reachable<T>(operation: () => Promise<T>): Promise<T> {
    this.assertAvailable();
    try {
      return await operation();
    } catch (error) {
      if (error instanceof DomainError) throw error;
      this.log.warn({ err: error }, 'job queue operation failed');
      throw this.unavailable();
    }
  }

  private jobOptions(definition: JobDefinition) {
    return {
      attempts: definition.attempts ?? DEFAULT_ATTEMPTS,
      backoff: { type: 'exponential', delay: BACKOFF_BASE_MS },
      removeOnComplete: 1000,
      removeOnFail: 5000,
    };
  }

  private async process(job: Job): Promise<unknown> {
    const definition = this.definitions.get(job.name);
    if (!definition) throw new UnrecoverableError(`Unknown job ${job.name}`);
    try {
      return await definition.run(job.data as Record<string, unknown>, this.services());
    } catch (error) {
      if (error instanceof DomainError) throw new UnrecoverableError(error.message);
      throw error;
    }
  }

  async enqueue(name: string, data: Record<string, unknown> = {}, options: { jobId?: string; delayMs?: number } = {}) {
    const definition = this.definitionOf(name);
    const job = await this.reachable(() =>
      this.queueOf(definition).add(name, data, { ...this.jobOptions(definition), jobId: options.jobId, delay: options.delayMs }),
    );
    return job.id!;
  }

  async status() {
    const jobs = [];
    for (const queue of this.queues.values()) {
      for (const scheduler of await this.reachable(() => queue.getJobSchedulers())) {
        const definition = this.definitions.get(scheduler.name);
        const data = (scheduler.template?.data ?? {}) as Record<string, unknown>;
        jobs.push({
          id: scheduler.id ?? scheduler.key,
          name: definition?.describe?.(data) ?? definition?.description ?? scheduler.name,
          next_run_time: scheduler.next ? new Date(scheduler.next).toISOString() : null,
        });
      }
    }
    return { running: this.started, workers: await this.workerCount(), jobs };
  }

  async pending(queue: QueueName): Promise<number> {
    const counts = await this.queues.get(queue)!.getJobCounts('waiting', 'active', 'delayed', 'prioritized', 'waiting-children');
    return Object.values(counts).reduce((sum, count) => sum + count, 0);
  }

  async workerCount(queue?: QueueName): Promise<number | null> {
    // A disconnected ioredis client queues commands instead of failing them: do not wait for it.
    if (this.options.connection.status !== 'ready') return null;
    const queues = queue ? [this.queues.get(queue)!] : [...this.queues.values()];
    try {
      const counts = await withTimeout(Promise.all(queues.map((candidate) => candidate.getWorkersCount())), WORKER_COUNT_TIMEOUT_MS);
      return Math.min(...counts);
    } catch (error) {
      this.log.warn({ err: error }, 'could not count the queue workers');
      return null;
    }
  }

  /**
   * Lets a worker finish its current jobs for a while, then closes it by force: after Redis went away and came
   * back, a graceful close can wait forever on the blocking connection. A job cut off this way is idempotent and
   * is taken up again as stalled.
   */
  private async closeWorker(worker: Worker): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    const graceful = worker.close().then(() => true);
    const patience = new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), WORKER_CLOSE_GRACE_MS)));
    const closed = await Promise.race([graceful, patience]);
    clearTimeout(timer);
    if (!closed) {
      this.log.warn({ queue: worker.name }, 'worker did not stop in time; closing it by force');
      await Promise.race([worker.close(true), new Promise((resolve) => setTimeout(resolve, WORKER_CLOSE_GRACE_MS).unref())]);
    }
  }

  async close(): Promise<void> {
    clearInterval(this.scheduleCheck);
    this.queueConnection.off('ready', this.onReady);
    await this.repairing;
    await Promise.all(this.workers.map((worker) => this.closeWorker(worker)));
    await Promise.all([...this.queues.values()].map((queue) => queue.close()));
  }
}
