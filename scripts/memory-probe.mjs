// Preloaded by `npm run bench:start` (node --import): answers "memory" on the IPC channel with process.memoryUsage(),
// so the benchmark can tell the V8 heap from the rest (PGlite's WebAssembly memory is counted in `external`), and
// "memory-after-gc" with the same after a full garbage collection (what is live, not what awaits collection).
import v8 from 'node:v8';
import vm from 'node:vm';

process.channel?.unref();
process.on('message', (message) => {
  if (message === 'memory') process.send?.(process.memoryUsage());
  if (message === 'memory-after-gc') {
    v8.setFlagsFromString('--expose-gc');
    vm.runInNewContext('gc')();
    process.send?.(process.memoryUsage());
  }
});
