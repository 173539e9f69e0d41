import { type DocumentNode, getNamedType, Kind, typeFromAST, validate } from 'graphql';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.ts';
import { placeholderVariables } from '../../src/graphql/limits/placeholders.ts';
import { graphqlLimitsOf, limitRules, operationCost } from '../../src/graphql/limits/rules.ts';
import { schema } from '../../src/graphql/schema.ts';
import * as generated from '../../web/src/gql/graphql.ts';

// Every operation the web app sends, as GraphQL Code Generator compiled it from the app's sources: each must be
// valid against the server's schema and admitted by the default limits (tokens, depth, aliases, cost) whatever its
// variables: every Int variable (a page size, an offset) is taken at a million, so a page size the app passes in
// counts at its field's maximum; a page size written in the document counts as written, as the server counts it.
const limits = graphqlLimitsOf(loadConfig({}));
const operations = Object.entries(generated as Record<string, unknown>)
  .filter((entry): entry is [string, DocumentNode] => (entry[1] as DocumentNode | null)?.kind === Kind.DOCUMENT)
  .filter(([, document]) => document.definitions.some((definition) => definition.kind === Kind.OPERATION_DEFINITION));

/** Placeholders for the required variables, and a million for every Int variable. */
function largestVariables(document: DocumentNode): Record<string, unknown> {
  const variables = placeholderVariables(schema, document);
  for (const definition of document.definitions) {
    if (definition.kind !== Kind.OPERATION_DEFINITION) continue;
    for (const variable of definition.variableDefinitions ?? []) {
      const type = typeFromAST(schema, variable.type as never);
      if (type && getNamedType(type).name === 'Int') variables[variable.variable.name.value] = 1_000_000;
    }
  }
  return variables;
}

describe("the web app's operations", () => {
  it('are all found', () => {
    expect(operations.length).toBeGreaterThan(60);
  });

  it.each(operations.map(([name, document]) => [name, document] as const))(
    '%s is valid and within the default limits',
    (_name, document) => {
      expect(validate(schema, document, limitRules(limits)).map((problem) => problem.message)).toEqual([]);
      const cost = operationCost(schema, document, { variables: largestVariables(document) });
      expect(cost).not.toBeNull();
      expect(cost!).toBeLessThanOrEqual(limits.maxCost);
    },
  );
});
