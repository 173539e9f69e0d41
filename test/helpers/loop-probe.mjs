// Preloaded into a service process by tests (NODE_OPTIONS=--import …): measures the process's own event-loop delay.
// SIGUSR2 prints the delay since the previous signal on stderr as one line `loop-probe {"p99":…,"max":…}` (ms) and
// starts a new measurement.
import { monitorEventLoopDelay } from 'node:perf_hooks';

const delay = monitorEventLoopDelay({ resolution: 10 });
delay.enable();
process.on('SIGUSR2', () => {
  process.stderr.write(`loop-probe ${JSON.stringify({ p99: delay.percentile(99) / 1e6, max: delay.max / 1e6 })}\n`);
  delay.reset();
});
