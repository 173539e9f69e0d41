import type { Request, Response } from 'express';
import type { Role } from '../src/auth/roles.ts';
import type { ErrorCode } from '../src/errors.ts';
import type { Context } from '../src/graphql/context.ts';

export type HttpMethod = 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';

/** Where a GraphQL variable comes from: a path parameter, a query parameter, or the JSON body. */
export type VariableSource = { from: 'path'; name: string } | { from: 'query'; name: string } | { from: 'body'; name?: string };

export const path = (name: string): VariableSource => ({ from: 'path', name });
export const query = (name: string): VariableSource => ({ from: 'query', name });
/** The whole body (keys converted from snake_case to camelCase), or one of its fields. */
export const body = (name?: string): VariableSource => ({ from: 'body', name });

export interface RouteBase {
  method: HttpMethod;
  /** Express-style path under /api/v1, e.g. `/techniques/:ttp_id`. */
  path: string;
  summary: string;
  tag: string;
  /** The spec's "Who" column: who may call it. Drives the REST check, the OpenAPI document and the matrix test. */
  roles: readonly Role[] | 'public' | 'signed-in';
  /**
   * Why this row admits fewer roles than its root field's access rule, when it does. Without it the two must be
   * equal (a test compares every row with its field), so REST and GraphQL access cannot drift apart.
   */
  narrowsFieldAccess?: string;
  /**
   * Why this row takes state-changing requests from other sites, when it does: only rows that authenticate by
   * something a foreign page cannot forge or borrow (a signed SAML assertion), never by the session cookie. The
   * cross-site check (`src/http/csrf.ts`) skips exactly these rows.
   */
  crossSiteAllowed?: string;
  /** Counts against the caller's expensive budget (documents, syncs, computations) instead of reads or writes. */
  expensive?: true;
  /** Success status (default 200; 204 sends no body). */
  status?: number;
}

/** A route answered by executing one GraphQL operation in-process. */
export interface GraphqlRoute extends RouteBase {
  /** One operation with one root field; aliases give the spec's snake_case keys. */
  document: string;
  variables?: Record<string, VariableSource>;
  /** Answer with the whole `data` object (root aliases become the keys) instead of the root field's value. */
  wholeData?: boolean;
}

export interface CustomRouteTools {
  /** Executes a GraphQL operation in-process with the request's context and returns the root field's data. */
  execute(document: string, variables: Record<string, unknown>): Promise<unknown>;
  context: Context;
}

/** A route that needs raw HTTP (form login, cookies, files, CSV): a small handler that still runs GraphQL. */
export interface CustomRoute extends RouteBase {
  /** Request body media type, for the OpenAPI document. */
  requestType?: 'application/x-www-form-urlencoded' | 'multipart/form-data' | 'application/json';
  /** Keep the body's bytes as read (`req.rawBody`), for handlers that verify a signature over them. */
  rawBody?: true;
  /** The largest body read (`256kb`), when not the default 1 MB. */
  bodyLimit?: string;
  /** Documented query/body fields, for the OpenAPI document. */
  documents?: string[];
  /** The query parameters the handler reads (name → JSON Schema), for the OpenAPI document. */
  queryParameters?: Record<string, Record<string, unknown>>;
  /** The media types of its success answer, when not JSON (CSV, PDF, files) or more than one (`format=`). */
  responseTypes?: string[];
  /** The codes it can answer beyond those every row of its kind can (sign-in refusals). */
  errors?: ErrorCode[];
  /** False when the handler reads the result by its GraphQL names: its documents then get no snake_case aliases. */
  restNames?: false;
  handle(req: Request, res: Response, tools: CustomRouteTools): Promise<void>;
}

export type Route = GraphqlRoute | CustomRoute;

export const isCustom = (route: Route): route is CustomRoute => 'handle' in route;
