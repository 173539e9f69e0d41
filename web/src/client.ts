import { createClient as createWsClient } from 'graphql-ws';
import { cacheExchange, Client, fetchExchange, subscriptionExchange } from 'urql';

/**
 * The one GraphQL client of a session: queries and mutations over HTTP, subscriptions over graphql-ws, both
 * authenticated by the HttpOnly session cookie the browser sends to this origin. Signing in or out makes a new one.
 */
export function createClient(): { client: Client; dispose(): void } {
  const ws = createWsClient({
    url: `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/graphql`,
    lazy: true,
    retryAttempts: 20,
  });
  const client = new Client({
    url: '/graphql',
    fetchOptions: { credentials: 'same-origin' },
    preferGetMethod: false,
    exchanges: [
      cacheExchange,
      fetchExchange,
      subscriptionExchange({
        forwardSubscription: (request) => ({
          subscribe: (sink) => ({ unsubscribe: ws.subscribe({ ...request, query: request.query ?? '' }, sink) }),
        }),
      }),
    ],
  });
  return { client, dispose: () => void ws.dispose() };
}
