import {
  getNullableType,
  isInputObjectType,
  isNonNullType,
  Kind,
  type FieldNode,
  type FragmentDefinitionNode,
  type GraphQLInputType,
  type GraphQLSchema,
  type OperationDefinitionNode,
} from 'graphql';
import { ROLE_ABBREVIATIONS } from '../src/auth/roles.ts';
import { restNamingOf } from './aliases.ts';
import { budgetOf, prepareOperation } from './handler.ts';
import { pagingText } from './page-limits.ts';
import { documentedSourcesOf } from './sources.ts';
import { SchemaConverter, type FragmentMap, type JsonSchema } from './json-schema.ts';
import { isCustom, type CustomRoute, type GraphqlRoute, type Route } from './types.ts';
import { camelToSnake, snakeToCamel } from '../src/naming.ts';
import { ERROR_CODES } from '../src/errors.ts';
import { errorResponses, errorCatalogueText } from './openapi-errors.ts';
import { pageBoundsOf } from './page-bounds.ts';

/** A query or path parameter's description: its name in words (the operation's summary says the rest). */
const parameterDescription = (name: string) => `${name.replace(/_/g, ' ')}`.replace(/^./, (first) => first.toUpperCase());

const toOpenApiPath = (path: string) => path.replace(/:([A-Za-z_]+)/g, '{$1}');
const operationId = (route: Route) =>
  `${route.method}${route.path}`
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/_$/, '');
const json = (schema: JsonSchema) => ({ 'application/json': { schema } });

function whoText(roles: Route['roles']): string {
  if (roles === 'public') return 'Public';
  if (roles === 'signed-in') return 'Any signed-in user';
  return roles.map((role) => ROLE_ABBREVIATIONS[role]).join(', ');
}

/** One route's GraphQL operation, parsed, with its variable types and fragments. */
interface Operation {
  node: OperationDefinitionNode;
  variables: Map<string, GraphQLInputType>;
  fragments: FragmentMap;
}

function operationOf(schema: GraphQLSchema, route: Route, source: string, label: string): Operation {
  const { document, variableTypes } = prepareOperation(schema, source, label, undefined, restNamingOf(route));
  const node = document.definitions.find(
    (definition): definition is OperationDefinitionNode => definition.kind === Kind.OPERATION_DEFINITION,
  )!;
  const fragments = document.definitions.filter(
    (definition): definition is FragmentDefinitionNode => definition.kind === Kind.FRAGMENT_DEFINITION,
  );
  return { node, variables: variableTypes, fragments: new Map(fragments.map((fragment) => [fragment.name.value, fragment])) };
}

/** Builds the per-route parts of the document; input objects accumulate as shared components. */
class RouteDescriber {
  readonly converter: SchemaConverter;

  constructor(
    private readonly schema: GraphQLSchema,
    private readonly routes: readonly Route[],
  ) {
    this.converter = new SchemaConverter(schema);
  }

  parameters(route: Route, operation: Operation | null) {
    const sources = isCustom(route) || !operation ? [] : [...documentedSourcesOf(route, operation.variables)];
    const bounds = operation ? pageBoundsOf(this.schema, operation) : new Map<string, JsonSchema>();
    const variableOf = (from: 'path' | 'query', name: string) =>
      sources.find(([, source]) => source.from === from && source.name === name)?.[0];
    const schemaOf = (variable: string | undefined, fallback: JsonSchema = { type: 'string' }) => {
      const type = variable ? operation?.variables.get(variable) : undefined;
      return type ? { ...this.converter.input(type, true), ...bounds.get(variable!) } : fallback;
    };
    const pathParameters = [...route.path.matchAll(/:([A-Za-z_]+)/g)].map(([, name]) => {
      const fallback = isCustom(route) ? this.customPathSchema(route, name) : { type: 'string' };
      return {
        name,
        in: 'path',
        required: true,
        description: `The ${name.replace(/_/g, ' ')}`,
        schema: schemaOf(variableOf('path', name), fallback),
      };
    });
    const queryParameters = sources
      .filter(([, source]) => source.from === 'query')
      .map(([variable, source]) => {
        const type = operation?.variables.get(variable);
        return {
          name: source.name,
          in: 'query',
          required: !!type && isNonNullType(type),
          description: parameterDescription(source.name!),
          schema: schemaOf(variable),
        };
      });
    const customQuery = Object.entries((isCustom(route) && route.queryParameters) || {}).map(([name, schema]) => ({
      name,
      in: 'query',
      required: false,
      description: parameterDescription(name),
      schema,
    }));
    return [...pathParameters, ...queryParameters, ...customQuery];
  }

