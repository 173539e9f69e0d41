/**
 * Runs before `npm start` and `npm run worker` (and the test setup): builds only the parts (server, web app) that are
 * missing or were built from other sources than the checkout's. A second start costs one hash of the sources.
 */
import { spawnSync } from 'node:child_process';
import { ROOT, staleTargets, TARGETS } from './build-stamp.mjs';

for (const name of await staleTargets()) {
  process.stdout.write(`The ${name} build is missing or stale: building.\n`);
  const result = spawnSync('npm', ['run', '--silent', TARGETS[name].script], { cwd: ROOT, stdio: 'inherit' });
  if (result.status !== 0) {
    process.exitCode = result.status ?? 1;
    break;
  }
}
