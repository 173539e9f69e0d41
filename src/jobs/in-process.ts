import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { UnrecoverableError } from './errors.ts';
import { syncSchedules } from './schedules.ts';
import { CronExpressionParser } from 'cron-parser';
import { DomainError } from '../errors.ts';
import type { Logger } from '../logger.ts';
import type { Services } from '../services.ts';
import {
  BACKOFF_BASE_MS,
  DEFAULT_ATTEMPTS,
  JOB_CONCURRENCY,
  type JobDefinition,
  type QueueName,
  type JobRunner,
  type Repeat,
} from './types.ts';

export function nextRun(repeat: Repeat, from = new Date()): Date {
  if ('every' in repeat) return new Date(from.getTime() + repeat.every);
  return CronExpressionParser.parse(repeat.pattern, { currentDate: from, tz: repeat.tz ?? 'UTC' })
    .next()
    .toDate();
}

/** setTimeout fires at once for delays past 2^31 - 1 ms (~24.8 days): longer waits are taken in steps. */
const MAX_TIMER_MS = 2 ** 31 - 1;

interface Schedule {
  id: string;
  definition: JobDefinition;
  repeat: Repeat;
  data: Record<string, unknown>;
  next?: Date;
  timer?: NodeJS.Timeout;
}

/** Runs jobs inside this process (embedded mode): same processors, timers instead of Redis. */
export class InProcessJobRunner implements JobRunner {
  readonly kind = 'in-process' as const;
  readonly durable = false;
  private readonly schedules = new Map<string, Schedule>();
  /** Work under way, with the queue it belongs to. */
  private readonly running = new Map<Promise<void>, QueueName>();
  private started = false;
  private closed = false;
  /** Ids of the jobs enqueued with an id and not finished: enqueueing one of them again adds nothing (as BullMQ). */
  private readonly pendingIds = new Set<string>();
  /** Per queue: attempts running, and the ones waiting for one of the JOB_CONCURRENCY places. */
  private readonly places = new Map<QueueName, { busy: number; waiting: Array<() => void> }>();
  /** Ends the waits (delays, retry backoff) of jobs under way when the runner closes. */
  private readonly closing = new AbortController();

  constructor(
    private readonly definitions: ReadonlyMap<string, JobDefinition>,
    private readonly services: () => Services,
    private readonly log: Logger,
  ) {
    for (const definition of definitions.values()) {
      if (definition.repeat) this.schedules.set(definition.name, { id: definition.name, definition, repeat: definition.repeat, data: {} });
    }
  }

  private definitionOf(name: string): JobDefinition {
    const definition = this.definitions.get(name);
    if (!definition) throw new Error(`Unknown job ${name}`);
    return definition;
  }

  async start(): Promise<void> {
    this.started = true;
    for (const schedule of this.schedules.values()) this.arm(schedule, nextRun(schedule.repeat));
    await this.reconcileSchedules();
    for (const definition of this.definitions.values()) if (definition.runAtStart) await this.enqueue(definition.name, { atStart: true });
  }

  /** Always reachable: the schedules live in this process. */
  assertAvailable(): void {}

  async reconcileSchedules(): Promise<void> {
    // What this process held before the database is read (src/jobs/schedules.ts).
    const held = [...this.schedules.values()];
    for (const definition of this.definitions.values()) {
      const own = new Map(held.filter((schedule) => schedule.definition === definition).map((schedule) => [schedule.id, schedule]));
      await syncSchedules(
        definition,
        this.services(),
        own,
        {
          register: (schedule) => this.upsertSchedule(schedule.id, definition.name, schedule.repeat, schedule.data),
          remove: (id) => this.removeSchedule(id),
        },
        'all',
      );
    }
  }

  async upsertSchedule(id: string, jobName: string, repeat: Repeat, data: Record<string, unknown> = {}): Promise<void> {
    const definition = this.definitionOf(jobName);
    clearTimeout(this.schedules.get(id)?.timer);
    const schedule: Schedule = { id, definition, repeat, data };
    this.schedules.set(id, schedule);
    if (this.started) this.arm(schedule, nextRun(repeat));
  }

