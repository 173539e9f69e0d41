import { UnrecoverableError } from './errors.ts';
import { describe, expect, it } from 'vitest';
import { createLogger } from '../logger.ts';
import type { Services } from '../services.ts';
import { InProcessJobRunner } from './in-process.ts';
import { BACKOFF_BASE_MS, JOB_CONCURRENCY, QueueName, type JobDefinition } from './types.ts';

/** A runner of one job whose attempts fail with the given errors in turn, then succeed. */
function runnerOf(failures: Error[], attempts = 5) {
  const runs: number[] = [];
  const job: JobDefinition = {
    name: 'flaky',
    queue: QueueName.email,
    description: 'fails, then succeeds',
    attempts,
    async run() {
      runs.push(Date.now());
      const failure = failures.shift();
      if (failure) throw failure;
    },
  };
  const runner = new InProcessJobRunner(new Map([[job.name, job]]), () => ({}) as Services, createLogger('silent'));
  return { runner, runs };
}

describe('in-process job runner (embedded mode)', () => {
  it('runs at most JOB_CONCURRENCY jobs of a queue at once, the others in turn, and other queues beside them', async () => {
    let running = 0;
    let most = 0;
    const finishers: Array<() => void> = [];
    const held = (name: string, queue: QueueName): JobDefinition => ({
      name,
      queue,
      description: 'waits until released',
      run: () =>
        new Promise<void>((done) => {
          running += 1;
          most = Math.max(most, running);
          finishers.push(() => {
            running -= 1;
            done();
          });
        }),
    });
    const jobs = [held('burst', QueueName.webhooks), held('other', QueueName.email)];
    const runner = new InProcessJobRunner(new Map(jobs.map((job) => [job.name, job])), () => ({}) as Services, createLogger('silent'));
    for (let n = 0; n < 10; n++) await runner.enqueue('burst');
    await runner.enqueue('other');
    await expect.poll(() => running).toBe(JOB_CONCURRENCY + 1);
    expect(await runner.pending(QueueName.webhooks)).toBe(10);
    while (finishers.length) {
      finishers.shift()!();
      await new Promise((resolve) => setImmediate(resolve));
    }
    await expect.poll(() => runner.pending(QueueName.webhooks)).toBe(0);
    expect(most).toBe(JOB_CONCURRENCY + 1);
    await runner.close();
  });

  it('retries a failed job after the backoff', async () => {
    const { runner, runs } = runnerOf([new Error('connect ECONNREFUSED')]);
    await runner.enqueue('flaky');
    await expect.poll(() => runs.length, { timeout: BACKOFF_BASE_MS * 3 }).toBe(2);
    expect(runs[1] - runs[0]).toBeGreaterThanOrEqual(BACKOFF_BASE_MS - 50);
    expect(await runner.pending(QueueName.email)).toBe(0);
    await runner.close();
  });

  it('adds nothing for a job id that is still waiting or running, as BullMQ does', async () => {
    const { runner, runs } = runnerOf([]);
    await runner.enqueue('flaky', {}, { jobId: 'once', delayMs: 50 });
    await runner.enqueue('flaky', {}, { jobId: 'once', delayMs: 50 });
    await expect.poll(() => runner.pending(QueueName.email)).toBe(0);
    expect(runs).toHaveLength(1);
    await runner.enqueue('flaky', {}, { jobId: 'once' });
    await expect.poll(() => runs.length).toBe(2);
    await runner.close();
  });

  it('does not retry an unrecoverable failure', async () => {
    const { runner, runs } = runnerOf([new UnrecoverableError('550 No such user')]);
    await runner.enqueue('flaky');
    await expect.poll(() => runner.pending(QueueName.email)).toBe(0);
    expect(runs).toHaveLength(1);
    await runner.close();
  });

  it('closes at once while a job waits for its retry, without running it again', async () => {
    const { runner, runs } = runnerOf([new Error('timeout'), new Error('timeout')]);
    await runner.enqueue('flaky');
    await expect.poll(() => runs.length).toBe(1);
    const started = Date.now();
    await runner.close();
    expect(Date.now() - started).toBeLessThan(BACKOFF_BASE_MS / 2);
    expect(runs).toHaveLength(1);
  });
});
