import { describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config.ts';
import { graphqlLimitsOf } from '../src/graphql/limits/rules.ts';
import { schema } from '../src/graphql/schema.ts';
import { restNamingOf } from './aliases.ts';
import { prepareOperation } from './handler.ts';
import { routes } from './routes.ts';
import { isCustom } from './types.ts';

// The service prepares a route's documents at the route's first request; this is where a route table that does not
// fit the schema or the default limits is caught, before anything is shipped.
const limits = graphqlLimitsOf(loadConfig({}));

describe('the route table', () => {
  const rows = routes.flatMap((route) =>
    (isCustom(route) ? (route.documents ?? []) : [route.document]).map((source) => ({ route, source })),
  );

  it('has documents to check', () => {
    expect(rows.length).toBeGreaterThan(200);
  });

  it.each(rows.map(({ route, source }, index) => [`${route.method} ${route.path} #${index}`, route, source] as const))(
    '%s: its document is valid, one root field, within the default limits, with the variables the row maps',
    (label, route, source) => {
      const operation = prepareOperation(schema, source, label, limits, restNamingOf(route));
      if (!isCustom(route)) expect([...operation.variableTypes.keys()]).toEqual(expect.arrayContaining(Object.keys(route.variables ?? {})));
    },
  );
});
