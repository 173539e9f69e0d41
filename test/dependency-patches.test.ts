import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { applyPatch, DEPENDENCY_PATCHES } from '../scripts/dependency-patches.mjs';

const require = createRequire(import.meta.url);
const dependency = (path: string) => fileURLToPath(new URL(`../node_modules/${path}`, import.meta.url));
const installed = {
  prisma: [dependency('@prisma/client/runtime/client.js'), dependency('@prisma/client/runtime/client.mjs')],
  pothos: [dependency('@pothos/core/lib/utils/context-cache.js'), dependency('@pothos/core/esm/utils/context-cache.js')],
};

const patchFor = (path: string) => DEPENDENCY_PATCHES.find((patch) => patch.file.test(path));

/** The patched CommonJS build of Pothos' context cache, loaded on its own. */
async function patchedPothosCache() {
  const [path] = installed.pothos;
  const source = applyPatch(patchFor(path)!, await readFile(path, 'utf8'), path);
  const module = { exports: {} as Record<string, unknown> };
  new Function('exports', 'module', 'require', source)(module.exports, module, require);
  return module.exports as {
    createContextCache<T>(create: (context: object) => T): ((context: object) => T) & { delete(context: object): void };
    initContextCache(): object;
  };
}

describe('the dependency patches of the build', () => {
  it('each applies to the installed files, its every text found exactly once', async () => {
    for (const path of [...installed.prisma, ...installed.pothos]) {
      const patch = patchFor(path);
      expect(patch, path).toBeDefined();
      const source = await readFile(path, 'utf8');
      const patched = applyPatch(patch!, source, path);
      for (const [from, to] of patch!.replacements) {
        expect(patched.includes(from), `${path} still holds ${from}`).toBe(false);
        expect(patched.includes(to)).toBe(true);
      }
    }
  });

  it('refuses text that is not there, or there twice', () => {
    const [patch] = DEPENDENCY_PATCHES;
    expect(() => applyPatch(patch, 'nothing to patch', 'file.js')).toThrow(/found it 0 times/);
    const twice = patch.replacements[0][0].repeat(2);
    expect(() => applyPatch(patch, twice, 'file.js')).toThrow(/found it 2 times/);
  });

  it("patched, Pothos' context cache keeps one entry per request, forgets it on delete, and keeps WeakMaps for other keys", async () => {
    const { createContextCache, initContextCache } = await patchedPothosCache();
    let made = 0;
    const cache = createContextCache(() => ({ serial: ++made }));
    const first = { ...initContextCache() };
    const second = { ...initContextCache() };
    expect(cache(first)).toBe(cache(first));
    expect(cache(second)).not.toBe(cache(first));
    expect(Object.keys(first)).toEqual([]);
    cache.delete(first);
    expect(cache(first).serial).toBe(3);

    const plain = {};
    expect(cache(plain)).toBe(cache(plain));
    const frozenKey = { ...initContextCache() };
    Object.freeze(Object.getOwnPropertySymbols(frozenKey).map((symbol) => (frozenKey as Record<symbol, object>)[symbol])[0]);
    expect(cache(frozenKey)).toBe(cache(frozenKey));
    cache.delete(frozenKey);
    expect(cache(frozenKey).serial).toBe(6);
  });
});
