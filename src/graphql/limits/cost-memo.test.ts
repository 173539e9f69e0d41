import { randomUUID } from 'node:crypto';
import { parse } from 'graphql';
import { describe, expect, it, vi } from 'vitest';
import { schema } from '../schema.ts';
import { createCostMemo } from './cost-memo.ts';
import { operationCost } from './rules.ts';

vi.mock('./rules.ts', async (original) => {
  const rules = await original<typeof import('./rules.ts')>();
  return { ...rules, operationCost: vi.fn(rules.operationCost) };
});

const DOCUMENT = parse(`
  query Page($limit: Int, $filter: TestFilter, $withTests: Boolean!, $techniques: Int) {
    tests(limit: $limit, filter: $filter) { total items { id name } }
    campaigns(limit: $techniques) @include(if: $withTests) { items { id } }
  }
  query Other($limit: Int) { users(limit: $limit) { items { id username } } }
`);

describe('the cost memo', () => {
  it('answers what a fresh cost computation answers, whichever variables change', () => {
    const memo = createCostMemo(schema);
    const cases = [
      { operationName: 'Page', variables: { limit: 10, withTests: false } },
      { operationName: 'Page', variables: { limit: 10, withTests: false, filter: { platform: 'windows' } } },
      { operationName: 'Page', variables: { limit: 10, withTests: false, filter: { platform: 'w'.repeat(10_000) } } },
      { operationName: 'Page', variables: { limit: 10, withTests: true, techniques: 5, filter: { platform: 'linux' } } },
      { operationName: 'Page', variables: { limit: 200, withTests: false } },
      { operationName: 'Page', variables: { limit: 10, withTests: true, techniques: 5 } },
      { operationName: 'Page', variables: { limit: 10, withTests: true, techniques: 100 } },
      { operationName: 'Page', variables: { withTests: true } },
      { operationName: 'Page', variables: { limit: null, withTests: true } },
      { operationName: 'Other', variables: { limit: 3 } },
      { operationName: 'Other', variables: { limit: 100 } },
    ];
    for (const input of [...cases, ...cases]) {
      expect(memo(DOCUMENT, input), JSON.stringify(input)).toBe(operationCost(schema, DOCUMENT, input));
    }
  });

  it('does not keep an unknown cost: variables that do not coerce are costed again', () => {
    const memo = createCostMemo(schema);
    expect(memo(DOCUMENT, { operationName: 'Other', variables: { limit: 'many' } })).toBeNull();
    expect(memo(DOCUMENT, { operationName: 'Page', variables: { limit: 10, withTests: 'yes' } })).toBeNull();
    expect(memo(DOCUMENT, { operationName: 'Page', variables: { limit: 10, withTests: false } })).toBe(
      operationCost(schema, DOCUMENT, { operationName: 'Page', variables: { limit: 10, withTests: false } }),
    );
  });

  it('costs a document once whatever its ids, and once per page size', () => {
    const memo = createCostMemo(schema);
    const detail = parse(`query ($id: UUID!) { test(id: $id) { id name technique { ttpId } evidences { id } } }`);
    const list = parse(`query ($limit: Int) { tests(limit: $limit) { items { id } } }`);
    vi.mocked(operationCost).mockClear();
    const costs = new Set(Array.from({ length: 50 }, () => memo(detail, { variables: { id: randomUUID() } })));
    expect(costs.size).toBe(1);
    expect(operationCost).toHaveBeenCalledTimes(1);
    for (const limit of [10, 20, 10, 20, 10]) memo(list, { variables: { limit } });
    expect(operationCost).toHaveBeenCalledTimes(3);
  });
});
