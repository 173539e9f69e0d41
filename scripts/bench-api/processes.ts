import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { readdir, readFile } from 'node:fs/promises';
import { SourceMap } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { API_ENTRY, freePort, waitFor } from '../../test/helpers/service-process.ts';

/** A server process of the benchmark. */
export interface Server {
  name: string;
  child: ChildProcess;
  base: URL;
  /** Spawn to the first 200 from the health check. */
  startMs: number;
  output(): string;
}

const children = new Set<ChildProcess>();

/** Kills every server still running (on any exit of the benchmark, an error or Ctrl-C included). */
export function killAll(): void {
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
}

/** The raw baseline as one JavaScript file next to the build (its packages stay external: node_modules resolves them). */
export async function bundleBaseline(): Promise<string> {
  const outfile = 'dist/bench-api/raw-baseline.js';
  await build({
    entryPoints: ['scripts/bench-api/raw-baseline.ts'],
    outfile,
    bundle: true,
    packages: 'external',
    platform: 'node',
    format: 'esm',
    target: 'node20',
    logLevel: 'warning',
  });
  return outfile;
}

/** Spawns `node [nodeArgs] script` on a free port and resolves once /api/v1/system/health answers 200. */
export async function startServer(name: string, script: string, env: NodeJS.ProcessEnv, nodeArgs: readonly string[] = []): Promise<Server> {
  const port = await freePort();
  const base = new URL(`http://127.0.0.1:${port}`);
  const began = performance.now();
  const child = spawn(process.execPath, [...nodeArgs, script], {
    env: { ...env, PORT: String(port), HOST: '127.0.0.1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.add(child);
  let output = '';
  const keep = (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-8_000);
  };
  child.stdout!.on('data', keep);
  child.stderr!.on('data', keep);
  const server: Server = { name, child, base, startMs: 0, output: () => output };
  try {
    await waitFor(
      `${name} to answer its health check`,
      Date.now() + 120_000,
      async () => {
        if (child.exitCode !== null) throw new Error(`${name} exited with ${child.exitCode}`);
        return (await fetch(new URL('/api/v1/system/health', base))).status === 200 || undefined;
      },
      5,
    );
  } catch (error) {
    child.kill('SIGKILL');
    throw new Error(`${(error as Error).message}\n--- output of ${name} ---\n${output}`);
  }
  server.startMs = performance.now() - began;
  return server;
}

/** SIGTERM, then SIGKILL after 15 s. */
export async function stopServer(server: Server): Promise<void> {
  const { child } = server;
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = once(child, 'exit');
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
  await exited;
  clearTimeout(timer);
  children.delete(child);
}

export const violetEntry = API_ENTRY;

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number };
  children?: number[];
}

/**
 * The frames and the packages with the most self time in the .cpuprofile files of `directory`, as lines of text, counting only samples
 * taken from `fromUs` on (CLOCK_MONOTONIC in µs, as `process.hrtime` and V8's profiler read it).
 */
export async function topSelfFrames(directory: string, fromUs: number, count = 20): Promise<{ frames: string[]; packages: string[] }> {
  const files = (await readdir(directory)).filter((file) => file.endsWith('.cpuprofile'));
  const selfUs = new Map<string, number>();
  const packageUs = new Map<string, number>();
  let totalUs = 0;
  for (const file of files) {
    const profile = JSON.parse(await readFile(join(directory, file), 'utf8')) as {
      nodes: ProfileNode[];
      startTime: number;
      samples: number[];
      timeDeltas: number[];
    };
    const nodes = new Map(profile.nodes.map((node) => [node.id, node]));
    const origins = await sourceMaps(profile.nodes);
    let at = profile.startTime;
    profile.samples.forEach((id, index) => {
      at += profile.timeDeltas[index] ?? 0;
      if (at < fromUs) return;
      const frame = nodes.get(id)!.callFrame;
      const { functionName, url, lineNumber } = origins.map(frame);
      const where = url.replace(/^file:\/\/.*?\/(node_modules|dist)\//, '$1/').replace(/^node:/, 'node:');
      const key = `${functionName || '(anonymous)'} ${where ? `${where}:${lineNumber + 1}` : ''}`.trim();
      const delta = Math.max(0, profile.timeDeltas[index] ?? 0);
      selfUs.set(key, (selfUs.get(key) ?? 0) + delta);
      const owner = packageOf(url, functionName);
      packageUs.set(owner, (packageUs.get(owner) ?? 0) + delta);
      totalUs += delta;
    });
  }
  const top = (totals: Map<string, number>) =>
    [...totals]
      .sort(([, a], [, b]) => b - a)
      .slice(0, count)
      .map(([key, us]) => `${((100 * us) / totalUs).toFixed(1).padStart(5)} %  ${key}`);
  return { frames: top(selfUs), packages: top(packageUs) };
}

/**
 * Frames of the bundles (dist/server/*.cjs) mapped back to their sources with the build's source maps, so that a
 * profile names the package or the file of Violet a frame comes from.
 */
async function sourceMaps(nodes: ProfileNode[]): Promise<{ map(frame: ProfileNode['callFrame']): ProfileNode['callFrame'] }> {
  const maps = new Map<string, SourceMap | null>();
  for (const url of new Set(nodes.map((node) => node.callFrame.url))) {
    if (!url.endsWith('.cjs') || maps.has(url)) continue;
    const payload = await readFile(`${fileURLToPath(url.startsWith('file:') ? url : pathToFileURL(url))}.map`, 'utf8').catch(() => null);
    maps.set(url, payload ? new SourceMap(JSON.parse(payload)) : null);
  }
  return {
    map(frame) {
      const entry = maps.get(frame.url)?.findEntry(frame.lineNumber, frame.columnNumber);
      if (!entry || !('originalSource' in entry)) return frame;
      const source = entry.originalSource.replace(/^(\.\.\/)+/, '');
      return { ...frame, url: `file:///${source.startsWith('node_modules/') ? '' : 'dist/'}${source}`, lineNumber: entry.originalLine };
    },
  };
}

/** Who a frame belongs to: a package of node_modules, Violet's own code (dist/), Node's internals, or V8 itself. */
function packageOf(url: string, functionName: string): string {
  const match = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (match) return match[1];
  if (url.includes('/dist/')) return 'Violet (dist/)';
  if (url.startsWith('node:')) return 'node: internals';
  return url ? url : functionName.startsWith('(') ? functionName : `native: ${functionName}`;
}
