/**
 * Case conversion between GraphQL's camelCase and the REST spec's snake_case. The domain and GraphQL speak
 * camelCase; only the REST edge (and stored snake_case formats such as audit details) convert.
 */
export const camelToSnake = (key: string): string => key.replace(/[A-Z]/g, (char) => `_${char.toLowerCase()}`);

export const snakeToCamel = (key: string): string => key.replace(/_([a-z0-9])/g, (_, char: string) => char.toUpperCase());

/** A dotted field path (`input.startDate`) in snake_case (`input.start_date`). */
export const snakePath = (path: string): string => path.split('.').map(camelToSnake).join('.');

/** JSON object keys from snake_case to camelCase, recursively. */
export function camelizeKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(camelizeKeys);
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([key, inner]) => [snakeToCamel(key), camelizeKeys(inner)]));
  }
  return value;
}

/** How a layer names fields: GraphQL keeps the domain's names, REST renames them. */
export type FieldNaming = (field: string) => string;
export const keepNames: FieldNaming = (field) => field;
