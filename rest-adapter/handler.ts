import type { NextFunction, Request, RequestHandler, Response } from 'express';
import {
  execute,
  GraphQLError,
  Kind,
  parse,
  print,
  typeFromAST,
  validate,
  type DocumentNode,
  type GraphQLInputType,
  type GraphQLSchema,
  type OperationDefinitionNode,
} from 'graphql';
import { assertAccess } from '../src/auth/access.ts';
import { sendJson, sendJsonBody } from '../src/http/json-body.ts';
import { domainErrorFrom } from '../src/db/errors.ts';
import { ValidationError } from '../src/errors.ts';
import { assertCleanInput } from '../src/graphql/input-guard.ts';
import type { Context } from '../src/graphql/context.ts';
import { measureDocument } from '../src/graphql/limits/documents.ts';
import type { GraphqlLimits } from '../src/graphql/limits/rules.ts';
import { RateLimitedError, type Budget } from '../src/http/rate-limit.ts';
import { camelizeKeys, camelToSnake } from '../src/naming.ts';
import { coerceQueryValue, describeVariableError } from './variables.ts';
import { restNamingOf, withRestAliases, type RestNaming } from './aliases.ts';
import { sourcesOf } from './sources.ts';
import { isCustom, type GraphqlRoute, type Route } from './types.ts';

/** A GraphQL operation parsed and validated once, at start-up. */
export interface PreparedOperation {
  document: DocumentNode;
  definition: OperationDefinitionNode;
  rootKey: string;
  variableTypes: Map<string, GraphQLInputType>;
}

/**
 * Parses and validates a route's document, with the snake_case aliases of `naming` added; with `limits`, refuses
 * one that could exceed them for some variables.
 */
export function prepareOperation(
  schema: GraphQLSchema,
  source: string,
  label: string,
  limits?: GraphqlLimits,
  naming: RestNaming | null = null,
): PreparedOperation {
  const parsed = parse(source);
  const document = naming ? withRestAliases(parsed, naming) : parsed;
  const problems = validate(schema, document);
  if (problems.length) throw new Error(`${label}: ${problems.map((problem) => problem.message).join('; ')}`);
  const beyondLimits = limits ? measureDocument(schema, print(document), limits).problems : [];
  if (beyondLimits.length) throw new Error(`${label}: the document exceeds the GraphQL limits: ${beyondLimits.join('; ')}`);
  const operation = document.definitions.find(
    (definition): definition is OperationDefinitionNode => definition.kind === Kind.OPERATION_DEFINITION,
  );
  const roots = operation?.selectionSet.selections ?? [];
  if (!operation || roots.length !== 1 || roots[0].kind !== Kind.FIELD) {
    throw new Error(`${label}: a route's document must be one operation with one root field`);
  }
  const variableTypes = new Map<string, GraphQLInputType>();
  for (const definition of operation.variableDefinitions ?? []) {
    variableTypes.set(definition.variable.name.value, typeFromAST(schema, definition.type as never) as GraphQLInputType);
  }
  return { document, definition: operation, rootKey: (roots[0].alias ?? roots[0].name).value, variableTypes };
}

/** Executes a prepared operation in-process and returns its root field, or throws the domain error. */
export async function runOperation(
  schema: GraphQLSchema,
  operation: PreparedOperation,
  variables: Record<string, unknown>,
  context: Context,
  wholeData = false,
  restNameOf: (variable: string) => string | null = (variable) => (variable === 'input' ? null : camelToSnake(variable)),
): Promise<unknown> {
  const result = await execute({ schema, document: operation.document, variableValues: variables, contextValue: context });
  const [error] = result.errors ?? [];
  if (error) throw restError(schema, error, restNameOf);
  return wholeData ? result.data : result.data?.[operation.rootKey];
}

function restError(schema: GraphQLSchema, error: GraphQLError, restNameOf: (variable: string) => string | null): Error {
  const original = error.originalError;
  if (original && !(original instanceof GraphQLError)) return domainErrorFrom(original) ?? original;
  // GraphQL itself refused the variables (types, required fields, unknown fields): said in REST words.
  const { field, reason } = describeVariableError(error.message, schema, restNameOf);
  return new ValidationError(field, reason);
}

function variablesFor(route: GraphqlRoute, operation: PreparedOperation, req: Request): Record<string, unknown> {
  for (const name of Object.keys(route.variables ?? {})) {
    if (!operation.variableTypes.has(name)) throw new Error(`${route.method} ${route.path}: no variable $${name} in its document`);
  }
  const params = req.params as Record<string, string | undefined>;
  const queryValues = req.query as Record<string, unknown>;
  const bodyObject = (): Record<string, unknown> => {
    const payload = req.body ?? {};
    if (typeof payload !== 'object' || Array.isArray(payload)) throw new ValidationError(null, 'The request body must be a JSON object');
    return payload as Record<string, unknown>;
  };
  const variables: Record<string, unknown> = {};
  for (const [name, source] of sourcesOf(route, operation.variableTypes)) {
    const type = operation.variableTypes.get(name)!;
    const fromName = source.from === 'name';
    if ((source.from === 'path' || fromName) && params[source.name] !== undefined) {
      // Through the variable's type like a query value, so a malformed id is a 400 naming the parameter.
      variables[name] = coerceQueryValue(params[source.name], type, source.name);
    } else if ((source.from === 'query' || fromName) && queryValues[source.name] !== undefined) {
      const raw = queryValues[source.name];
      if (raw !== '') variables[name] = coerceQueryValue(raw, type, source.name);
    } else if (source.from === 'body' || (fromName && route.method !== 'GET')) {
      const payload = bodyObject();
      const value = source.name ? payload[source.name] : payload;
      if (value !== undefined) variables[name] = camelizeKeys(value);
    }
  }
  return variables;
}

