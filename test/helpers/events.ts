import { QueueName } from '../../src/jobs/types.ts';
import type { TestApp } from './app.ts';

/** Polls `check` until it stops throwing (or `timeoutMs` passes, then its last error is thrown). */
export async function eventually<T>(check: () => Promise<T>, timeoutMs = 10_000, everyMs = 25): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      return await check();
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, everyMs));
    }
  }
}

/** Waits until every domain event committed so far has been handled by its consumers. */
export async function eventsSettled(app: TestApp): Promise<void> {
  await app.services.consumers.settled();
  await eventually(async () => {
    const pending = await app.services.jobs.pending(QueueName.events);
    if (pending) throw new Error(`${pending} event consumer jobs still pending`);
  });
}

/** Polls `probe` until it gives a value other than undefined (or `timeoutMs` passes, then throws). */
export async function until<T>(probe: () => Promise<T | undefined> | T | undefined, timeoutMs = 15_000, everyMs = 25): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`nothing came within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
}
