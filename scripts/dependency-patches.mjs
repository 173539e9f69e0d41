/**
 * Changes the build makes to two dependencies' code as it bundles them, each for the same reason: V8's
 * young-generation collector kept every request's objects alive into the old generation (docs/benchmark.md, "Where
 * the slow requests' time went"). Each change keeps the code's behaviour and is applied to exact text: when a
 * dependency's update changes that text, the build fails and the change is looked at again
 * (test/dependency-patches.test.ts checks the installed files without building).
 *
 * Only the bundles get them; the tests that run the sources run the dependencies as published, and the tests that run
 * the built service (the browser tests, test/built-server.test.ts) run them patched.
 */
import { readFile } from 'node:fs/promises';

export const DEPENDENCY_PATCHES = [
  {
    name: 'Prisma query interpreter: scopes copied, not chained by prototype',
    file: /[\\/]@prisma[\\/]client[\\/]runtime[\\/]client\.m?js$/,
    why:
      "A `let` of Prisma's query plans made each new scope an object whose prototype is the enclosing scope. A young " +
      'object that becomes a prototype is kept by V8 until a full collection, with the query results it holds. A copy of ' +
      'the enclosing scope reads the same values: scopes are only read by name, and bindings are added to the new one.',
    replacements: [
      ['case"let":{let n=Object.create(r.scope);', 'case"let":{let n={};for(let k in r.scope)n[k]=r.scope[k];'],
      ['case"let":{let i=Object.create(r);', 'case"let":{let i={};for(let k in r)i[k]=r[k];'],
    ],
  },
  {
    name: "Pothos per-request caches: kept on the request's cache key, not in WeakMaps",
    file: /[\\/]@pothos[\\/]core[\\/](esm|lib)[\\/]utils[\\/]context-cache\.js$/,
    why:
      "Pothos keeps each request's caches (loaders, loaded rows, authorisation results) in long-lived WeakMaps keyed by the " +
      "request's cache key. V8's young-generation collector keeps such a WeakMap's values alive, so they were all moved to " +
      "the old generation. Kept as a property of the cache key (the object `initContextCache()` gives each request's " +
      'context, src/graphql/request-context.ts), they go with the request. Other keys keep the WeakMap.',
    replacements: [
      [
        `    const cache = new WeakMap();
    const getOrCreate = (context, ...args)=>{
        const cacheKey = context[contextCacheSymbol] || context;
        if (cache.has(cacheKey)) {
            return cache.get(cacheKey);
        }
        const entry = create(context, ...args);
        cache.set(cacheKey, entry);
        return entry;
    };
    getOrCreate.delete = (context)=>{
        const cacheKey = context[contextCacheSymbol] || context;
        cache.delete(cacheKey);
    };`,
        `    const cache = new WeakMap();
    const slot = Symbol('Pothos.contextCache.entry');
    const keyOf = (context)=>context[contextCacheSymbol] || context;
    const onKey = (context, cacheKey)=>cacheKey !== context && typeof cacheKey === 'object' && Object.isExtensible(cacheKey);
    const getOrCreate = (context, ...args)=>{
        const cacheKey = keyOf(context);
        if (onKey(context, cacheKey)) {
            if (Object.hasOwn(cacheKey, slot)) {
                return cacheKey[slot];
            }
            const entry = create(context, ...args);
            cacheKey[slot] = entry;
            return entry;
        }
        if (cache.has(cacheKey)) {
            return cache.get(cacheKey);
        }
        const entry = create(context, ...args);
        cache.set(cacheKey, entry);
        return entry;
    };
    getOrCreate.delete = (context)=>{
        const cacheKey = keyOf(context);
        if (onKey(context, cacheKey)) delete cacheKey[slot];
        else cache.delete(cacheKey);
    };`,
      ],
    ],
  },
];

/** The source with a patch's replacements made; throws unless each one's text occurs exactly once. */
export function applyPatch(patch, source, path) {
  let patched = source;
  for (const [from, to] of patch.replacements) {
    const count = patched.split(from).length - 1;
    if (count !== 1) throw new Error(`${patch.name}: expected the text once in ${path}, found it ${count} times`);
    patched = patched.replace(from, () => to);
  }
  return patched;
}

/** An esbuild plugin making the patches; the build fails if one of them found no file to apply to. */
export function patchDependencies() {
  return {
    name: 'dependency-patches',
    setup(build) {
      const applied = new Set();
      for (const patch of DEPENDENCY_PATCHES) {
        build.onLoad({ filter: patch.file }, async (args) => {
          const source = await readFile(args.path, 'utf8');
          applied.add(patch);
          return { contents: applyPatch(patch, source, args.path), loader: 'js' };
        });
      }
      build.onEnd((result) => {
        const missing = DEPENDENCY_PATCHES.filter((patch) => !applied.has(patch));
        if (!result.errors.length && missing.length) {
          return { errors: missing.map((patch) => ({ text: `dependency patch not applied (no such file bundled): ${patch.name}` })) };
        }
      });
    },
  };
}
