import type { IncomingHttpHeaders } from 'node:http';
import { contextCacheSymbol, initContextCache } from '@pothos/core';
import { authenticate, credentialOf } from '../auth/authenticate.ts';
import { domainErrorFrom } from '../db/errors.ts';
import type { Logger } from '../logger.ts';
import type { Services } from '../services.ts';
import type { Context } from './context.ts';

export interface RequestInfo {
  headers: IncomingHttpHeaders;
  clientIp: string;
  requestId: string;
  log: Logger;
}

/** Builds the per-request context the same way for Apollo, graphql-ws and the REST adapter. */
export async function buildContext(services: Services, request: RequestInfo, credential = credentialOf(request.headers)): Promise<Context> {
  // Mapped here so that an overloaded database answers 503 even before a resolver runs (Apollo reads the
  // domain error's `extensions.http`).
  const auth = await authenticate(services, credential).catch((error: unknown) => {
    throw domainErrorFrom(error) ?? error;
  });
  return {
    ...initContextCache(),
    services,
    auth,
    requestId: request.requestId,
    clientIp: request.clientIp,
    log: request.log,
  };
}

/**
 * Lets go of a context's per-request caches once its answer is out. Pothos keeps them in WeakMaps keyed by the
 * context's cache key, and their values refer back to the context, so the key stays reachable from its own values:
 * V8's young-generation collector cannot break such a cycle, and every request's loaded rows, selections and
 * results were moved to the old generation, left for a full collection (docs/benchmark.md). Without the key the
 * entries are dead at the next young collection. A later use of the context gets caches of its own.
 */
export function releaseRequestCaches(context: Context): void {
  (context as unknown as Record<symbol, unknown>)[contextCacheSymbol] = undefined;
}
