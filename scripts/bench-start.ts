/**
 * Start-up and memory of the built service (`node dist/src/main.js`, what `npm start` runs), on PostgreSQL and on
 * the embedded PGlite: time from spawning node to the first 200 from /api/v1/system/health, resident memory once
 * idle, and the peak under the load tests' request mix. Builds dist/ first when it is stale.
 *
 *   npm run bench:start                          # 3 restarts per engine, 20 s of load with 50 clients
 *   npm run bench:start -- --runs=5 --seconds=30 --clients=100 --only=postgresql
 *   npm run bench:start -- --node-args="--max-semi-space-size=8"   # node options to try (before the entry point)
 *   npm run bench:start -- --settle=0            # skip the second idle reading (after V8's memory reducer has run)
 *
 * Environment: TEST_POSTGRES_URL (server, default postgresql://postgres@127.0.0.1:5432/postgres); a scratch database
 * and data directories are created and removed.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { ADMIN_PASSWORD, API_ENTRY, freePort, waitFor } from '../test/helpers/service-process.ts';
import { runMixedLoad } from './mixed-load.ts';
import { SERVICE_NODE_FLAGS } from './service-flags.mjs';

const { values: options } = parseArgs({
  options: {
    runs: { type: 'string', default: '3' },
    seconds: { type: 'string', default: '20' },
    clients: { type: 'string', default: '50' },
    idle: { type: 'string', default: '5' },
    settle: { type: 'string', default: '60' },
    only: { type: 'string' },
    'node-args': { type: 'string', default: '' },
  },
});
const SERVER = process.env.TEST_POSTGRES_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres';
const MiB = 1024 * 1024;

interface Started {
  child: ChildProcess;
  base: string;
  ms: number;
  /** CPU time the process used until then (user and system): the figure a busy machine distorts least. */
  cpuMs: number;
}

/** utime + stime of a process, in milliseconds (clock ticks of 10 ms). */
async function cpuTime(pid: number): Promise<number> {
  const fields = (await readFile(`/proc/${pid}/stat`, 'utf8')).split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

/**
 * CPU time of each thread of a process (by thread id, in milliseconds): the API's main thread is the one whose id
 * is the process id; on the embedded default the busiest other one is the database's.
 */
async function threadCpuTimes(pid: number): Promise<Map<string, number>> {
  const times = new Map<string, number>();
  for (const tid of await readdir(`/proc/${pid}/task`)) {
    const stat = await readFile(`/proc/${pid}/task/${tid}/stat`, 'utf8').catch(() => undefined);
    if (!stat) continue; // the thread ended
    const fields = stat.split(') ')[1].split(' ');
    times.set(tid, (Number(fields[11]) + Number(fields[12])) * 10);
  }
  return times;
}

/** The main thread's share of the wall time and the busiest other thread's, between two readings. */
function threadShares(pid: number, before: Map<string, number>, after: Map<string, number>, wallMs: number): string {
  const used = [...after].map(([tid, ms]) => [tid, ms - (before.get(tid) ?? 0)] as const);
  const main = used.find(([tid]) => tid === String(pid))?.[1] ?? 0;
  const other = Math.max(0, ...used.filter(([tid]) => tid !== String(pid)).map(([, ms]) => ms));
  const share = (ms: number) => `${((100 * ms) / wallMs).toFixed(0)} %`;
  return `main thread busy ${share(main)}, busiest other thread ${share(other)}`;
}

async function start(env: Record<string, string>): Promise<Started> {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const childEnv: NodeJS.ProcessEnv = { ...process.env, NODE_ENV: 'production', HOST: '127.0.0.1', PORT: String(port), LOG_LEVEL: 'info' };
  for (const name of ['DATABASE_URL', 'REDIS_URL']) delete childEnv[name];
  Object.assign(
    childEnv,
    { ADMIN_PASSWORD, JWT_SECRET: 'bench-start secret, at least 32 characters', SOURCE_SYNC_SCHEDULES: 'false' },
    env,
  );
  const began = performance.now();
  const nodeArgs = [...SERVICE_NODE_FLAGS, ...options['node-args']!.split(' ').filter(Boolean)];
  const child = spawn(process.execPath, [...nodeArgs, '--import', './scripts/memory-probe.mjs', API_ENTRY], {
    env: childEnv,
    stdio: ['ignore', 'pipe', 'inherit', 'ipc'],
  });
  let output = '';
  child.stdout!.on('data', (chunk) => (output += chunk));
  await waitFor(
    'the health check',
    Date.now() + 120_000,
    async () => {
      if (child.exitCode !== null) throw new Error(`the service exited with ${child.exitCode}`);
      return (await fetch(`${base}/api/v1/system/health`)).status === 200 || undefined;
    },
    5,
  );
  const ms = performance.now() - began;
  const cpuMs = await cpuTime(child.pid!);
  // The API answers before its job runner has started; it announces itself once everything runs.
  await waitFor('the announcement', Date.now() + 120_000, async () => output.includes('Violet listening') || undefined, 20);
  child.stdout!.removeAllListeners('data').resume();
  return { child, base, ms, cpuMs };
}

async function stop({ child }: Started): Promise<void> {
  const exited = once(child, 'exit');
  child.kill('SIGTERM');
  await exited;
}

/** VmRSS (now) and VmHWM (peak since start) of a process, in bytes. */
async function residentMemory(pid: number): Promise<{ rss: number; peak: number }> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  const kB = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? Number.NaN) * 1024;
  return { rss: kB('VmRSS'), peak: kB('VmHWM') };
}

