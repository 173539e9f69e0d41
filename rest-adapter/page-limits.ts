import { Kind, TypeInfo, visit, visitWithTypeInfo, type DocumentNode, type FieldNode, type GraphQLSchema } from 'graphql';
import { pageLimitsOf } from '../src/graphql/cost.ts';
import { pagingWords } from '../src/graphql/pagination.ts';

/**
 * How a row pages, from the page limits its paged fields declare (`pagedCost`), in the REST names of the
 * variables that feed them: `offset default 0, limit default 50, max 200`. Null when nothing pages.
 */
export function pagingText(
  schema: GraphQLSchema,
  document: DocumentNode,
  restNameOf: (variable: string) => string | undefined,
): string | null {
  const typeInfo = new TypeInfo(schema);
  const parts: string[] = [];
  visit(
    document,
    visitWithTypeInfo(typeInfo, {
      Field(node: FieldNode) {
        const cost = pageLimitsOf(typeInfo.getFieldDef()?.extensions);
        if (!cost) return;
        const parameter = (argument: string) => {
          const value = node.arguments?.find((candidate) => candidate.name.value === argument)?.value;
          return value?.kind === Kind.VARIABLE ? restNameOf(value.name.value) : undefined;
        };
        const limit = parameter(cost.pageArgument);
        if (!limit) return;
        const offset = parameter('offset');
        parts.push(pagingWords(cost.page, { offset, limit }));
      },
    }),
  );
  return parts.length ? parts.join('; ') : null;
}
