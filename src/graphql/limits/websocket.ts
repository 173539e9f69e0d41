import type { IncomingMessage } from 'node:http';
import {
  GraphQLError,
  parse,
  specifiedRules,
  validate,
  type DocumentNode,
  type ExecutionArgs,
  type GraphQLSchema,
  type ValidationRule,
} from 'graphql';
import type { SubscribePayload } from 'graphql-ws';
import type { ServerOptions, VerifyClientCallbackAsync, WebSocket } from 'ws';
import { costRefusal, limitRules, operationCost, type GraphqlLimits } from './rules.ts';
import { tokenLimitErrorFrom, limitGraphqlError } from './errors.ts';
import { introspectionRefusal } from './introspection.ts';
import type { SubscriptionCaps } from './subscriptions.ts';

export interface ConnectionLimits {
  maxPayload: number;
  maxConnections: number;
  maxConnectionsPerClient: number;
}

/** Express' compiled `trust proxy` function: may the hop at `address` (i-th from us) be trusted to forward? */
export type TrustProxy = (address: string, hop: number) => boolean;

/** The client's address as Express would give it in `req.ip`: the nearest untrusted hop of X-Forwarded-For. */
export function clientAddressOf(req: IncomingMessage, trust: TrustProxy): string {
  const forwarded = String(req.headers['x-forwarded-for'] ?? '')
    .split(',')
    .map((hop) => hop.trim())
    .filter(Boolean)
    .reverse();
  const hops = [req.socket.remoteAddress ?? '', ...forwarded];
  let index = 0;
  while (index < hops.length - 1 && trust(hops[index], index)) index += 1;
  return hops[index];
}

/**
 * Caps on open WebSockets, in total and per client address. Excess upgrades are refused with 503 (server full) or
 * 429 (this client has enough) before the handshake completes, so no socket or graphql-ws state is ever created.
 */
export class WebSocketCaps {
  private readonly perClient = new Map<string, number>();
  private open = 0;

  constructor(
    private readonly limits: ConnectionLimits,
    private readonly trust: TrustProxy,
  ) {}

  /** Options for `new WebSocketServer`: the frame size limit and the upgrade check. */
  serverOptions(): Pick<ServerOptions, 'maxPayload' | 'verifyClient'> {
    const verifyClient: VerifyClientCallbackAsync = ({ req }, accept) => {
      if (this.open >= this.limits.maxConnections) return accept(false, 503, 'Too many WebSocket connections', { 'Retry-After': '30' });
      if ((this.perClient.get(clientAddressOf(req, this.trust)) ?? 0) >= this.limits.maxConnectionsPerClient) {
        return accept(false, 429, 'Too many WebSocket connections from this client', { 'Retry-After': '30' });
      }
      accept(true);
    };
    return { maxPayload: this.limits.maxPayload, verifyClient };
  }

  /** Counts an accepted socket until it closes (call from the server's `connection` event). */
  track(socket: WebSocket, req: IncomingMessage): void {
    const client = clientAddressOf(req, this.trust);
    this.open += 1;
    this.perClient.set(client, (this.perClient.get(client) ?? 0) + 1);
    socket.once('close', () => {
      this.open -= 1;
      const left = (this.perClient.get(client) ?? 1) - 1;
      if (left > 0) this.perClient.set(client, left);
      else this.perClient.delete(client);
    });
  }
}

/**
 * graphql-ws `onSubscribe`: the same token, depth, alias, introspection and cost limits as over HTTP, checked before
 * execution, then a place within the socket's and its user's subscription caps. Returns the execution arguments (the
 * context is added by graphql-ws) or the errors to send.
 */
export function subscribeWithinLimits(
  schema: GraphQLSchema,
  limits: GraphqlLimits,
  caps: SubscriptionCaps,
  extraRules: readonly ValidationRule[] = [],
) {
  const rules = [...specifiedRules, ...limitRules(limits), ...extraRules];
  return (
    ctx: { extra: { socket: object } },
    id: string,
    payload: SubscribePayload,
  ): Omit<ExecutionArgs, 'contextValue'> | readonly GraphQLError[] => {
    let document: DocumentNode;
    try {
      document = parse(payload.query, { maxTokens: limits.maxTokens });
    } catch (error) {
      const tooLarge = tokenLimitErrorFrom(error);
      if (tooLarge) return [limitGraphqlError(tooLarge)];
      if (error instanceof GraphQLError) return [error];
      throw error;
    }
    const problems = validate(schema, document, rules);
    if (problems.length) return problems;
    const { socket } = ctx.extra;
    const hidden = introspectionRefusal(schema, document, limits.introspection, caps.signedIn(socket));
    if (hidden) return [hidden];
    const cost = operationCost(schema, document, { variables: payload.variables, operationName: payload.operationName });
    const refusal = costRefusal(cost, limits) ?? caps.admit(socket, id, cost ?? 0);
    if (refusal) return [refusal];
    return { schema, document, variableValues: payload.variables, operationName: payload.operationName };
  };
}
