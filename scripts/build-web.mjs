/**
 * `npm run build:web`: generates the typed GraphQL documents from schema.graphql and builds the web app into
 * web/dist/ with Vite, then writes web/dist/web.stamp last (see build-stamp.mjs).
 */
import { spawnSync } from 'node:child_process';
import { rm, writeFile } from 'node:fs/promises';
import { ROOT, sourcesStamp, TARGETS } from './build-stamp.mjs';

const started = performance.now();
const stamp = await sourcesStamp(TARGETS.web);
await rm(TARGETS.web.stampFile, { force: true });
// Always the production build (React's production bundle), also when a test run (NODE_ENV=test) asks for it.
const env = { ...process.env, NODE_ENV: 'production' };
const result = spawnSync('npm', ['run', '--silent', 'build', '-w', 'web'], { cwd: ROOT, stdio: 'inherit', env });
if (result.status !== 0) {
  process.stderr.write('build:web: the web app did not build\n');
  process.exit(result.status ?? 1);
}
await writeFile(TARGETS.web.stampFile, `${stamp}\n`);
process.stdout.write(`build:web: web/dist/ built in ${((performance.now() - started) / 1000).toFixed(1)} s\n`);
