import { UnrecoverableError } from './errors.ts';
import { describe, expect, it } from 'vitest';
import { createLogger } from '../logger.ts';
import type { Services } from '../services.ts';
import { InProcessJobRunner } from './in-process.ts';
import { BACKOFF_BASE_MS, QueueName, type JobDefinition } from './types.ts';

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
