import { createHash as nodeHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { applyPatch, DEPENDENCY_PATCHES, patchesFor, patchSource } from '../scripts/dependency-patches.mjs';
import { dependency, loadPatched, patchedGraphql } from './helpers/patched-dependencies.ts';

const require = createRequire(import.meta.url);
const installed = {
  prisma: [dependency('@prisma/client/runtime/client.js'), dependency('@prisma/client/runtime/client.mjs')],
  pothos: [dependency('@pothos/core/lib/utils/context-cache.js'), dependency('@pothos/core/esm/utils/context-cache.js')],
  graphql: [dependency('graphql/execution/values.js'), dependency('graphql/execution/execute.js')],
  apollo: [dependency('@apollo/utils.createhash/dist/index.js')],
};

/** The patched CommonJS build of Pothos' context cache, loaded on its own. */
function patchedPothosCache() {
  return loadPatched(installed.pothos[0], dependency('@pothos/core/')) as unknown as {
    createContextCache<T>(create: (context: object) => T): ((context: object) => T) & { delete(context: object): void };
    initContextCache(): object;
  };
}

describe('the dependency patches of the build', () => {
  it('each applies to the installed files, its every text found exactly once', async () => {
    const paths = Object.values(installed).flat();
    for (const patch of DEPENDENCY_PATCHES)
      expect(
        paths.some((path) => patch.file.test(path)),
        patch.name,
      ).toBe(true);
    for (const path of paths) {
      expect(patchesFor(path).length, path).toBeGreaterThan(0);
      const patched = patchSource(await readFile(path, 'utf8'), path);
      for (const [from, to] of patchesFor(path).flatMap((patch) => patch.replacements)) {
        if (!to.includes(from)) expect(patched.includes(from), `${path} still holds ${from}`).toBe(false);
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
    const { createContextCache, initContextCache } = patchedPothosCache();
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

  it('patched, graphql-js answers as published, in ordinary objects however wide, an alias __proto__ included', async () => {
    const patched = patchedGraphql();
    const published = require('graphql') as typeof import('graphql');
    expect(patched.execute).not.toBe(published.execute);
    const sdl = `
      type Row { name: String, tags: [String!]!, greeting(to: String = "you"): String, next: Row }
      type Query { rows: [Row!]!, row(slow: Boolean): Row }`;
    const argumentsSeen: object[] = [];
    const row = (name: string): Record<string, unknown> => ({
      name: (args: object) => {
        argumentsSeen.push(args);
        return name;
      },
      tags: ['a', 'b'],
      greeting: ({ to }: { to: string }) => `hello ${to}`,
      next: () => Promise.resolve(name === 'one' ? row('two') : null),
    });
    const rootValue = {
      rows: () => [row('one'), row('two')],
      row: ({ slow }: { slow?: boolean }) => (slow ? Promise.resolve(row('late')) : row('now')),
    };
    const documents = [
      '{ rows { name tags greeting hi: greeting(to: "all") __proto__: name next { name __proto__: tags } } }',
      '{ row(slow: true) { name } now: row { greeting(to: "x") } }',
      '{ row { name(ignored: 1) } }',
      '{ rows { name greeting(to: 3) } }',
    ];
    for (const source of documents) {
      const answers = await Promise.all(
        [patched, published].map(async (graphql) => {
          const schema = graphql.buildSchema(sdl);
          return (await graphql.execute({ schema, document: graphql.parse(source), rootValue })) as { data?: unknown };
        }),
      );
      expect(JSON.stringify(answers[0]), source).toBe(JSON.stringify(answers[1]));
    }
    const answer = (await patched.execute({
      schema: patched.buildSchema(sdl),
      document: patched.parse('{ rows { name __proto__: name } }'),
      rootValue,
    })) as { data: { rows: object[] } };
    expect(Object.getPrototypeOf(answer.data.rows[0])).toBe(Object.prototype);
    expect(Object.keys(answer.data.rows[0])).toEqual(['name', '__proto__']);
    const wide = Array.from({ length: 17 }, (_, n) => `f${n}: name`).join(' ');
    const wideAnswer = (await patched.execute({
      schema: patched.buildSchema(sdl),
      document: patched.parse(`{ rows { ${wide} } }`),
      rootValue,
    })) as { data: { rows: object[] } };
    expect(Object.getPrototypeOf(wideAnswer.data.rows[0])).toBe(Object.prototype);
    expect(Object.keys(wideAnswer.data.rows[0])).toEqual(Array.from({ length: 17 }, (_, n) => `f${n}`));
    expect(argumentsSeen.length).toBeGreaterThan(0);
    expect(argumentsSeen.every((args) => Object.keys(args).length === 0)).toBe(true);
  });

  it("patched, Apollo's document hash is Node's SHA-256, even where module.require is missing (in the bundle)", () => {
    const path = installed.apollo[0];
    const { createHash } = loadPatched(path, dependency('@apollo/utils.createhash/')) as {
      createHash(kind: string): { update(text: string): { digest(encoding: 'hex'): string } };
    };
    const document = '{ test(id: "00000000-0000-0000-0000-000000000000") { id name } }';
    expect(createHash('sha256').update(document).digest('hex')).toBe(nodeHash('sha256').update(document).digest('hex'));
    expect(patchSource(readFileSync(path, 'utf8'), path)).not.toContain('sha.js');
  });
});
