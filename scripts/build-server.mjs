/**
 * `npm run build:server`: generates the Prisma client and Pothos types, bundles the service with esbuild into
 * dist/server/ (one CommonJS bundle each for the API, the worker and the SAML verification worker, plus the loader
 * src/boot.ts), stores V8's code cache of each bundle beside it, writes the two entry points `npm start` and
 * `npm run worker` run (dist/src/main.js, dist/workers/main.js), copies the migrations and the Prisma schema the
 * service reads at run time, and writes dist/server.stamp last: an interrupted build leaves no stamp, so the next
 * start builds again. Types are not checked here: `npm run typecheck` and `npm test` do.
 *
 * Why a bundle: resolving, reading and compiling about 2,000 modules one by one was half of a start (docs/benchmark.md).
 */
import { spawnSync } from 'node:child_process';
import { cp, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { build } from 'esbuild';
import { DIST, ROOT, sourcesStamp, TARGETS } from './build-stamp.mjs';
import { patchDependencies } from './dependency-patches.mjs';
import { SERVICE_NODE_FLAGS } from './service-flags.mjs';

const STAMP_FILE = TARGETS.server.stampFile;
const SERVER = join(DIST, 'server');

/** Bundles and the export each entry point calls. */
const BUNDLES = {
  api: { source: 'src/server.ts', start: 'startApi', launcher: 'src/main.js' },
  worker: { source: 'workers/worker.ts', start: 'startWorker', launcher: 'workers/main.js' },
  // Worker threads (src/threads.ts).
  'sso-worker': { source: 'src/modules/sso/verify-worker.ts' },
  'pglite-worker': { source: 'src/db/embedded-worker.ts' },
  'pdf-worker': { source: 'src/modules/reports/pdf/render-worker.ts' },
  'catalog-worker': { source: 'src/modules/catalog/parse-worker.ts' },
};

/**
 * Left outside the bundles, loaded from node_modules at run time: native code, and packages that read their own
 * files (WebAssembly, fonts) relative to where they lie.
 */
const EXTERNAL = ['@electric-sql/pglite', '@node-rs/argon2', 'msgpackr-extract', 'pdfkit', 'pg-native'];

function run(command, args) {
  const result = spawnSync(command, args, { cwd: ROOT, stdio: 'inherit' });
  if (result.status !== 0) {
    process.stderr.write(`build:server: ${[command, ...args].join(' ')} failed\n`);
    process.exit(result.status ?? 1);
  }
}

const started = performance.now();
const stamp = await sourcesStamp(TARGETS.server);
await rm(STAMP_FILE, { force: true });
await rm(DIST, { recursive: true, force: true });
run('npm', ['run', '--silent', 'generate']);

const common = { absWorkingDir: ROOT, bundle: true, platform: 'node', target: 'node20', logLevel: 'warning', legalComments: 'none' };
await build({
  ...common,
  entryPoints: Object.fromEntries(Object.entries(BUNDLES).map(([name, { source }]) => [name, source])),
  outdir: SERVER,
  outExtension: { '.js': '.cjs' },
  format: 'cjs',
  // No comments, and every other non-ASCII character escaped: V8 then keeps the bundle's source as one byte per
  // character (UTF-8 comments made it two: 36 MiB of heap instead of 14). Names stay, so stack traces read.
  minifyWhitespace: true,
  charset: 'ascii',
  // Beside the bundle, not referenced from it: for tools that map positions back to the sources (the CPU profiles of
  // `npm run bench:api -- --profile`); Node applies no source map to code loaded with its cache.
  sourcemap: 'external',
  // import() becomes require(): V8's code cache drops what a vm script needs for import() on Node 20.
  supported: { 'dynamic-import': false },
  external: EXTERNAL,
  // Code that finds files relative to itself (src/paths.ts) sees the bundle's location.
  banner: { js: "const __bundleUrl = require('node:url').pathToFileURL(__filename).href;" },
  define: { 'import.meta.url': '__bundleUrl' },
  // Two changes to dependencies' code that keep requests' objects out of the old generation (the module says why).
  plugins: [patchDependencies()],
});
await build({ ...common, entryPoints: { boot: 'src/boot.ts' }, outdir: SERVER, format: 'esm', packages: 'external' });
const launched = Object.entries(BUNDLES).filter(([, { launcher }]) => launcher);
for (const name of Object.keys(BUNDLES)) {
  const offset = (await readFile(join(SERVER, `${name}.cjs`))).findIndex((byte) => byte > 0x7f);
  if (offset >= 0) throw new Error(`build:server: ${name}.cjs is not ASCII at offset ${offset} (src/boot.ts reads it as Latin-1)`);
}
for (const [name, { start, launcher }] of launched) {
  await mkdir(join(DIST, launcher, '..'), { recursive: true });
  await writeFile(
    join(DIST, launcher),
    `// Written by npm run build:server: runs the ${name} bundle with its code cache (src/boot.ts).\n` +
      `import { loadBundle } from '../server/boot.js';\n\nloadBundle(${JSON.stringify(name)}).${start}();\n`,
  );
  // Evaluated in a child process: the bundle's modules may leave timers or handles behind.
  // Under the service's node options: V8 takes a code cache only in a process with the flags that made it.
  run(process.execPath, [
    ...SERVICE_NODE_FLAGS,
    '--input-type=module',
    '-e',
    `const { writeCodeCache } = await import(${JSON.stringify(join(SERVER, 'boot.js'))}); await writeCodeCache(${JSON.stringify(name)}); process.exit(0);`,
  ]);
}
// src/paths.ts: the built service reads these under dist/ (the container image holds dist/, not prisma/).
await cp(join(ROOT, 'prisma/migrations'), join(DIST, 'prisma/migrations'), { recursive: true });
await cp(join(ROOT, 'prisma/schema.prisma'), join(DIST, 'prisma/schema.prisma'));
await writeFile(STAMP_FILE, `${stamp}\n`);
process.stdout.write(`build:server: dist/ built in ${((performance.now() - started) / 1000).toFixed(1)} s\n`);
