import { once } from 'node:events';
import { loadConfig, type Config } from './config.ts';
import { createLogger } from './logger.ts';
import { bootstrapAdmin } from './modules/users/bootstrap.ts';
import { createServices } from './composition.ts';
import { onShutdown, shuttingDown } from './shutdown.ts';
import { wiring } from '../workers/wiring.ts';
import { boundHeapGrowth } from './memory.ts';

/** Loads the GraphQL schema and the HTTP app (the build calls it too, to store their compiled code: src/boot.ts). */
export const warmUp = () => import('./app.ts');

/** Runs the API: configuration, services, the first administrator, the HTTP server, jobs and the outbox. */
export async function startApi(): Promise<void> {
  boundHeapGrowth();
  let config: Config;
  try {
    config = loadConfig();
  } catch (error) {
    process.stderr.write(`${(error as Error).message}\n`);
    process.exit(1);
  }
  const log = createLogger(config.LOG_LEVEL);
  const starting = createServices(config, log, 'api', wiring).catch((error: unknown) => {
    // e.g. DATA_DIR held by another live process (src/db/data-dir-lock.ts): one clear line, no stack.
    log.fatal({ err: error }, `cannot start: ${(error as Error).message}`);
    process.exit(1);
  });
  // The GraphQL schema and the HTTP app are built while the database opens (its files, WebAssembly and round
  // trips leave the event loop idle): loaded only now, they do not wait for each other.
  const { createApp } = await warmUp();
  const services = await starting;
  const admin = await bootstrapAdmin(services);
  if (admin?.generatedPassword) {
    process.stdout.write(
      `\n  First start: administrator account created.\n    username: ${admin.username}\n    password: ${admin.generatedPassword}\n` +
        '  This password is shown once; you must change it at first sign-in.\n\n',
    );
  }
  const app = await createApp(services);
  app.server.listen(config.PORT, config.HOST);
  await once(app.server, 'listening');
  // Before the jobs start and the address is announced: until a listener exists, SIGTERM ends the process unclosed.
  onShutdown(log, async () => {
    await app.close();
    await services.close();
  });
  try {
    if (config.RUN_WORKERS !== 'off') await services.jobs.start();
  } catch (error) {
    if (shuttingDown()) return; // stopped while the jobs were starting: their database is closed
    throw error;
  }
  services.outbox.start();
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : config.PORT;
  log.info({ port, database: services.db.engine, jobs: services.jobs.kind }, `Violet listening on http://localhost:${port}`);
}
