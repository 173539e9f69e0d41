/**
 * A job failure that retrying cannot fix. The in-process runner stops on it; BullMQ recognises it by its name, so
 * code that fails a job need not load BullMQ (only processes with Redis do).
 */
export class UnrecoverableError extends Error {
  override name = 'UnrecoverableError';
}
