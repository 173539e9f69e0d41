import v8 from 'node:v8';

/**
 * How much V8 lets its old generation grow past what the last full collection kept, in percent (V8's default grows
 * it by up to 4x under load). Measured with `npm run bench:start` (docs/benchmark.md): at 20 the API's peak under
 * the mixed load falls from about 490 MiB to 270 MiB for the same throughput, and a large catalog sync still gets
 * all the heap it needs (this is a growth rate, not a ceiling).
 */
export const HEAP_GROWING_PERCENT = 20;

/** Applies HEAP_GROWING_PERCENT to this process; V8 reads it at every collection, so setting it at start suffices. */
export function boundHeapGrowth(): void {
  v8.setFlagsFromString(`--heap-growing-percent=${HEAP_GROWING_PERCENT}`);
}
