import {
  Kind,
  TypeInfo,
  visit,
  visitWithTypeInfo,
  type FragmentDefinitionNode,
  type GraphQLSchema,
  type OperationDefinitionNode,
} from 'graphql';
import { pageLimitsOf } from '../src/graphql/cost.ts';
import type { JsonSchema } from './json-schema.ts';

/**
 * The bounds of the variables that page a list: `limit` (1 … the field's maximum, its default) and `offset` (0 or
 * more) of the fields whose cost is `pagedCost`, keyed by variable name.
 */
export function pageBoundsOf(
  schema: GraphQLSchema,
  operation: { node: OperationDefinitionNode; fragments: Map<string, FragmentDefinitionNode> },
): Map<string, JsonSchema> {
  const bounds = new Map<string, JsonSchema>();
  const typeInfo = new TypeInfo(schema);
  visit(
    operation.node,
    visitWithTypeInfo(typeInfo, {
      Argument(node) {
        if (node.value.kind !== Kind.VARIABLE) return;
        const paged = pageLimitsOf(typeInfo.getFieldDef()?.extensions);
        if (!paged) return;
        const variable = node.value.name.value;
        if (node.name.value === paged.pageArgument) {
          bounds.set(variable, { minimum: 1, maximum: paged.page.maxLimit, default: paged.page.defaultLimit });
        } else if (node.name.value === 'offset') {
          bounds.set(variable, { minimum: 0, default: 0 });
        }
      },
    }),
  );
  return bounds;
}
