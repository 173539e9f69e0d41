import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Script } from 'node:vm';

/**
 * Loads the service's bundles (dist/server/<name>.cjs, written by `npm run build:server`) with V8's code cache.
 *
 * Node 20 keeps no compiled code between runs (`module.enableCompileCache` arrived in Node 22), and parsing and
 * compiling the bundle was a third of a start. The build evaluates each bundle once and stores what V8 compiled
 * beside it (<name>.cjs.cache); a start hands it back to V8, which checks that it belongs to this source, this V8
 * and these flags, and otherwise compiles as usual (slower, never wrong).
 */
const SERVER_DIR = dirname(fileURLToPath(import.meta.url));

const bundleFile = (name: string) => join(SERVER_DIR, `${name}.cjs`);
const cacheFile = (name: string) => `${bundleFile(name)}.cache`;

function readCache(name: string): Buffer | undefined {
  try {
    return readFileSync(cacheFile(name));
  } catch {
    return undefined;
  }
}

/** The build checks that bundles are ASCII: read as Latin-1, V8 keeps them one byte per character, decoded fast. */
function scriptOf(name: string, cachedData?: Buffer): Script {
  const filename = bundleFile(name);
  return new Script(`(function (exports, require, module, __filename, __dirname) {${readFileSync(filename, 'latin1')}\n})`, {
    filename,
    cachedData,
  });
}

function run(name: string, script: Script): unknown {
  const filename = bundleFile(name);
  const module = { exports: {} as unknown };
  const wrapper = script.runInThisContext() as (...args: unknown[]) => void;
  wrapper.call(module.exports, module.exports, createRequire(filename), module, filename, dirname(filename));
  return module.exports;
}

/** Evaluates the bundle `name` and returns its exports. */
export function loadBundle<T>(name: string): T {
  return run(name, scriptOf(name, readCache(name))) as T;
}

/** What a bundle may export for its code cache: loads the modules it otherwise loads only once it starts. */
interface Warmable {
  warmUp?: () => Promise<unknown>;
}

/** At build time: evaluates the bundle `name` (and its `warmUp`) and stores the code V8 compiled for it as its cache. */
export async function writeCodeCache(name: string): Promise<number> {
  const script = scriptOf(name);
  await (run(name, script) as Warmable).warmUp?.();
  const data = script.createCachedData();
  const file = cacheFile(name);
  writeFileSync(`${file}.tmp`, data);
  renameSync(`${file}.tmp`, file);
  return data.length;
}

/** Whether V8 takes the stored cache of `name` in this process (the build test checks it does). */
export function codeCacheAccepted(name: string): boolean {
  const cachedData = readCache(name);
  return cachedData !== undefined && !scriptOf(name, cachedData).cachedDataRejected;
}
