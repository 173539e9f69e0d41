import { once } from 'node:events';
import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedRequest {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
}

/** How the receiver answers one request: a status, a redirect, or never (the connection hangs until closed). */
export type Answer = number | { redirect: string } | 'hang';

export interface WebhookReceiver {
  url: string;
  port: number;
  received: ReceivedRequest[];
  /** Requests to `path`, in arrival order. */
  at(path: string): ReceivedRequest[];
  /** The next answers for `path`, in order; afterwards it answers 200. */
  answer(path: string, ...answers: Answer[]): void;
  close(): Promise<void>;
}

/** An HTTP receiver on 127.0.0.1 that records every request and answers as told. */
export async function startWebhookReceiver(): Promise<WebhookReceiver> {
  const received: ReceivedRequest[] = [];
  const plans = new Map<string, Answer[]>();
  const hanging = new Set<ServerResponse>();
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const path = request.url ?? '/';
      received.push({ path, headers: request.headers, body: Buffer.concat(chunks).toString('utf8') });
      const answer = plans.get(path)?.shift() ?? 200;
      if (answer === 'hang') {
        hanging.add(response);
        return;
      }
      if (typeof answer === 'object') {
        response.writeHead(302, { location: answer.redirect }).end();
        return;
      }
      response.writeHead(answer, { 'content-type': 'text/plain' }).end(answer < 300 ? 'ok' : 'failed');
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    received,
    at: (path) => received.filter((request) => request.path === path),
    answer(path, ...answers) {
      plans.set(path, [...(plans.get(path) ?? []), ...answers]);
    },
    async close() {
      for (const response of hanging) response.destroy();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
