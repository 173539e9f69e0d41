import type { Logger } from './logger.ts';

const GRACE_MS = 10_000;

/** Runs `close` once on SIGTERM or SIGINT, then exits; forces the exit if closing hangs. */
export function onShutdown(log: Logger, close: () => Promise<void>): void {
  let closing = false;
  const stop = (signal: string) => {
    if (closing) return;
    closing = true;
    log.info({ signal }, 'shutting down');
    setTimeout(() => {
      log.error('shutdown took too long; exiting');
      process.exit(1);
    }, GRACE_MS).unref();
    close().then(
      () => process.exit(0),
      (error) => {
        log.error({ err: error }, 'error during shutdown');
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
}
