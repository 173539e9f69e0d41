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
import { SchemaConverter, type FragmentMap, type JsonSchema } from './json-schema.ts';
import { isCustom, type CustomRoute, type GraphqlRoute, type Route } from './types.ts';
import { camelToSnake } from '../src/naming.ts';

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

  constructor(private readonly schema: GraphQLSchema) {
    this.converter = new SchemaConverter(schema);
  }

  parameters(route: Route, operation: Operation | null) {
    const sources = isCustom(route) ? [] : Object.entries(route.variables ?? {});
    const typeOf = (from: 'path' | 'query', name: string) => {
      const variable = sources.find(([, source]) => source.from === from && source.name === name)?.[0];
      return variable ? operation?.variables.get(variable) : undefined;
    };
    const pathParameters = [...route.path.matchAll(/:([A-Za-z_]+)/g)].map(([, name]) => {
      const type = typeOf('path', name);
      return { name, in: 'path', required: true, schema: type ? this.converter.input(type, true) : { type: 'string' } };
    });
    const queryParameters = sources
      .filter(([, source]) => source.from === 'query')
      .map(([, source]) => {
        const type = typeOf('query', source.name!);
        return {
          name: source.name,
          in: 'query',
          required: !!type && isNonNullType(type),
          schema: type ? this.converter.input(type, true) : { type: 'string' },
        };
      });
    return [...pathParameters, ...queryParameters];
  }

  /** The JSON body of a GraphQL row: the input object of a `body()` variable, or the named `body('x')` fields. */
  graphqlBody(route: GraphqlRoute, operation: Operation) {
    const sources = Object.entries(route.variables ?? {}).filter(([, source]) => source.from === 'body');
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

  describe(route: Route) {
    const label = `${route.method} ${route.path}`;
    const operation = isCustom(route) ? null : operationOf(this.schema, route, route.document, label);
    const status = String(route.status ?? 200);
    const success =
      status === '204' || !operation || isCustom(route)
        ? { description: status === '204' ? 'No content' : 'Success' }
        : { description: 'Success', content: json(this.response(route, operation)) };
    const requestBody = isCustom(route) ? this.customBody(route) : this.graphqlBody(route, operation!);
    return {
      operationId: operationId(route),
      summary: route.summary,
      tags: [route.tag],
      'x-roles': route.roles,
      description: `Who: ${whoText(route.roles)}`,
      security: route.roles === 'public' ? [] : [{ bearer: [] }, { cookie: [] }],
      parameters: this.parameters(route, operation),
      ...(requestBody ? { requestBody } : {}),
      'x-rate-limit-budget': budgetOf(route),
      responses: {
        [status]: success,
        '429': { $ref: '#/components/responses/RateLimited' },
        default: { description: 'Error', content: json({ $ref: '#/components/schemas/Error' }) },
      },
    };
  }
}

/** The OpenAPI 3.1 document, generated from the route table and the GraphQL types its documents use. */
export function buildOpenApiDocument(routes: readonly Route[], schema: GraphQLSchema) {
  const describer = new RouteDescriber(schema);
  const paths: Record<string, Record<string, unknown>> = {};
  for (const route of routes) {
    paths[toOpenApiPath(route.path)] ??= {};
    paths[toOpenApiPath(route.path)][route.method.toLowerCase()] = describer.describe(route);
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Violet API',
      version: '1.0.0',
      description: 'Purple-team coverage platform. GraphQL at /graphql; this REST layer runs the same resolvers.',
    },
    servers: [{ url: '/api/v1' }],
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
            code: { type: 'string' },
            field: { type: ['string', 'null'] },
          },
        },
      },
    },
  };
}
