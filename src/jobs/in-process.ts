import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { CronExpressionParser } from 'cron-parser';
import { DomainError } from '../errors.ts';
import type { Logger } from '../logger.ts';
import type { Services } from '../services.ts';
import { BACKOFF_BASE_MS, DEFAULT_ATTEMPTS, type JobDefinition, type JobRunner, type Repeat } from './types.ts';

export function nextRun(repeat: Repeat, from = new Date()): Date {
  if ('every' in repeat) return new Date(from.getTime() + repeat.every);
  return CronExpressionParser.parse(repeat.pattern, { currentDate: from, tz: repeat.tz ?? 'UTC' }).next().toDate();
}

/** Runs jobs inside this process (embedded mode): same processors, timers instead of Redis. */
export class InProcessJobRunner implements JobRunner {
  readonly kind = 'in-process' as const;
  private readonly timers = new Map<string, { timer: NodeJS.Timeout; next: Date }>();
  private readonly running = new Set<Promise<void>>();
  private started = false;
  private closed = false;

  constructor(
    private readonly definitions: ReadonlyMap<string, JobDefinition>,
    private readonly services: () => Services,
    private readonly log: Logger,
  ) {}

  async start(): Promise<void> {
    this.started = true;
    for (const definition of this.definitions.values()) {
      if (definition.repeat) this.scheduleNext(definition, definition.repeat);
    }
  }

  private scheduleNext(definition: JobDefinition, repeat: Repeat): void {
    if (this.closed) return;
    const next = nextRun(repeat);
    const timer = setTimeout(() => {
      this.track(this.execute(definition, {}));
      this.scheduleNext(definition, repeat);
    }, Math.max(0, next.getTime() - Date.now()));
    timer.unref();
    this.timers.set(definition.name, { timer, next });
  }

  async enqueue(name: string, data: Record<string, unknown> = {}, options: { delayMs?: number; jobId?: string } = {}) {
    const definition = this.definitions.get(name);
    if (!definition) throw new Error(`Unknown job ${name}`);
    const id = options.jobId ?? randomUUID();
    this.track((async () => {
      if (options.delayMs) await sleep(options.delayMs);
      await this.execute(definition, data);
    })());
    return id;
  }

  private track(work: Promise<void>): void {
    this.running.add(work);
    void work.finally(() => this.running.delete(work));
  }

  private async execute(definition: JobDefinition, data: Record<string, unknown>): Promise<void> {
    const attempts = definition.attempts ?? DEFAULT_ATTEMPTS;
    for (let attempt = 1; attempt <= attempts && !this.closed; attempt++) {
      try {
        await definition.run(data, this.services());
        return;
      } catch (error) {
        const permanent = error instanceof DomainError || attempt === attempts;
        this.log.error({ err: error, job: definition.name, attempt }, permanent ? 'job failed' : 'job failed; retrying');
        if (permanent) return;
        await sleep(BACKOFF_BASE_MS * 2 ** (attempt - 1));
      }
    }
  }

  async status() {
    return {
      running: this.started && !this.closed,
      jobs: [...this.definitions.values()]
        .filter((definition) => definition.repeat)
        .map((definition) => ({
          id: definition.name,
          name: definition.description,
          next_run_time: this.timers.get(definition.name)?.next.toISOString() ?? null,
        })),
    };
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const { timer } of this.timers.values()) clearTimeout(timer);
    await Promise.allSettled([...this.running]);
  }
}
