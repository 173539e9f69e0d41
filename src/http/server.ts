import { createServer, IncomingMessage, ServerResponse, type Server } from 'node:http';
import type { Socket } from 'node:net';
import type { Express } from 'express';

/**
 * The HTTP server of an Express app, its requests and responses created with the app's own prototypes.
 *
 * Express gives every request and response entering the app its prototypes with `Object.setPrototypeOf`. V8 then
 * keeps the whole object graph of each request alive through two young-generation collections, so every request's
 * objects were moved to the old generation and left for a full collection: under load one ran about twice a second,
 * and its pauses were most of the slow requests' extra time (docs/benchmark.md). Created with the prototypes Express
 * sets, the objects keep them: Express still makes the call, and it changes nothing.
 */
export function expressServer(app: Express): Server {
  function AppRequest(this: IncomingMessage, socket: Socket) {
    Reflect.apply(IncomingMessage, this, [socket]);
  }
  AppRequest.prototype = app.request;
  function AppResponse(this: ServerResponse, req: IncomingMessage, options?: unknown) {
    Reflect.apply(ServerResponse, this, [req, options]);
  }
  AppResponse.prototype = app.response;
  return createServer(
    {
      IncomingMessage: AppRequest as unknown as typeof IncomingMessage,
      ServerResponse: AppResponse as unknown as typeof ServerResponse,
    },
    app,
  );
}
