import { loadConfig } from '../src/config.ts';
import { createLogger } from '../src/logger.ts';
import { createServices } from '../src/composition.ts';
import { onShutdown } from '../src/shutdown.ts';
import { wiring } from './wiring.ts';
import { boundHeapGrowth } from '../src/memory.ts';

/** `npm run worker`: works the BullMQ queues (needs REDIS_URL); the API only enqueues and schedules. */
export async function startWorker(): Promise<void> {
  boundHeapGrowth();
  const config = loadConfig();
  const log = createLogger(config.LOG_LEVEL);
  if (!config.REDIS_URL) {
    log.fatal('The worker process needs REDIS_URL; without it the API runs jobs in-process');
    process.exit(1);
  }
  const services = await createServices(config, log, 'worker', wiring);
  // Before anything announces the worker: until a listener exists, SIGTERM ends the process without closing it.
  onShutdown(log, () => services.close());
  await services.jobs.start();
  services.outbox.start();
  log.info('worker started');
}
