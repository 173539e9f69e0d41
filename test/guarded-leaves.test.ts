import { describe, expect, it, vi } from 'vitest';

// graphql-js as the build bundles it, for this file and the modules it imports: the execution guard's leaf values are
// asked for by the patched engine only (scripts/dependency-patches.mjs).
vi.mock('graphql', async () => (await import('./helpers/patched-dependencies.ts')).patchedGraphql());

import { buildSchema, execute, parse, type GraphQLObjectType, type GraphQLSchema } from 'graphql';
import type { Context } from '../src/graphql/context.ts';
import { guardExecution, type GuardedResolver } from '../src/graphql/limits/execution.ts';

const SDL = `
  enum State { draft done }
  type Row { id: ID!, name: String, count: Int!, state: State, must: String!, method: String, resolved: String, next: Row }
  type Query { rows: [Row!]! }`;

/** The guarded schema, and how many times its resolvers were called (the usual path), by field. */
function guardedSchema(withLeafValues: boolean): { schema: GraphQLSchema; calls: Map<string, number> } {
  const schema = buildSchema(SDL);
  const row = schema.getType('Row') as GraphQLObjectType;
  row.getFields().resolved.resolve = (source: { name?: string }) => `${source.name}!`;
  guardExecution(schema);
  const calls = new Map<string, number>();
  for (const field of Object.values(row.getFields())) {
    const guarded = field.resolve as GuardedResolver;
    const counted: GuardedResolver = (...args) => {
      calls.set(field.name, (calls.get(field.name) ?? 0) + 1);
      return guarded(...args);
    };
    if (withLeafValues) counted.leafValue = guarded.leafValue;
    field.resolve = counted;
  }
  return { schema, calls };
}

const context = (maxAnswer = 1_000_000) =>
  ({ services: { config: { GRAPHQL_MAX_ANSWER: maxAnswer, GRAPHQL_DEADLINE: 5_000 } } }) as unknown as Context;

const rows = (count: number, change: (row: Record<string, unknown>, index: number) => void = () => undefined) =>
  Array.from({ length: count }, (_, index) => {
    const row: Record<string, unknown> = {
      id: index,
      name: `row ${index}`,
      count: index,
      state: index % 2 ? 'done' : 'draft',
      must: 'present',
      method: () => 'called',
      next: index === 0 ? { id: 'n', name: 'next', count: 1, must: 'also' } : null,
    };
    change(row, index);
    return row;
  });

async function bothWays(document: string, rootRows: Record<string, unknown>[], maxAnswer?: number) {
  const run = async (withLeafValues: boolean) => {
    const { schema, calls } = guardedSchema(withLeafValues);
    const result = await execute({ schema, document: parse(document), rootValue: { rows: rootRows }, contextValue: context(maxAnswer) });
    return {
      answer: JSON.parse(JSON.stringify(result)) as { data?: unknown; errors?: { message: string; extensions?: { code?: string } }[] },
      calls,
    };
  };
  const [leafValues, usual] = [await run(true), await run(false)];
  expect(leafValues.answer, document).toEqual(usual.answer);
  return { answer: usual.answer, leafCalls: leafValues.calls, usualCalls: usual.calls };
}

describe("the execution guard's leaf values, on graphql-js as bundled", () => {
  it('answer what the resolvers answer, without calling them, for leaves read from their parent below the root', async () => {
    const { answer, leafCalls, usualCalls } = await bothWays(
      '{ rows { id name count state must renamed: name next { name count } } }',
      rows(20),
    );
    expect((answer.data as { rows: unknown[] }).rows).toHaveLength(20);
    expect((answer.data as { rows: Record<string, unknown>[] }).rows[0]).toEqual({
      id: '0',
      name: 'row 0',
      count: 0,
      state: 'draft',
      must: 'present',
      renamed: 'row 0',
      next: { name: 'next', count: 1 },
    });
    // Only the field with a selection below it went the usual way; every leaf was completed by its leaf value.
    expect([...leafCalls.keys()]).toEqual(['next']);
    expect(usualCalls.get('name')).toBe(40 + 1);
  });

  it('leave to the usual path a method, a resolver of its own, a value the type refuses, a null where it forbids one and a property that throws', async () => {
    const own = await bothWays('{ rows { method resolved name } }', rows(4));
    expect((own.answer.data as { rows: unknown[] }).rows[3]).toEqual({ method: 'called', resolved: 'row 3!', name: 'row 3' });
    expect(Object.fromEntries(own.leafCalls)).toEqual({ method: 4, resolved: 4 });

    const refused = await bothWays(
      '{ rows { state } }',
      rows(4, (row, index) => {
        if (index === 1) row.state = 'unknown';
      }),
    );
    expect(refused.answer.errors?.map((error) => error.message)).toEqual(['Enum "State" cannot represent value: "unknown"']);
    expect((refused.answer.data as { rows: unknown[] }).rows).toEqual([
      { state: 'draft' },
      { state: null },
      { state: 'draft' },
      { state: 'done' },
    ]);
    expect(Object.fromEntries(refused.leafCalls)).toEqual({ state: 1 });

    const missing = await bothWays(
      '{ rows { must } }',
      rows(4, (row, index) => {
        if (index === 2) row.must = null;
      }),
    );
    expect(missing.answer.errors?.map((error) => error.message)).toEqual(['Cannot return null for non-nullable field Row.must.']);
    expect(missing.answer.data).toBeNull();
    expect(Object.fromEntries(missing.leafCalls)).toEqual({ must: 1 });

    const throwing = await bothWays(
      '{ rows { id name } }',
      rows(3, (row, index) => {
        if (index === 1)
          Object.defineProperty(row, 'name', {
            get() {
              throw new Error('unreadable');
            },
          });
      }),
    );
    expect(throwing.answer.errors).toEqual([{ message: 'unreadable', locations: [{ line: 1, column: 13 }], path: ['rows', 1, 'name'] }]);
    expect(Object.fromEntries(throwing.leafCalls)).toEqual({ name: 1 });
  });

  it("count each leaf's bytes against the answer's cap, and stop the operation where the usual path stops it", async () => {
    const long = rows(100, (row) => {
      row.name = 'x'.repeat(100);
    });
    const { answer } = await bothWays('{ rows { id name } }', long, 5_000);
    expect(answer.data).toBeNull();
    expect(answer.errors?.[0]?.message).toMatch(/^The answer would be larger than 5000 bytes/);
    const fits = await bothWays('{ rows { id name } }', long, 20_000);
    expect(fits.answer.errors).toBeUndefined();
  });
});
