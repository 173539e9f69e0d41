/**
 * `npm run build:server`: generates the Prisma client and Pothos types, compiles src/, rest-adapter/ and workers/
 * to dist/ (same layout, `.ts` imports rewritten to `.js`), copies the migrations the server applies at start, and
 * writes dist/server.stamp last: an interrupted build leaves no stamp, so the next start builds again.
 * Type errors do not stop it (`--noCheck`): `npm run typecheck` and `npm test` check types.
 */
import { spawnSync } from 'node:child_process';
import { cp, mkdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { DIST, ROOT, sourcesStamp, TARGETS } from './build-stamp.mjs';

const STAMP_FILE = TARGETS.server.stampFile;

const OUTPUTS = ['src', 'rest-adapter', 'workers', 'prisma'];

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
await Promise.all(OUTPUTS.map((output) => rm(join(DIST, output), { recursive: true, force: true })));
run('npm', ['run', '--silent', 'generate']);
run(process.execPath, [join(ROOT, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.build.json', '--noCheck']);
// src/db/migrate.ts reads them relative to its own file: dist/prisma/migrations from dist/src/db/.
await mkdir(join(DIST, 'prisma'), { recursive: true });
await cp(join(ROOT, 'prisma/migrations'), join(DIST, 'prisma/migrations'), { recursive: true });
// rest-adapter/uuid-fields.ts reads which columns are uuids for the OpenAPI document.
await cp(join(ROOT, 'prisma/schema.prisma'), join(DIST, 'prisma/schema.prisma'));
await writeFile(STAMP_FILE, `${stamp}\n`);
process.stdout.write(`build:server: dist/ built in ${((performance.now() - started) / 1000).toFixed(1)} s\n`);
