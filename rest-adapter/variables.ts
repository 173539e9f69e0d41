import {
  getNullableType,
  type GraphQLInputType,
  type GraphQLList,
  type GraphQLSchema,
  isEnumType,
  isListType,
  isScalarType,
} from 'graphql';
import { ValidationError } from '../src/errors.ts';
import { camelToSnake } from '../src/naming.ts';

const INTEGER = /^-?\d+$/;
const NUMBER = /^-?\d+(\.\d+)?$/;

/** Coerces a query-string value to the GraphQL input type of the variable it feeds. */
export function coerceQueryValue(raw: unknown, type: GraphQLInputType, field: string): unknown {
  const nullable = getNullableType(type);
  if (isListType(nullable)) {
    const items = (Array.isArray(raw) ? raw : String(raw).split(',')).filter((item) => item !== '');
    return items.map((item) => coerceQueryValue(item, (nullable as GraphQLList<GraphQLInputType>).ofType, field));
  }
  if (Array.isArray(raw)) throw new ValidationError(field, 'must be given once');
  const text = String(raw);
  if (isScalarType(nullable)) {
    switch (nullable.name) {
      case 'Int':
        if (!INTEGER.test(text)) throw new ValidationError(field, 'must be an integer');
        return Number(text);
      case 'Float':
        if (!NUMBER.test(text)) throw new ValidationError(field, 'must be a number');
        return Number(text);
      case 'Boolean':
        if (text === 'true' || text === '1') return true;
        if (text === 'false' || text === '0') return false;
        throw new ValidationError(field, 'must be true or false');
    }
    // Custom scalars (DateTime…) check here too, so the error names the query parameter.
    try {
      nullable.parseValue(text);
    } catch (error) {
      throw new ValidationError(field, (error as Error).message);
    }
  }
  if (isEnumType(nullable) && !nullable.getValue(text)) {
    const allowed = nullable.getValues().map((value) => value.name);
    throw new ValidationError(field, `must be one of ${allowed.join(', ')}`);
  }
  return text;
}

/** GraphQL's coercion messages (graphql-js 16) and what they mean in REST words. */
const COERCION_WORDS: [RegExp, (match: RegExpExecArray, schema: GraphQLSchema) => string][] = [
  [/Expected non-nullable type "[^"]+" not to be null\.$/, () => 'is required'],
  [/Int cannot represent non 32-bit signed integer value: .*$/s, () => 'must be an integer from -2147483648 to 2147483647'],
  [/Int cannot represent non-integer value: .*$/s, () => 'must be an integer'],
  [/Float cannot represent non numeric value: .*$/s, () => 'must be a number'],
  [/String cannot represent a non string value: .*$/s, () => 'must be a string'],
  [/Boolean cannot represent a non boolean value: .*$/s, () => 'must be true or false'],
  [/ID cannot represent value: .*$/s, () => 'must be a string'],
  [/(?:Value .* does not exist in|Enum) "(\w+)" (?:enum\.|cannot represent).*$/s, (match, schema) => oneOf(schema, match[1])],
  [/Expected type "\w+" to be an object\.$/, () => 'must be an object'],
  [/Expected type "(\w+)"\.(?: (.*))?$/s, (match) => plainScalarWords(match[1], match[2])],
];

const oneOf = (schema: GraphQLSchema, name: string): string => {
  const type = schema.getType(name);
  return isEnumType(type)
    ? `must be one of ${type
        .getValues()
        .map((value) => value.name)
        .join(', ')}`
    : 'is not an allowed value';
};

/** A custom scalar's own message when it is already in plain words (`must be a UUID`), else the scalar's name. */
const plainScalarWords = (scalar: string, message = ''): string =>
  /^(must|is|should) /.test(message) ? message.replace(/\.$/, '') : `must be a valid ${scalar}`;

/**
 * Turns GraphQL's variable-coercion messages into the REST vocabulary: the field by its REST name (a nested
 * body field by its snake_case path), the reason in plain words (`is required`, `must be an integer`), never
 * GraphQL's type syntax. `restNameOf` gives a variable's REST name, or null for the whole body.
 */
export function describeVariableError(
  message: string,
  schema: GraphQLSchema,
  restNameOf: (variable: string) => string | null,
): { field: string | null; reason: string } {
  const variable = /^Variable "\$(\w+)"/.exec(message)?.[1];
  const base = variable ? restNameOf(variable) : null;
  const fieldOf = (path: string[]) => [...(base ? [base] : []), ...path.map(camelToSnake)].join('.') || null;
  if (!variable) return { field: null, reason: 'The request does not match the operation' };
  if (/^Variable "\$\w+" of (?:required|non-null) type "[^"]+" (?:was not provided|must not be null)\.$/.test(message)) {
    return { field: fieldOf([]), reason: 'is required' };
  }
  // `... at "input.steps[0].technique"; <why>`: the path of the offending value below the variable.
  const at = new RegExp(`at "${variable}((?:\\.\\w+|\\[\\d+\\])*)"; `).exec(message);
  const path = at ? at[1].split(/\.|\[(\d+)\]/).filter((part) => part) : [];
  const why = at ? message.slice(at.index + at[0].length) : message.replace(/^Variable "\$\w+" got invalid value .*?; /s, '');
  const missing = /^Field "(\w+)" of required type "[^"]+" was not provided\.$/.exec(why);
  if (missing) return { field: fieldOf([...path, missing[1]]), reason: 'is required' };
  const unknown = /^Field "(\w+)" is not defined by type "[^"]+"\./.exec(why);
  if (unknown) return { field: fieldOf([...path, unknown[1]]), reason: 'is not a known field' };
  for (const [pattern, words] of COERCION_WORDS) {
    const match = pattern.exec(why);
    if (match) return { field: fieldOf(path), reason: words(match, schema) };
  }
  return { field: fieldOf(path), reason: plainScalarWords('value', why) };
}
