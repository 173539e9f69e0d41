import { Kind, visit, type DocumentNode, type FieldNode, type OperationDefinitionNode } from 'graphql';
import { camelToSnake } from '../src/naming.ts';
import { isCustom, type Route } from './types.ts';

/** Which fields of a route's document answer under their snake_case names. */
export interface RestNaming {
  /** Root fields too: only where the answer is the whole `data` object (`wholeData` rows). */
  aliasRoots: boolean;
}

/**
 * A route's naming: GraphQL rows answer in the spec's snake_case; custom rows too, unless their handler reads
 * the result by its GraphQL names (`restNames: false`).
 */
export function restNamingOf(route: Route): RestNaming | null {
  if (isCustom(route)) return route.restNames === false ? null : { aliasRoots: false };
  return { aliasRoots: route.wholeData === true };
}

/**
 * A field's REST name: its snake_case form, and a reference named by its relation (`createdById`,
 * `assignedToId`, `retestOfId`) without the `_id` (`created_by`, `assigned_to`, `retest_of`), as the spec names them.
 */
export const restFieldName = (field: string): string => camelToSnake(field).replace(/_(by|to|of)_id$/, '_$1');

/**
 * Gives every unaliased field whose name is not snake_case the alias of its REST name (`reviewRequired`
 * answers as `review_required`, `createdById` as `created_by`), in the operation and its fragments, so route rows spell only real renames.
 */
export function withRestAliases(document: DocumentNode, naming: RestNaming): DocumentNode {
  const roots = new Set(
    document.definitions.flatMap((definition) =>
      definition.kind === Kind.OPERATION_DEFINITION ? (definition as OperationDefinitionNode).selectionSet.selections : [],
    ),
  );
  return visit(document, {
    Field(node: FieldNode): FieldNode | undefined {
      if (node.alias || (roots.has(node) && !naming.aliasRoots)) return undefined;
      const name = restFieldName(node.name.value);
      return name === node.name.value ? undefined : { ...node, alias: { kind: Kind.NAME, value: name } };
    },
  });
}
