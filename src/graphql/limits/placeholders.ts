import {
  isEnumType,
  isInputObjectType,
  isListType,
  isNonNullType,
  isScalarType,
  typeFromAST,
  type DocumentNode,
  type GraphQLInputType,
  type GraphQLSchema,
  Kind,
} from 'graphql';

// Candidates a scalar may accept, tried in order: uuid-like ids, other strings, numbers, booleans, dates, objects.
const SCALAR_CANDIDATES: unknown[] = ['00000000-0000-0000-0000-000000000000', '0', 0, false, '1970-01-01T00:00:00.000Z', {}];

function placeholderOf(type: GraphQLInputType): unknown {
  if (isNonNullType(type)) return placeholderOf(type.ofType);
  if (isListType(type)) return [];
  if (isEnumType(type)) return type.getValues()[0]?.value;
  if (isInputObjectType(type)) {
    const fields = Object.values(type.getFields()).filter((field) => isNonNullType(field.type) && field.defaultValue === undefined);
    return Object.fromEntries(fields.map((field) => [field.name, placeholderOf(field.type)]));
  }
  if (isScalarType(type)) {
    return SCALAR_CANDIDATES.find((candidate) => {
      try {
        return type.parseValue(candidate) !== undefined;
      } catch {
        return false;
      }
    });
  }
  return null;
}

/**
 * Values for the required variables of a document's operations, valid for their types but meaningless: enough to
 * measure the cost of a fixed document (its optional variables stay unset; page sizes are then taken at their maximum).
 */
export function placeholderVariables(schema: GraphQLSchema, document: DocumentNode): Record<string, unknown> {
  const variables: Record<string, unknown> = {};
  for (const definition of document.definitions) {
    if (definition.kind !== Kind.OPERATION_DEFINITION) continue;
    for (const variable of definition.variableDefinitions ?? []) {
      if (variable.type.kind !== Kind.NON_NULL_TYPE || variable.defaultValue) continue;
      const type = typeFromAST(schema, variable.type as never) as GraphQLInputType | undefined;
      if (type) variables[variable.variable.name.value] = placeholderOf(type);
    }
  }
  return variables;
}
