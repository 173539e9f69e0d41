import { getNullableType, type GraphQLList, isEnumType, isListType, isScalarType, type GraphQLInputType } from 'graphql';
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

/**
 * Turns GraphQL's variable-coercion messages into the REST vocabulary: field paths in snake_case and the
 * offending field named first, e.g. `ttp_id: Expected value of type "String!", found null.`
 */
export function describeVariableError(message: string): { field: string | null; reason: string } {
  const snake = message.replace(/"([a-z][A-Za-z0-9.]*)"/g, (_, path: string) => `"${path.split('.').map(camelToSnake).join('.')}"`);
  const at = /at "(?:[a-z_]+)\.([^"]+)"/.exec(snake);
  const missing = /Field "([a-z_0-9]+)" of required type/.exec(snake);
  const unknown = /Field "([a-z_0-9]+)" is not defined/.exec(snake);
  // List items as the domain's own validation names them: `steps.0.technique`, not `steps[0].technique`.
  const field = (at?.[1] ?? missing?.[1] ?? unknown?.[1])?.replace(/\[(\d+)\]/g, '.$1') ?? null;
  const reason = snake.replace(/^Variable "\$[a-z_]+" got invalid value .*?; /, '').replace(/ at "[^"]+"/, '');
  return { field, reason };
}
