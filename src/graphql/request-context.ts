import type { IncomingHttpHeaders } from 'node:http';
import { authenticate, credentialOf } from '../auth/authenticate.ts';
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
  return {
    services,
    auth: await authenticate(services, credential),
    requestId: request.requestId,
    clientIp: request.clientIp,
    log: request.log,
  };
}
