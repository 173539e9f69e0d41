/**
 * Times each knowledge source's sync on PostgreSQL and how long it kept the event loop waiting: a scratch database
 * (migrated, dropped afterwards) syncs ATT&CK 18.1, then each source given, in order, twice (a first import, then
 * an import that finds everything unchanged). Without Redis the API runs these jobs on its own event loop.
 *
 *   npx tsx scripts/bench-source-sync.ts [kind[=location] ...]
 *
 * Kinds: d3fend, nist_800_53, csa_ccm, atomic_red_team, sigma (default: all, each at its reference data under
 * $REFERENCE_DATA_DIR, else /work/shared/data). The server is BENCH_POSTGRES_URL, else TEST_POSTGRES_URL, else
 * postgresql://postgres@127.0.0.1:5432/postgres.
 */
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { SYSTEM_ACTOR } from '../src/db/unit-of-work.ts';
import type { DataSourceKind } from '../src/generated/prisma/enums.ts';
import { importers } from '../src/modules/data-sources/importers.ts';
import type { Services } from '../src/services.ts';
import { withScratchServices } from './scratch-services.ts';

const DATA = process.env.REFERENCE_DATA_DIR ?? '/work/shared/data';

const REFERENCE: Record<DataSourceKind, string> = {
  attack_enterprise: join(DATA, 'attack', 'enterprise-attack-18.1.json'),
  d3fend: join(DATA, 'd3fend'),
  nist_800_53: join(DATA, 'ctid', 'nist_800_53-rev5_attack-16.1-enterprise.json'),
  csa_ccm: join(DATA, 'ctid', 'csa_ccm-4.1_attack-17.1-enterprise.json'),
  atomic_red_team: join(DATA, 'atomic-red-team'),
  sigma: join(DATA, 'sigma', 'rules'),
};

function sources(args: string[]): [DataSourceKind, string][] {
  const kinds = args.length ? args : Object.keys(REFERENCE).filter((kind) => kind !== 'attack_enterprise');
  return kinds.map((arg) => {
    const [kind, location] = arg.split(/=(.*)/s) as [DataSourceKind, string | undefined];
    if (!(kind in REFERENCE)) throw new Error(`unknown kind ${kind}: one of ${Object.keys(REFERENCE).join(', ')}`);
    return [kind, location ?? REFERENCE[kind]];
  });
}

const ms = (nanoseconds: number) => `${(nanoseconds / 1e6).toFixed(0)} ms`;

/** One sync, timed, with the longest the event loop waited meanwhile. */
async function sync(services: Services, kind: DataSourceKind, location: string, label: string): Promise<void> {
  const loop = monitorEventLoopDelay({ resolution: 5 });
  loop.enable();
  const started = performance.now();
  const report = await importers[kind]({ services, location, actor: SYSTEM_ACTOR, log: services.log });
  const seconds = (performance.now() - started) / 1000;
  loop.disable();
  console.log(
    `${kind.padEnd(18)} ${label.padEnd(9)} ${seconds.toFixed(2)} s; event loop delay max ${ms(loop.max)}, p99 ${ms(loop.percentile(99))}; ${JSON.stringify(report.counts)}`,
  );
}

async function main(): Promise<void> {
  const runs = sources(process.argv.slice(2));
  await withScratchServices(async (services) => {
    await sync(services, 'attack_enterprise', REFERENCE.attack_enterprise, 'catalog');
    for (const [kind, location] of runs) {
      await sync(services, kind, location, 'first');
      await sync(services, kind, location, 'unchanged');
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
