import type { Services } from '../services.ts';

export const QueueName = {
  maintenance: 'maintenance',
  catalog: 'catalog',
  intel: 'intel',
  webhooks: 'webhooks',
  email: 'email',
  events: 'events',
} as const;
export type QueueName = (typeof QueueName)[keyof typeof QueueName];

export type Repeat = { every: number } | { pattern: string; tz?: string };

/** One recurring instance of a job, decided at run time (e.g. one per scheduled data source). */
export interface DynamicSchedule {
  /** Unique among all schedules, e.g. `data-source:sigma`. */
  id: string;
  repeat: Repeat;
  data: Record<string, unknown>;
}

/** A job: typed data (ids, never secrets), an idempotent processor, optional recurrence. */
export interface JobDefinition<Data = Record<string, unknown>> {
  name: string;
  queue: QueueName;
  description: string;
  /** A fixed recurrence, registered under the job's name. */
  repeat?: Repeat;
  /** Also runs once when a process starts working the queues, with data `{ atStart: true }` (catch-up after a crash). */
  runAtStart?: boolean;
  /**
   * Recurring instances read from the database at start: the runner registers these and drops any other
   * schedule of this job left from an earlier configuration. Later changes go through upsertSchedule/removeSchedule.
   */
  schedules?(services: Services): Promise<DynamicSchedule[]>;
  /** What one instance does, from its data (shown by the scheduler status instead of `description`). */
  describe?(data: Data): string;
  attempts?: number;
  run(data: Data, services: Services): Promise<unknown>;
}

export interface ScheduledJob {
  id: string;
  name: string;
  next_run_time: string | null;
}

export interface SchedulerStatus {
  running: boolean;
  /** Processes working the queues now; null when that cannot be known (Redis unreachable). */
  workers: number | null;
  jobs: ScheduledJob[];
}

export interface JobRunner {
  readonly kind: 'in-process' | 'bullmq';
  /** Whether an enqueued job outlives this process (on Redis), or is lost with it (in memory). */
  readonly durable: boolean;
  /** Registers recurring jobs and, when this process works the queues, starts processing. */
  start(): Promise<void>;
  enqueue(name: string, data?: Record<string, unknown>, options?: { jobId?: string; delayMs?: number }): Promise<string>;
  /** Creates or replaces the recurring schedule `id` of job `jobName`; a cron schedule first runs at its next occurrence. */
  upsertSchedule(id: string, jobName: string, repeat: Repeat, data?: Record<string, unknown>): Promise<void>;
  /** Removes the recurring schedule `id` (nothing happens when there is none). */
  removeSchedule(id: string): Promise<void>;
  /**
   * Throws 503 QUEUE_UNAVAILABLE when the queue is known to be unreachable now. Called inside a transaction
   * before it registers after-commit queue work, so an outage refuses the change instead of splitting it.
   */
  assertAvailable(): void;
  /** Registers every job's run-time schedules from the database again and drops stale ones (periodic repair). */
  reconcileSchedules(): Promise<void>;
  status(): Promise<SchedulerStatus>;
  /**
   * How many processes work `queue` now (every queue when omitted: the fewest of any), or null when unknown.
   * In-process: 1 once this process runs its jobs. BullMQ: the workers connected to Redis, bounded by a short timeout.
   */
  workerCount(queue?: QueueName): Promise<number | null>;
  /** Jobs of `queue` waiting, delayed or running now. */
  pending(queue: QueueName): Promise<number>;
  close(): Promise<void>;
}

export const BACKOFF_BASE_MS = 2_000;
/**
 * Jobs of one queue a process runs at once (BullMQ's worker concurrency, and the in-process runner's): the rest wait
 * their turn, so a burst of jobs (events relayed after a restart, say) leaves database connections to the requests.
 */
export const JOB_CONCURRENCY = 4;
export const DEFAULT_ATTEMPTS = 3;
