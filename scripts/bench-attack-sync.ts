/**
 * Times the ATT&CK catalog sync on PostgreSQL: a scratch database (migrated, dropped afterwards) syncs
 * ATT&CK 17.1, then 18.1, then 18.1 again, and the timings (with the longest the event loop waited meanwhile)
 * and reports are printed.
 *
 *   npx tsx scripts/bench-attack-sync.ts [directory | bundle.json ...]
 *
 * A directory must hold enterprise-attack-17.1.trimmed.json and enterprise-attack-18.1.json (default
 * $REFERENCE_DATA_DIR/attack, else /work/shared/data/attack); bundle paths or URLs given instead are synced in
 * the order given.
 * The server is BENCH_POSTGRES_URL, else TEST_POSTGRES_URL, else postgresql://postgres@127.0.0.1:5432/postgres.
 */
import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { SYSTEM_ACTOR } from '../src/db/unit-of-work.ts';
import { importAttackEnterprise } from '../src/modules/catalog/importer.ts';
import { withScratchServices } from './scratch-services.ts';
const DEFAULT_DIRECTORY = join(process.env.REFERENCE_DATA_DIR ?? '/work/shared/data', 'attack');

async function locations(args: string[]): Promise<string[]> {
  const [first = DEFAULT_DIRECTORY] = args;
  const isDirectory = await stat(first).then(
    (info) => info.isDirectory(),
    () => false,
  );
  if (args.length > 1 || !isDirectory) return args;
  const older = join(first, 'enterprise-attack-17.1.trimmed.json');
  const newer = join(first, 'enterprise-attack-18.1.json');
  return [older, newer, newer];
}

const brief = (changes: Record<string, Record<string, unknown>>) =>
  Object.fromEntries(
    Object.entries(changes).map(([kind, values]) => [
      kind,
      Object.fromEntries(
        Object.entries(values).map(([key, value]) => [key, Array.isArray(value) && value.length > 20 ? `${value.length} ids` : value]),
      ),
    ]),
  );

async function main(): Promise<void> {
  const runs = await locations(process.argv.slice(2));
  await withScratchServices(async (services) => {
    for (const [index, location] of runs.entries()) {
      // How long the sync kept the event loop from everything else (the API runs jobs itself without Redis).
      const loop = monitorEventLoopDelay({ resolution: 5 });
      loop.enable();
      const started = performance.now();
      const report = await importAttackEnterprise({ services, location, actor: SYSTEM_ACTOR, log: services.log });
      const seconds = (performance.now() - started) / 1000;
      loop.disable();
      const delay = (nanoseconds: number) => `${(nanoseconds / 1e6).toFixed(0)} ms`;
      console.log(
        `\n#${index + 1} ${location}: ${seconds.toFixed(2)} s; event loop delay max ${delay(loop.max)}, p99 ${delay(loop.percentile(99))}`,
      );
      console.log(JSON.stringify({ counts: report.counts, changes: brief(report.changes) }, null, 2));
    }
  });
}

// Exit explicitly: the WebAssembly schema engine leaves a timer behind that would hold the process open.
main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
