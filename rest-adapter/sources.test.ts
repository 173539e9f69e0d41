import { parse } from 'graphql';
import { describe, expect, it } from 'vitest';
import { schema } from '../src/graphql/schema.ts';
import { CAMPAIGN_PAGE } from '../src/modules/campaigns/service.ts';
import { CAMPAIGN_TEST_PAGE } from '../src/modules/campaigns/types.ts';
import { prepareOperation } from './handler.ts';
import { pagingText } from './page-limits.ts';
import { routes } from './routes.ts';
import { documentedSourcesOf } from './sources.ts';
import { isCustom, type GraphqlRoute } from './types.ts';

const row = (label: string) => routes.find((route) => `${route.method} ${route.path}` === label) as GraphqlRoute;
const sourcesOfRow = (label: string) => {
  const route = row(label);
  return Object.fromEntries(documentedSourcesOf(route, prepareOperation(schema, route.document, label).variableTypes));
};

describe('variables found by name', () => {
  it('read an unmapped variable from the path by its snake_case name, else the query of a GET', () => {
    expect(sourcesOfRow('GET /campaigns/:id')).toEqual({
      id: { from: 'path', name: 'id' },
      testsOffset: { from: 'query', name: 'tests_offset' },
      testsLimit: { from: 'query', name: 'tests_limit' },
    });
  });

  it('read the body of other methods, and keep the exceptions a row states', () => {
    expect(sourcesOfRow('PATCH /techniques/:ttp_id/review')).toEqual({
      ttpId: { from: 'path', name: 'ttp_id' },
      reviewRequired: { from: 'body', name: 'review_required' },
    });
    expect(sourcesOfRow('DELETE /campaigns/:id/tests/:ctid')).toEqual({
      id: { from: 'path', name: 'id' },
      testId: { from: 'path', name: 'ctid' },
    });
  });

  it('leave no row mapping a variable to its own snake_case name', () => {
    const redundant = routes.flatMap((route) =>
      isCustom(route)
        ? []
        : Object.entries(route.variables ?? {})
            .filter(([variable, source]) => source.name === variable.replace(/[A-Z]/g, (char) => `_${char.toLowerCase()}`))
            .map(([variable]) => `${route.method} ${route.path}: ${variable}`),
    );
    expect(redundant).toEqual([]);
  });
});

describe('paging text from the page limits of the fields', () => {
  const text = (label: string) => {
    const route = row(label);
    const sources = sourcesOfRow(label);
    return pagingText(schema, parse(route.document), (variable) => sources[variable]?.name);
  };

  it('state the offset, the default and the maximum of each paged field, in the REST names', () => {
    expect(text('GET /campaigns')).toBe(`offset default 0, limit default ${CAMPAIGN_PAGE.defaultLimit}, max ${CAMPAIGN_PAGE.maxLimit}`);
    expect(text('GET /campaigns/:id')).toBe(
      `tests_offset default 0, tests_limit default ${CAMPAIGN_TEST_PAGE.defaultLimit}, max ${CAMPAIGN_TEST_PAGE.maxLimit}`,
    );
    expect(text('GET /campaigns/:id/progress')).toBeNull();
  });
});
