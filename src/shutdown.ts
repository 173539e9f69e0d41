import type { Logger } from './logger.ts';

/** How long in-flight requests and jobs may take to finish once a stop is asked for. */
export const SHUTDOWN_GRACE_MS = 8_000;
/** The fail-safe: past this, the process exits 1 whatever is still open. */
const FORCE_EXIT_MS = SHUTDOWN_GRACE_MS + 2_000;

let closing = false;

/** Whether a stop was asked for: a start still under way when it comes gives up quietly instead of failing. */
export const shuttingDown = () => closing;

/**
 * Runs `close` once on SIGTERM or SIGINT, then exits 0; exits 1 when closing fails or hangs past the fail-safe.
 * This is the only termination handler of the process (Apollo's own is turned off), so the exit code is ours.
 */
export function onShutdown(log: Logger, close: () => Promise<void>): void {
  const stop = (signal: string) => {
    if (closing) return;
    closing = true;
    log.info({ signal }, 'shutting down');
    setTimeout(() => {
      log.error('shutdown took too long; exiting');
      process.exit(1);
    }, FORCE_EXIT_MS).unref();
    close().then(
      () => {
        log.info('shut down');
        process.exit(0);
      },
      (error) => {
        log.error({ err: error }, 'error during shutdown');
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
}
