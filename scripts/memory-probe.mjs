// Preloaded by `npm run bench:start` (node --import): answers "memory" on the IPC channel with process.memoryUsage(),
// so the benchmark can tell the V8 heap from the rest (PGlite's WebAssembly memory is counted in `external`).
process.channel?.unref();
process.on('message', (message) => {
  if (message === 'memory') process.send?.(process.memoryUsage());
});
