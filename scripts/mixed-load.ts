/** The load tests' request mix (REST reads and writes, GraphQL) sent by concurrent clients over real HTTP. */

export interface Sample {
  status: number;
  ms: number;
  retryAfter: boolean;
}

export const MIXED_REQUESTS: { method: string; path: string; body?: unknown }[] = [
  { method: 'GET', path: '/api/v1/tests?limit=50' },
  { method: 'GET', path: '/api/v1/techniques?limit=50' },
  { method: 'GET', path: '/api/v1/auth/me' },
  { method: 'GET', path: '/api/v1/metrics/summary' },
  { method: 'GET', path: '/api/v1/notifications' },
  { method: 'PATCH', path: '/api/v1/users/me/preferences', body: { theme: 'dark' } },
  { method: 'POST', path: '/graphql', body: { query: '{ tests(limit: 20) { total items { id state } } }' } },
];

/** `clients` concurrent clients, each sending the mix in turn with one of `tokens`, until `seconds` or `maxRequests`. */
export async function runMixedLoad(
  base: string,
  tokens: string[],
  clients: number,
  seconds: number,
  maxRequests: number,
): Promise<Sample[]> {
  const samples: Sample[] = [];
  const deadline = Date.now() + seconds * 1000;
  let sent = 0;
  await Promise.all(
    Array.from({ length: clients }, async (_, client) => {
      for (let turn = 0; Date.now() < deadline && sent < maxRequests; turn++) {
        sent += 1;
        const request = MIXED_REQUESTS[(client + turn) % MIXED_REQUESTS.length];
        const started = performance.now();
        try {
          const response = await fetch(`${base}${request.path}`, {
            method: request.method,
            headers: {
              authorization: `Bearer ${tokens[client % tokens.length]}`,
              ...(request.body ? { 'content-type': 'application/json' } : {}),
            },
            body: request.body ? JSON.stringify(request.body) : undefined,
          });
          await response.arrayBuffer();
          samples.push({ status: response.status, ms: performance.now() - started, retryAfter: response.headers.has('retry-after') });
        } catch {
          samples.push({ status: 0, ms: performance.now() - started, retryAfter: false });
        }
      }
    }),
  );
  return samples;
}