  /**
   * A custom row's path parameter: typed by the variable of that name in any of its documents, else as the GraphQL
   * row of the path up to it names it (`/evidence/:id/download` takes the id `/evidence/:id` reads).
   */
  private customPathSchema(route: CustomRoute, name: string): JsonSchema {
    for (const source of route.documents ?? []) {
      const type = operationOf(this.schema, route, source, route.path).variables.get(snakeToCamel(name));
      if (type) return this.converter.input(type, true);
    }
    const prefix = route.path.slice(0, route.path.indexOf(`:${name}`) + name.length + 1);
    const owner = this.routes.find((other): other is GraphqlRoute => !isCustom(other) && other.method === 'GET' && other.path === prefix);
    const named = owner && this.parameters(owner, operationOf(this.schema, owner, owner.document, prefix)).find((p) => p.name === name);
    return named?.schema ?? { type: 'string' };
  }

  /** The JSON body of a GraphQL row: the input object of a `body()` variable, or the named `body('x')` fields. */
  graphqlBody(route: GraphqlRoute, operation: Operation) {
    const sources = [...documentedSourcesOf(route, operation.variables)].filter(([, source]) => source.from === 'body');
    if (!sources.length) return undefined;
    const whole = sources.find(([, source]) => !source.name);
    if (whole) {
      const type = operation.variables.get(whole[0])!;
      return { required: isNonNullType(type), content: json(this.converter.input(type, true)) };
    }
    const fields = sources.map(([variable, source]): [string, GraphQLInputType] => [source.name!, operation.variables.get(variable)!]);
    return { required: fields.some(([, type]) => isNonNullType(type)), content: json(this.converter.object(fields)) };
  }

  /** A custom row's body, of its declared media type, described by its first document's variables. */
  customBody(route: CustomRoute) {
    if (!route.requestType) return undefined;
    const variables = route.documents?.length ? [...operationOf(this.schema, route, route.documents[0], route.path).variables] : [];
    const single = variables.length === 1 && isInputObjectType(getNullableType(variables[0][1])) ? variables[0][1] : null;
    const schema = single
      ? this.converter.input(single, true)
      : this.converter.object(variables.map(([name, type]): [string, GraphQLInputType] => [camelToSnake(name), type]));
    return { required: true, content: { [route.requestType]: { schema } } };
  }

  /** The row's summary, with how it pages generated from the page limits of its fields. */
  summary(route: GraphqlRoute, operation: Operation): string {
    const document = { kind: Kind.DOCUMENT, definitions: [operation.node, ...operation.fragments.values()] } as const;
    const sources = documentedSourcesOf(route, operation.variables);
    const paging = pagingText(this.schema, document, (variable) => sources.get(variable)?.name);
    return paging ? `${route.summary} (${paging})` : route.summary;
  }

  /** The success body: the root field's selection (or, for `wholeData` rows, every root alias). */
  response(route: GraphqlRoute, operation: Operation): JsonSchema {
    const root = {
      query: this.schema.getQueryType(),
      mutation: this.schema.getMutationType(),
      subscription: this.schema.getSubscriptionType(),
    }[operation.node.operation]!;
    if (route.wholeData) return this.converter.selection(root, operation.node.selectionSet, operation.fragments);
    const field = operation.node.selectionSet.selections[0] as FieldNode;
    return this.converter.output(root.getFields()[field.name.value].type, field.selectionSet, operation.fragments);
  }

