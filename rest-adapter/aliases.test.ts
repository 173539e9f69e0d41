import { readFileSync } from 'node:fs';
import { Kind, parse, print, visit, type FieldNode, type OperationDefinitionNode } from 'graphql';
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from '../test/helpers/app.ts';
import { createTest, team, technique, type Team } from '../test/helpers/test-runs.ts';
import { schema } from '../src/graphql/schema.ts';
import { restFieldName, restNamingOf, withRestAliases } from './aliases.ts';
import { routes } from './routes.ts';
import { isCustom, type Route } from './types.ts';

const aliased = (source: string, aliasRoots = false) => print(withRestAliases(parse(source), { aliasRoots }));

/** Every document a row executes. */
const documentsOf = (route: Route) => (isCustom(route) ? (route.documents ?? []) : [route.document]);

function operationOf(source: string): OperationDefinitionNode {
  return parse(source).definitions.find(
    (definition): definition is OperationDefinitionNode => definition.kind === Kind.OPERATION_DEFINITION,
  )!;
}

describe('snake_case aliases added by the REST edge', () => {
  it('alias every camelCase field, nested and in fragments, and keep existing aliases and snake_case names', () => {
    expect(
      aliased(
        'query { test(id: "x") { id createdAt created_by: createdById technique { ttpId } ...F } } fragment F on Test { redSummary }',
      ),
    ).toBe(
      print(
        parse(
          'query { test(id: "x") { id created_at: createdAt created_by: createdById technique { ttp_id: ttpId } ...F } } fragment F on Test { red_summary: redSummary }',
        ),
      ),
    );
  });

  it('name a reference by its relation, without the _id', () => {
    expect(aliased('{ test(id: "x") { createdById assignedToId retestOfId techniqueId } }')).toBe(
      print(
        parse('{ test(id: "x") { created_by: createdById assigned_to: assignedToId retest_of: retestOfId technique_id: techniqueId } }'),
      ),
    );
  });

  it('leave root fields alone unless the answer is the whole data object', () => {
    expect(aliased('{ metricsSummary { totalTests } }')).toBe(print(parse('{ metricsSummary { total_tests: totalTests } }')));
    expect(aliased('{ metricsSummary { totalTests } }', true)).toBe(
      print(parse('{ metrics_summary: metricsSummary { total_tests: totalTests } }')),
    );
  });

  it('leave route rows only real renames: no row spells an alias the edge would add', () => {
    const mechanical: string[] = [];
    for (const route of routes.filter((candidate) => restNamingOf(candidate))) {
      for (const source of documentsOf(route)) {
        visit(parse(source), {
          Field(node: FieldNode) {
            if (node.alias?.value === restFieldName(node.name.value)) mechanical.push(`${route.method} ${route.path}: ${node.alias.value}`);
          },
        });
      }
    }
    expect(mechanical).toEqual([]);
  });
});

describe('every GraphQL row admits exactly the roles of its root field', () => {
  const rolesOf = (roles: unknown) => (Array.isArray(roles) ? [...roles].sort() : roles);
  const fieldRoles = (source: string) => {
    const operation = operationOf(source);
    const root = { query: schema.getQueryType(), mutation: schema.getMutationType(), subscription: schema.getSubscriptionType() }[
      operation.operation
    ]!;
    const field = root.getFields()[(operation.selectionSet.selections[0] as FieldNode).name.value];
    const scopes = (field.extensions as { pothosOptions?: { authScopes?: { access?: { roles?: unknown } } } }).pothosOptions?.authScopes;
    return rolesOf(scopes?.access?.roles);
  };

  it.each(routes.filter((route) => documentsOf(route).length).map((route) => [`${route.method} ${route.path}`, route] as const))(
    '%s',
    (_label, route) => {
      const field = fieldRoles(documentsOf(route)[0]);
      expect(field, 'the root field has a role rule').toBeDefined();
      if (!route.narrowsFieldAccess) {
        expect(rolesOf(route.roles)).toEqual(field);
        return;
      }
      // A narrower row: a strict subset of what the field admits, never more.
      const admitted =
        field === 'signed-in' || field === 'public' ? ['admin', 'blue_lead', 'blue_tech', 'red_lead', 'red_tech', 'viewer'] : field;
      expect(Array.isArray(route.roles) && route.roles.every((role) => (admitted as string[]).includes(role))).toBe(true);
    },
  );
});

/**
 * The same answers as before the aliases moved to the edge: a sample of rows as they were written by hand
 * (fixtures/hand-aliased-documents.json), run through /graphql, against the rows as they are now, over REST.
 */
describe('REST answers are byte-for-byte those of the hand-aliased documents', () => {
  const app = useTestApp();
  const handAliased: Record<string, string> = JSON.parse(
    readFileSync(new URL('./fixtures/hand-aliased-documents.json', import.meta.url), 'utf8'),
  );
  let t: Team;

  beforeAll(async () => {
    t = await team(app);
    const { id: techniqueId } = await technique(app);
    await createTest(app, t.red_lead, techniqueId);
    await createTest(app, t.admin, techniqueId, { name: 'Second test' });
  });

  it.each(Object.entries(handAliased))('%s', async (label, legacy) => {
    const route = routes.find((candidate) => `${candidate.method} ${candidate.path}` === label)!;
    const rest = await fetch(`${app.url}/api/v1${route.path}`, { headers: { authorization: `Bearer ${t.admin.token}` } });
    expect(rest.status).toBe(200);
    const graphql = await app.graphql(legacy, {}, t.admin.token);
    expect(graphql.errors).toBeUndefined();
    const root = operationOf(legacy).selectionSet.selections[0] as FieldNode;
    const expected = !isCustom(route) && route.wholeData ? graphql.data : graphql.data[(root.alias ?? root.name).value];
    expect(await rest.text()).toBe(JSON.stringify(expected));
  });
});
