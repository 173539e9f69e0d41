/**
 * Changes the build makes to dependencies' code as it bundles them. Each keeps the code's behaviour and is applied to
 * exact text: when a dependency's update changes that text, the build fails and the change is looked at again
 * (test/dependency-patches.test.ts checks the installed files without building, and runs the patched code). Two kinds:
 * - V8's young-generation collector kept every request's objects alive into the old generation (docs/benchmark.md,
 *   "Where the slow requests' time went"): Prisma's query scopes and Pothos' per-request caches.
 * - graphql-js allocated more than it needed per field of every row it executes (docs/benchmark.md, the REST and
 *   GraphQL results): a map of the arguments of fields that take none, and each row's result as a dictionary-mode
 *   object.
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
    name: 'Prisma results: not walked when no extension computes fields',
    file: /[\\/]@prisma[\\/]client[\\/]runtime[\\/]client\.m?js$/,
    why:
      'Once a client has any extension (src/db/client.ts adds a query extension), Prisma walks every result, row by row ' +
      "and for each key of its `select`, searching the model's fields for relations, to apply computed fields; only a " +
      '`result` extension defines any. With none in the chain the walk hands every object back unchanged: it is skipped.',
    replacements: [
      [
        'extensions:n,runtimeDataModel:i,globalOmit:o}){return n.isEmpty()||e==null||',
        'extensions:n,runtimeDataModel:i,globalOmit:o}){return n.isEmpty()||!(h=>{for(;h;h=h.previous)if(h.extension.result)return!0;return!1})(n.head)||e==null||',
      ],
    ],
  },
  {
    name: "Apollo's document hash: Node's crypto, not a JavaScript SHA-256",
    file: /[\\/]@apollo[\\/]utils\.createhash[\\/]dist[\\/]index\.js$/,
    why:
      "Apollo hashes each GraphQL request's document to find it among those already parsed and validated. It asks for " +
      "Node's crypto through `module.require`, which a bundled module does not have, and otherwise hashes in JavaScript " +
      "with sha.js, several times slower. The bundle runs only on Node: it always takes Node's crypto.",
    replacements: [
      [
        `    if (utils_isnodelike_1.isNodeLike && module.require) {
        return module.require("crypto").createHash(kind);
    }
    return require("sha.js")(kind);`,
        '    return require("node:crypto").createHash(kind);',
      ],
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
  {
    name: 'graphql-js arguments: no argument map for a field that takes none',
    file: /[\\/]graphql[\\/]execution[\\/]values\.js$/,
    why:
      'graphql-js builds, for every field of every row, a map of the arguments written in the document before coercing ' +
      "the field's declared ones. A field that declares none gets its empty arguments object without it (validation has " +
      'already refused arguments a field does not declare).',
    replacements: [
      [
        `function getArgumentValues(def, node, variableValues) {
  var _node$arguments;
`,
        `function getArgumentValues(def, node, variableValues) {
  var _node$arguments;

  if (def.args.length === 0) {
    return Object.create(null);
  }
`,
      ],
    ],
  },
  {
    name: 'graphql-js leaves: completed by their resolver when it can, without a resolve info',
    file: /[\\/]graphql[\\/]execution[\\/]execute\.js$/,
    why:
      'For every leaf of every row graphql-js builds a resolve info (an object of ten fields), an arguments object and ' +
      'a chain of calls to complete a value that is, for most fields, a property of the parent passed through its ' +
      "scalar's `serialize`. A resolver that can complete such a value itself carries `leafValue` (the execution " +
      'guard gives it to the leaves read from their parent, src/graphql/limits/execution.ts); graphql-js asks it first ' +
      'below the root and takes its usual path whenever it answers undefined, which no completed value is.',
    replacements: [
      [
        `      : exeContext.fieldResolver;
  const info = buildResolveInfo(`,
        `      : exeContext.fieldResolver;

  if (resolveFn.leafValue !== undefined && path.prev !== undefined) {
    const completed = resolveFn.leafValue(source, exeContext.contextValue, path.key);

    if (completed !== undefined) {
      return completed;
    }
  }

  const info = buildResolveInfo(`,
      ],
    ],
  },
  {
    name: "graphql-js results: each object's fields in an ordinary object",
    file: /[\\/]graphql[\\/]execution[\\/]execute\.js$/,
    why:
      'graphql-js collects the fields of each object it executes in `Object.create(null)`, which V8 makes a dictionary: ' +
      'slower to fill, larger, and on the slow path of JSON.stringify. An ordinary object holds the same own properties ' +
      'in the same order; a response key `__proto__` (an alias) is defined as an own property, as the dictionary had it. ' +
      'V8 turns an ordinary object filled by computed keys into a dictionary past about 20 properties, unless the ' +
      'shapes it goes through exist already: an object of more than 16 fields is therefore first built once per ' +
      'selection (its `fields`, collected once per operation) with `Object.defineProperty`, which V8 keeps fast up to ' +
      'more than a hundred properties; the rows after it follow the same shapes and stay fast objects.',
    replacements: [
      [
        `function executeFields(exeContext, parentType, sourceValue, path, fields) {
  const results = Object.create(null);`,
        `const shapesOfFields = new WeakMap();

function shapeOfFields(fields) {
  const shape = {};

  for (const responseName of fields.keys()) {
    Object.defineProperty(shape, responseName, {
      value: null,
      writable: true,
      enumerable: true,
      configurable: true,
    });
  }

  return shape;
}

function executeFields(exeContext, parentType, sourceValue, path, fields) {
  if (fields.size > 16 && !shapesOfFields.has(fields)) {
    shapesOfFields.set(fields, shapeOfFields(fields));
  }

  const results = {};`,
      ],
      [
        `      if (result !== undefined) {
        results[responseName] = result;

        if ((0, _isPromise.isPromise)(result)) {
          containsPromise = true;
        }`,
        `      if (result !== undefined) {
        if (responseName === '__proto__') {
          Object.defineProperty(results, responseName, {
            value: result,
            writable: true,
            enumerable: true,
            configurable: true,
          });
        } else {
          results[responseName] = result;
        }

        if ((0, _isPromise.isPromise)(result)) {
          containsPromise = true;
        }`,
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

/** The patches for the file at `path`, in their order. */
export const patchesFor = (path) => DEPENDENCY_PATCHES.filter((patch) => patch.file.test(path));

/** The source with every patch for its file made (`applyPatch`). */
export const patchSource = (source, path) => patchesFor(path).reduce((patched, patch) => applyPatch(patch, patched, path), source);

/** An esbuild plugin making the patches; the build fails if one of them found no file to apply to. */
export function patchDependencies() {
  return {
    name: 'dependency-patches',
    setup(build) {
      const applied = new Set();
      // esbuild takes the first onLoad whose filter matches a file: one for all, applying each patch of the file.
      const filter = new RegExp(DEPENDENCY_PATCHES.map((patch) => patch.file.source).join('|'));
      build.onLoad({ filter }, async (args) => {
        const patches = patchesFor(args.path);
        if (!patches.length) return undefined;
        for (const patch of patches) applied.add(patch);
        return { contents: patchSource(await readFile(args.path, 'utf8'), args.path), loader: 'js' };
      });
      build.onEnd((result) => {
        const missing = DEPENDENCY_PATCHES.filter((patch) => !applied.has(patch));
        if (!result.errors.length && missing.length) {
          return { errors: missing.map((patch) => ({ text: `dependency patch not applied (no such file bundled): ${patch.name}` })) };
        }
      });
    },
  };
}