  async removeSchedule(id: string): Promise<void> {
    clearTimeout(this.schedules.get(id)?.timer);
    this.schedules.delete(id);
  }

  private arm(schedule: Schedule, next: Date): void {
    if (this.closed || this.schedules.get(schedule.id) !== schedule) return;
    schedule.next = next;
    const wait = next.getTime() - Date.now();
    schedule.timer = setTimeout(
      () => {
        if (Date.now() < next.getTime()) return this.arm(schedule, next);
        this.track(this.execute(schedule.definition, schedule.data), schedule.definition.queue);
        this.arm(schedule, nextRun(schedule.repeat, new Date(Math.max(Date.now(), next.getTime()))));
      },
      Math.min(Math.max(0, wait), MAX_TIMER_MS),
    );
    schedule.timer.unref();
  }

  async enqueue(name: string, data: Record<string, unknown> = {}, options: { delayMs?: number; jobId?: string } = {}) {
    const definition = this.definitionOf(name);
    const id = options.jobId ?? randomUUID();
    if (this.pendingIds.has(id)) return id;
    this.pendingIds.add(id);
    this.track(
      (async () => {
        try {
          if (options.delayMs && !(await this.wait(options.delayMs))) return;
          await this.execute(definition, data);
        } finally {
          this.pendingIds.delete(id);
        }
      })(),
      definition.queue,
    );
    return id;
  }

  private track(work: Promise<void>, queue: QueueName): void {
    this.running.set(work, queue);
    void work.finally(() => this.running.delete(work));
  }

  private async execute(definition: JobDefinition, data: Record<string, unknown>): Promise<void> {
    const attempts = definition.attempts ?? DEFAULT_ATTEMPTS;
    for (let attempt = 1; attempt <= attempts && !this.closed; attempt++) {
      try {
        await this.inPlace(definition.queue, () => definition.run(data, this.services()));
        return;
      } catch (error) {
        const permanent = error instanceof DomainError || error instanceof UnrecoverableError || attempt === attempts;
        this.log.error({ err: error, job: definition.name, attempt }, permanent ? 'job failed' : 'job failed; retrying');
        if (permanent) return;
        if (!(await this.wait(BACKOFF_BASE_MS * 2 ** (attempt - 1)))) return;
      }
    }
  }

  /** Runs one attempt of a job of `queue` once fewer than JOB_CONCURRENCY others of that queue run. */
  private async inPlace<T>(queue: QueueName, attempt: () => Promise<T>): Promise<T> {
    let place = this.places.get(queue);
    if (!place) this.places.set(queue, (place = { busy: 0, waiting: [] }));
    if (place.busy >= JOB_CONCURRENCY) await new Promise<void>((go) => place.waiting.push(go));
    place.busy += 1;
    try {
      return await attempt();
    } finally {
      place.busy -= 1;
      place.waiting.shift()?.();
    }
  }

  /** Waits `ms`; false at once when the runner closes meanwhile (the job then stops, as it did after a full wait). */
  private async wait(ms: number): Promise<boolean> {
    try {
      await sleep(ms, undefined, { signal: this.closing.signal });
      return true;
    } catch {
      return false;
    }
  }

  async pending(queue: QueueName): Promise<number> {
    return [...this.running.values()].filter((held) => held === queue).length;
  }

  async workerCount(): Promise<number> {
    return this.started && !this.closed ? 1 : 0;
  }

  async status() {
    return {
      running: this.started && !this.closed,
      workers: await this.workerCount(),
      jobs: [...this.schedules.values()].map(({ id, definition, data, next }) => ({
        id,
        name: definition.describe?.(data) ?? definition.description,
        next_run_time: next?.toISOString() ?? null,
      })),
    };
  }

  async close(): Promise<void> {
    this.closed = true;
    this.closing.abort();
    for (const { timer } of this.schedules.values()) clearTimeout(timer);
    await Promise.allSettled([...this.running.keys()]);
  }
}
