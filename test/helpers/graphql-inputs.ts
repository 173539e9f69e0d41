import { randomUUID } from 'node:crypto';
import {
  getNamedType,
  isEnumType,
  isInputObjectType,
  isListType,
  isNonNullType,
  isScalarType,
  type GraphQLArgument,
  type GraphQLField,
  type GraphQLInputType,
} from 'graphql';

/** A JSON value this input type accepts (required fields only), so that a request fails only for the reason under test. */
export function sampleInput(type: GraphQLInputType): unknown {
  if (isNonNullType(type)) return sampleInput(type.ofType);
  if (isListType(type)) return [];
  if (isEnumType(type)) return type.getValues()[0].name;
  if (isInputObjectType(type)) {
    const required = Object.values(type.getFields()).filter((field) => isNonNullType(field.type) && field.defaultValue === undefined);
    return Object.fromEntries(required.map((field) => [field.name, sampleInput(field.type)]));
  }
  if (isScalarType(type)) {
    switch (type.name) {
      case 'Int':
      case 'Float':
        return 1;
      case 'Boolean':
        return false;
      case 'ID':
      case 'UUID':
        return randomUUID();
      case 'DateTime':
        return new Date().toISOString();
      case 'JSON':
        return {};
      default:
        return 'T1059';
    }
  }
  throw new Error(`no sample for ${String(type)}`);
}

/** A `kind` operation calling the root field `field` with `args` as variables of the same names, selecting `__typename` of an object. */
export function operationOn(
  kind: 'query' | 'mutation',
  field: GraphQLField<unknown, unknown>,
  args: readonly GraphQLArgument[] = field.args,
): string {
  const named = getNamedType(field.type);
  const selection = isScalarType(named) || isEnumType(named) ? '' : ' { __typename }';
  if (!args.length) return `${kind} { ${field.name}${selection} }`;
  const declarations = args.map((arg) => `$${arg.name}: ${String(arg.type)}`).join(', ');
  const uses = args.map((arg) => `${arg.name}: $${arg.name}`).join(', ');
  return `${kind} (${declarations}) { ${field.name}(${uses})${selection} }`;
}
