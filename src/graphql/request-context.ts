import type { IncomingHttpHeaders } from 'node:http';
import { initContextCache } from '@pothos/core';
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
    // Pothos keys its per-request caches on this object; the build keeps them on it (scripts/dependency-patches.mjs).
    ...initContextCache(),
    services,
    auth,
    requestId: request.requestId,
    clientIp: request.clientIp,
    log: request.log,
  };
}
