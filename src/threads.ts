import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { Worker, type WorkerOptions } from 'node:worker_threads';
import { BUILT, THREAD_CODE } from './paths.ts';

export type ThreadName = keyof typeof THREAD_CODE;

/** Starts a worker thread running the code `name` (src/paths.ts), from the build or from the sources alike. */
export function startThread(name: ThreadName, options: Omit<WorkerOptions, 'eval'> = {}): Worker {
  const file = THREAD_CODE[name];
  const boot = BUILT ? `require(${JSON.stringify(file)})` : bootThroughTsx(file);
  return new Worker(boot, { ...options, eval: true });
}

/** From the sources a thread loads TypeScript as the API does (tsx), whether the API runs under tsx or a test runner. */
function bootThroughTsx(file: string): string {
  const tsxPackage = createRequire(import.meta.url).resolve('tsx/package.json');
  // tsx's ESM entry (its `import` export): a test runner's module loader cannot resolve it through `import.meta`.
  const tsxApi = new URL('dist/esm/api/index.mjs', pathToFileURL(tsxPackage)).href;
  return `import(${JSON.stringify(tsxApi)}).then(({ register }) => { register(); return import(${JSON.stringify(pathToFileURL(file).href)}); })`;
}