function memoryUsage(child: ChildProcess, afterGc = false): Promise<NodeJS.MemoryUsage> {
  return new Promise((resolve) => {
    child.once('message', (usage) => resolve(usage as NodeJS.MemoryUsage));
    child.send(afterGc ? 'memory-after-gc' : 'memory');
  });
}

const mib = (bytes: number) => `${(bytes / MiB).toFixed(0)} MiB`;
const seconds = (ms: number) => `${(ms / 1000).toFixed(2)} s`;

async function login(base: string): Promise<string> {
  const response = await fetch(`${base}/api/v1/auth/login`, {
    method: 'POST',
    body: new URLSearchParams({ username: 'admin', password: ADMIN_PASSWORD }),
  });
  return ((await response.json()) as { access_token: string }).access_token;
}

async function measure(engine: string, env: Record<string, string>): Promise<void> {
  const first = await start(env);
  console.log(`${engine}: first start (creates the schema) healthy after ${seconds(first.ms)} (CPU ${seconds(first.cpuMs)})`);
  await stop(first);
  const times: number[] = [];
  const cpu: number[] = [];
  let last: Started | undefined;
  for (let run = 0; run < Number(options.runs); run++) {
    if (last) await stop(last);
    last = await start(env);
    times.push(last.ms);
    cpu.push(last.cpuMs);
  }
  const median = (values: number[]) => seconds([...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]);
  console.log(
    `${engine}: restart healthy after ${times.map(seconds).join(', ')} (median ${median(times)}; CPU ${cpu.map(seconds).join(', ')}, median ${median(cpu)})`,
  );
  const service = last!;
  await new Promise((resolve) => setTimeout(resolve, Number(options.idle) * 1000));
  const idle = await residentMemory(service.child.pid!);
  const usage = await memoryUsage(service.child);
  console.log(
    `${engine}: idle RSS after ${options.idle} s ${mib(idle.rss)} (V8 heap ${mib(usage.heapTotal)}, of it used ${mib(usage.heapUsed)}; external ${mib(usage.external)}, of it ArrayBuffers ${mib(usage.arrayBuffers)})`,
  );
  // V8 shrinks the heap once allocation has stayed low for a while (its memory reducer): the steady idle figure.
  const settle = Number(options.settle) - Number(options.idle);
  if (settle > 0) {
    await new Promise((resolve) => setTimeout(resolve, settle * 1000));
    const settled = await residentMemory(service.child.pid!);
    const settledUsage = await memoryUsage(service.child);
    console.log(
      `${engine}: idle RSS after ${options.settle} s ${mib(settled.rss)} (V8 heap ${mib(settledUsage.heapTotal)}, of it used ${mib(settledUsage.heapUsed)}; external ${mib(settledUsage.external)})`,
    );
  }
  const token = await login(service.base);
  const cpuBefore = await cpuTime(service.child.pid!);
  const threadsBefore = await threadCpuTimes(service.child.pid!);
  const loadStarted = performance.now();
  const samples = await runMixedLoad(service.base, [token], Number(options.clients), Number(options.seconds), 1_000_000);
  const threads = threadShares(
    service.child.pid!,
    threadsBefore,
    await threadCpuTimes(service.child.pid!),
    performance.now() - loadStarted,
  );
  // CPU time per request: what a busy machine distorts least (the request count depends on the CPU left to the service).
  const cpuPerRequest = (await cpuTime(service.child.pid!)) - cpuBefore;
  const loaded = await residentMemory(service.child.pid!);
  const after = await memoryUsage(service.child);
  const live = await memoryUsage(service.child, true);
  const failed = samples.filter((sample) => sample.status === 0 || sample.status >= 500).length;
  console.log(
    `${engine}: ${samples.length} requests from ${options.clients} clients in ${options.seconds} s (${failed} failed; ${(cpuPerRequest / samples.length).toFixed(2)} ms CPU each; ${threads}): peak RSS ${mib(loaded.peak)}, after the load ${mib(loaded.rss)} (V8 heap ${mib(after.heapTotal)}, of it used ${mib(after.heapUsed)}, live after a full GC ${mib(live.heapUsed)})`,
  );
  await stop(service);
}

async function withScratchDatabase(work: (url: string) => Promise<void>): Promise<void> {
  const name = `violet_bench_start_${process.pid}`;
  const admin = async (sql: string) => {
    const client = new pg.Client(SERVER);
    await client.connect();
    await client.query(sql).finally(() => client.end());
  };
  await admin(`CREATE DATABASE ${name}`);
  const url = new URL(SERVER);
  url.pathname = `/${name}`;
  try {
    await work(url.toString());
  } finally {
    await admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  }
}

if (spawnSync(process.execPath, ['scripts/ensure-build.mjs'], { stdio: 'inherit' }).status !== 0) process.exit(1);
console.log(
  `node ${process.version}, ${cpus().length} cores, load average ${loadavg()
    .map((value) => value.toFixed(1))
    .join(' ')}`,
);
for (const engine of ['postgresql', 'pglite']) {
  if (options.only && options.only !== engine) continue;
  const dataDir = await mkdtemp(join(tmpdir(), 'violet-bench-start-'));
  try {
    if (engine === 'postgresql') await withScratchDatabase((url) => measure(engine, { DATABASE_URL: url, DATA_DIR: dataDir }));
    else await measure(engine, { DATA_DIR: dataDir });
  } finally {
    await rm(dataDir, { recursive: true, force: true });
  }
}
