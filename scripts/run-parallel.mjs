// `node scripts/run-parallel.mjs <script>…`: runs the named npm scripts side by side (their pre- and post-scripts
// skipped: the caller runs what they share first) and prints each one's output in one piece once it ends, in the
// order given. Fails when any of them fails. `npm test` runs its static checks so: they are single-threaded, and
// two cores do them in the time of the longest.
import { spawn } from 'node:child_process';

const scripts = process.argv.slice(2);
if (scripts.length === 0) {
  process.stderr.write('usage: node scripts/run-parallel.mjs <npm script>…\n');
  process.exit(2);
}

function run(script) {
  const started = performance.now();
  return new Promise((resolve) => {
    const child = spawn('npm', ['run', '--silent', '--ignore-scripts', script], { stdio: ['ignore', 'pipe', 'pipe'] });
    const output = [];
    child.stdout.on('data', (chunk) => output.push(chunk));
    child.stderr.on('data', (chunk) => output.push(chunk));
    child.on('error', (error) => output.push(Buffer.from(`${error.message}\n`)));
    child.on('close', (code, signal) =>
      resolve({ script, ok: code === 0, status: signal ?? code, seconds: (performance.now() - started) / 1000, output }),
    );
  });
}

const results = scripts.map(run);
let failed = 0;
for (const result of results) {
  const { script, ok, status, seconds, output } = await result;
  process.stdout.write(`> ${script} (${seconds.toFixed(1)} s)\n`);
  process.stdout.write(Buffer.concat(output));
  if (!ok) {
    failed += 1;
    process.stdout.write(`> ${script} failed (${status})\n`);
  }
}
process.exit(failed ? 1 : 0);