  /** A custom row's answer: its declared media types (files as binary), JSON otherwise; redirects have none. */
  customSuccess(route: CustomRoute, status: number) {
    if (status === 204 || (status >= 300 && status < 400)) return { description: status === 204 ? 'No content' : 'Redirect' };
    const types = route.responseTypes ?? ['application/json'];
    const schemaOf = (type: string): JsonSchema => (type === 'application/json' ? {} : { type: 'string', format: 'binary' });
    return { description: 'Success', content: Object.fromEntries(types.map((type) => [type, { schema: schemaOf(type) }])) };
  }

  describe(route: Route) {
    const label = `${route.method} ${route.path}`;
    const operation = isCustom(route) ? null : operationOf(this.schema, route, route.document, label);
    const status = String(route.status ?? 200);
    const success = isCustom(route)
      ? this.customSuccess(route, route.status ?? 200)
      : status === '204' || !operation
        ? { description: 'No content' }
        : { description: 'Success', content: json(this.response(route, operation)) };
    const requestBody = isCustom(route) ? this.customBody(route) : this.graphqlBody(route, operation!);
    const parameters = this.parameters(route, operation);
    return {
      operationId: operationId(route),
      summary: operation && !isCustom(route) ? this.summary(route, operation) : route.summary,
      tags: [route.tag],
      'x-roles': route.roles,
      description: `Who: ${whoText(route.roles)}`,
      security: route.roles === 'public' ? [] : [{ bearer: [] }, { cookie: [] }],
      parameters,
      ...(requestBody ? { requestBody } : {}),
      'x-rate-limit-budget': budgetOf(route),
      responses: {
        [status]: success,
        ...errorResponses(route, { parameters: parameters.length > 0 }),
        '429': { $ref: '#/components/responses/RateLimited' },
        default: { description: 'Unexpected error (5xx)', content: json({ $ref: '#/components/schemas/Error' }) },
      },
    };
  }
}

/** The OpenAPI 3.1 document, generated from the route table and the GraphQL types its documents use. */
export function buildOpenApiDocument(routes: readonly Route[], schema: GraphQLSchema) {
  const describer = new RouteDescriber(schema, routes);
  const paths: Record<string, Record<string, unknown>> = {};
  for (const route of routes) {
    paths[toOpenApiPath(route.path)] ??= {};
    paths[toOpenApiPath(route.path)][route.method.toLowerCase()] = describer.describe(route);
  }
  const tags = [...new Set(routes.map((route) => route.tag))]
    .sort((a, b) => a.localeCompare(b))
    .map((name) => ({ name, description: `${name} operations` }));
  return {
    openapi: '3.1.0',
    info: {
      title: 'Violet API',
      version: '1.0.0',
      description: 'Purple-team coverage platform. GraphQL at /graphql; this REST layer runs the same resolvers.',
      contact: { name: 'The operators of this server (API documentation at /api/v1/docs)' },
    },
    servers: [{ url: '/api/v1' }],
    tags,
    paths,
    components: {
      responses: {
        RateLimited: {
          description:
            "Too many requests: the caller's budget (`x-rate-limit-budget`: reads, writes or expensive) is spent for this window; " +
            'per signed-in user, otherwise per client address; loopback callers are exempt by default (RATE_LIMIT_*).',
          headers: {
            'Retry-After': { description: 'Seconds until the budget refills', schema: { type: 'integer' } },
            RateLimit: { description: 'IETF RateLimit field: `"<budget>";r=<remaining>;t=<seconds>`', schema: { type: 'string' } },
            'RateLimit-Policy': {
              description: 'IETF RateLimit-Policy field: `"<budget>";q=<quota>;w=<window seconds>`',
              schema: { type: 'string' },
            },
          },
          content: json({ $ref: '#/components/schemas/Error' }),
        },
      },
      securitySchemes: {
        bearer: { type: 'http', scheme: 'bearer', description: 'Session token (JWT) or API key (svc_…)' },
        cookie: { type: 'apiKey', in: 'cookie', name: 'svc_token' },
      },
      schemas: {
        ...describer.converter.components,
        Error: {
          type: 'object',
          required: ['detail', 'code'],
          properties: {
            detail: { oneOf: [{ type: 'string' }, { type: 'object' }] },
            code: { type: 'string', enum: Object.keys(ERROR_CODES), description: errorCatalogueText() },
            field: { type: ['string', 'null'] },
          },
        },
      },
    },
  };
}
