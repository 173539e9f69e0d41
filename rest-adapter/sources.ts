import type { GraphQLInputType } from 'graphql';
import { camelToSnake } from '../src/naming.ts';
import type { GraphqlRoute, VariableSource } from './types.ts';

/** Where a variable the row does not map is found: its snake_case name, in the path, then the query, then the body. */
export type NamedSource = { from: 'name'; name: string };

const pathParameters = (route: GraphqlRoute) => new Set([...route.path.matchAll(/:([A-Za-z_]+)/g)].map(([, name]) => name));

/**
 * Every variable of a row's document with its source: the row's own mapping where it states an exception (a
 * rename, the whole body), else the variable's snake_case name (SOFA's rule), as in `rest-adapter/handler.ts`.
 */
export function sourcesOf(
  route: GraphqlRoute,
  variableTypes: ReadonlyMap<string, GraphQLInputType>,
): Map<string, VariableSource | NamedSource> {
  const sources = new Map<string, VariableSource | NamedSource>();
  for (const name of variableTypes.keys()) sources.set(name, route.variables?.[name] ?? { from: 'name', name: camelToSnake(name) });
  return sources;
}

/**
 * Where a variable's value is documented: the path when the path names it; otherwise the query for GET and
 * DELETE rows and the body for the others (the handler also reads a body row's query, as SOFA does).
 */
export function documentedSourcesOf(
  route: GraphqlRoute,
  variableTypes: ReadonlyMap<string, GraphQLInputType>,
): Map<string, VariableSource> {
  const inPath = pathParameters(route);
  const documented = new Map<string, VariableSource>();
  for (const [variable, source] of sourcesOf(route, variableTypes)) {
    if (source.from !== 'name') documented.set(variable, source);
    else if (inPath.has(source.name)) documented.set(variable, { from: 'path', name: source.name });
    else if (route.method === 'GET' || route.method === 'DELETE') documented.set(variable, { from: 'query', name: source.name });
    else documented.set(variable, { from: 'body', name: source.name });
  }
  return documented;
}
