import { startWorker } from './worker.ts';

/** `tsx workers/main.ts`: the worker from its sources. The build bundles workers/worker.ts and runs it the same way. */
await startWorker();
