import type { Services } from '../services.ts';

export const QueueName = {
  maintenance: 'maintenance',
  catalog: 'catalog',
  intel: 'intel',
  webhooks: 'webhooks',
  email: 'email',
} as const;
export type QueueName = (typeof QueueName)[keyof typeof QueueName];

export type Repeat = { every: number } | { pattern: string; tz?: string };

/** A job: typed data (ids, never secrets), an idempotent processor, optional recurrence. */
export interface JobDefinition<Data = Record<string, unknown>> {
  name: string;
  queue: QueueName;
  description: string;
  repeat?: Repeat;
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
  jobs: ScheduledJob[];
}

export interface JobRunner {
  readonly kind: 'in-process' | 'bullmq';
  /** Registers recurring jobs and, when this process works the queues, starts processing. */
  start(): Promise<void>;
  enqueue(name: string, data?: Record<string, unknown>, options?: { jobId?: string; delayMs?: number }): Promise<string>;
  status(): Promise<SchedulerStatus>;
  close(): Promise<void>;
}

export const BACKOFF_BASE_MS = 2_000;
export const DEFAULT_ATTEMPTS = 3;
