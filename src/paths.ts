import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Whether this code runs from the build: `npm run build:server` bundles the service into dist/server/*.cjs, where
 * `import.meta.url` is the bundle's own URL; from the sources (tsx, Vitest) it is this `.ts` file's.
 */
export const BUILT = import.meta.url.endsWith('.cjs');

/** The checkout, or the container image's /app: dist/server/ is two levels below it, src/ one. */
export const ROOT = fileURLToPath(new URL(BUILT ? '../../' : '../', import.meta.url));

/** The build copies what the service reads at run time into dist/ (the image holds dist/, not prisma/). */
const SERVED = BUILT ? join(ROOT, 'dist') : ROOT;

export const PRISMA_SCHEMA = join(SERVED, 'prisma', 'schema.prisma');
export const MIGRATIONS_DIR = join(SERVED, 'prisma', 'migrations');
/** Where `npm run build:web` writes the web app. */
export const WEB_DIST = join(ROOT, 'web', 'dist');
/** Code that runs in a worker thread (src/threads.ts): its bundle once built, its source (loaded through tsx) before. */
export const THREAD_CODE = {
  'sso-worker': BUILT ? join(ROOT, 'dist', 'server', 'sso-worker.cjs') : join(ROOT, 'src', 'modules', 'sso', 'verify-worker.ts'),
  'pdf-worker': BUILT ? join(ROOT, 'dist', 'server', 'pdf-worker.cjs') : join(ROOT, 'src', 'modules', 'reports', 'pdf', 'render-worker.ts'),
  'catalog-worker': BUILT ? join(ROOT, 'dist', 'server', 'catalog-worker.cjs') : join(ROOT, 'src', 'modules', 'catalog', 'parse-worker.ts'),
  'pglite-worker': BUILT ? join(ROOT, 'dist', 'server', 'pglite-worker.cjs') : join(ROOT, 'src', 'db', 'embedded-worker.ts'),
};