/** Path, query and body values: no NUL, no unpaired surrogates, bounded nesting (a 400 naming the field). */
function assertRequestInput(req: Request): void {
  assertCleanInput(req.params, ([name]) => String(name));
  assertCleanInput(req.query, ([name]) => String(name));
  if (req.body !== undefined) assertCleanInput(req.body, (path) => (path.length ? path.join('.') : null));
}

/**
 * A read of the ATT&CK catalog only (src/graphql/catalog-cache.ts): answered with the JSON kept for the catalog's
 * current version, or computed, answered and kept. False when the row is not such a read.
 */
async function answerFromCatalog(
  schema: GraphQLSchema,
  route: GraphqlRoute,
  operation: PreparedOperation,
  variables: Record<string, unknown>,
  context: Context,
  run: () => Promise<unknown>,
  res: Response,
): Promise<boolean> {
  if (route.method !== 'GET') return false;
  const cache = context.services.catalogCache;
  const parts = () => ['rest', route.path, JSON.stringify(variables)];
  const found = await cache.find(context.auth.principal, schema, operation.document, operation.definition, parts);
  if (!found) return false;
  // Kept as the bytes sent: a list's JSON encoded once, not for every request (and collected after each).
  let body = found.answer as Buffer | undefined;
  if (body === undefined) {
    try {
      body = Buffer.from(JSON.stringify(await run()) ?? 'null');
      cache.set(found.key, found.version, body, body.length + found.key.length);
    } finally {
      found.settle();
    }
  }
  // As res.json() would send it: the same bytes and Content-Type.
  sendJsonBody(res.status(route.status ?? 200), body);
  return true;
}

export type ContextFactory = (req: Request) => Promise<Context>;

/** The rate-limit budget a row draws from (also stated per operation in the OpenAPI document). */
export const budgetOf = (route: Route): Budget => (route.expensive ? 'expensive' : route.method === 'GET' ? 'reads' : 'writes');

/** One request from the caller's budget; the RateLimit headers go on the answer, a 429 included. */
async function takeRateLimit(route: Route, context: Context, res: Response): Promise<void> {
  const caller = { userId: context.auth.principal?.userId ?? null, clientIp: context.clientIp };
  try {
    const headers = await context.services.rateLimits.take(budgetOf(route), caller);
    if (headers) res.set(headers);
  } catch (error) {
    if (error instanceof RateLimitedError) res.set(error.headers);
    throw error;
  }
}

/**
 * One Express handler per route: authorise, map variables, execute the document, answer. A route's documents are
 * prepared at its first request, not at start: `rest-adapter/route-documents.test.ts` prepares every one of them
 * against the schema and the limits, so a route table that does not fit the schema fails the build's tests.
 */
export function routeHandler(schema: GraphQLSchema, route: Route, contextFor: ContextFactory, limits?: GraphqlLimits): RequestHandler {
  const naming = restNamingOf(route);
  const prepared = new Map<string, PreparedOperation>();
  const prepare = (source: string) => {
    let cached = prepared.get(source);
    if (!cached) prepared.set(source, (cached = prepareOperation(schema, source, `${route.method} ${route.path}`, limits, naming)));
    return cached;
  };

  return async (req: Request, res: Response, next: NextFunction) => {
    try {
      assertRequestInput(req);
      const context = await contextFor(req);
      await takeRateLimit(route, context, res);
      assertAccess(context.auth.principal, { roles: route.roles, write: route.method !== 'GET' }, context.auth.failure);
      if (isCustom(route)) {
        const tools = {
          context,
          execute: (source: string, variables: Record<string, unknown>) => runOperation(schema, prepare(source), variables, context),
        };
        await route.handle(req, res, tools);
        return;
      }
      const operation = prepare(route.document);
      const sources = sourcesOf(route, operation.variableTypes);
      const restNameOf = (variable: string) => sources.get(variable)?.name ?? null;
      const variables = variablesFor(route, operation, req);
      const run = () => runOperation(schema, operation, variables, context, route.wholeData, restNameOf);
      if (await answerFromCatalog(schema, route, operation, variables, context, run, res)) return;
      const data = await run();
      const status = route.status ?? 200;
      if (status === 204) res.status(204).end();
      else sendJson(res.status(status), data);
    } catch (error) {
      next(error);
    }
  };
}
