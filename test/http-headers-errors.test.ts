import { beforeAll, describe, expect, it } from 'vitest';
import { schema } from '../src/graphql/schema.ts';
import { startTestApp, useTestApp, TEST_PASSWORD } from './helpers/app.ts';

let token: string;

// The default NODE_ENV: the one under which stack traces used to leak.
const app = useTestApp({ NODE_ENV: 'development' });

beforeAll(async () => {
  token = await app.tokenFor('admin');
});

const graphqlPost = (body: string, headers: Record<string, string> = {}) =>
  fetch(`${app.url}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}`, ...headers },
    body,
  });

describe('security headers', () => {
  it('every answer says nosniff and refuses framing: REST, GraphQL, pages, assets and unknown paths', async () => {
    const answers = await Promise.all([
      fetch(`${app.url}/api/v1/system/health`),
      graphqlPost(JSON.stringify({ query: '{ __typename }' })),
      fetch(`${app.url}/graphiql`),
      fetch(`${app.url}/static/swagger-ui/swagger-ui-bundle.js`),
      fetch(`${app.url}/no/such/page`),
    ]);
    for (const response of answers) {
      expect(response.headers.get('x-content-type-options'), response.url).toBe('nosniff');
      expect(response.headers.get('x-frame-options'), response.url).toBe('DENY');
      expect(response.headers.get('content-security-policy'), response.url).toContain("frame-ancestors 'none'");
    }
    const api = answers[0].headers.get('content-security-policy');
    expect(api).toContain("default-src 'none'");
  });

  it('GraphiQL and the REST docs may not be framed, and load their local assets', async () => {
    for (const path of ['/graphiql', '/api/v1/docs']) {
      const page = await fetch(`${app.url}${path}`);
      expect(page.status).toBe(200);
      const policy = page.headers.get('content-security-policy') ?? '';
      expect(policy).toContain("frame-ancestors 'none'");
      expect(policy).toContain("script-src 'self' 'unsafe-inline'");
      expect(policy).toContain("connect-src 'self' ws: wss:");
      const html = await page.text();
      for (const [, asset] of html.matchAll(/(?:src|href)="(\/static\/[^"]+)"/g)) {
        expect((await fetch(`${app.url}${asset}`)).status, asset).toBe(200);
      }
    }
  });

  it('a browser opening /graphql is sent to the local GraphiQL, never to a page that loads from a CDN', async () => {
    const browser = await fetch(`${app.url}/graphql`, {
      headers: { accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8' },
      redirect: 'manual',
    });
    expect(browser.status).toBe(302);
    expect(browser.headers.get('location')).toBe('/graphiql');
    // Neither a client's GET nor a browser's GET of an operation is redirected; no answer is Apollo's landing page.
    const operation = encodeURIComponent('{ __typename }');
    for (const accept of ['application/json', 'text/html', '*/*']) {
      const answer = await fetch(`${app.url}/graphql?query=${operation}`, { headers: { accept, 'apollo-require-preflight': 'true' } });
      expect(await answer.text(), accept).not.toMatch(/cdn\.apollographql|fonts\.googleapis/);
    }
    const client = await fetch(`${app.url}/graphql`, { headers: { accept: 'application/json' }, redirect: 'manual' });
    expect(client.status).toBe(400);
    expect(await client.text()).not.toContain('<html');
  });

  it('the login answer and every authenticated answer are no-store', async () => {
    const user = await app.createUser();
    const login = await app.api('POST', '/auth/login', { form: { username: user.username, password: TEST_PASSWORD } });
    expect(login.status).toBe(200);
    expect(login.headers.get('cache-control')).toBe('no-store');
    const me = await app.api('GET', '/auth/me', { token });
    expect(me.headers.get('cache-control')).toBe('no-store');
    const byCookie = await fetch(`${app.url}/api/v1/techniques`, { headers: { cookie: `svc_token=${token}` } });
    expect(byCookie.status).toBe(200);
    expect(byCookie.headers.get('cache-control')).toBe('no-store');
    const graphql = await graphqlPost(JSON.stringify({ query: '{ me { username } }' }));
    expect(graphql.headers.get('cache-control')).toBe('no-store');
    const refused = await app.api('GET', '/auth/me', { token: 'not-a-token' });
    expect(refused.status).toBe(401);
    expect(refused.headers.get('cache-control')).toBe('no-store');
    // No validator either: nothing may be revalidated, so no answer body is hashed for an ETag.
    for (const answer of [login, me, byCookie, graphql]) expect(answer.headers.get('etag')).toBeNull();
  });

  it('no per-field cache hints or traces: the resolvers the REST rows share stay unwrapped after GraphQL requests', async () => {
    const field = schema.getQueryType()!.getFields().techniques;
    const resolver = field.resolve;
    const answer = await graphqlPost(JSON.stringify({ query: '{ techniques { ttpId } }' }));
    expect(answer.status).toBe(200);
    expect(answer.headers.get('cache-control')).toBe('no-store');
    expect(field.resolve).toBe(resolver);
  });
});

describe('error bodies', () => {
  it('GraphQL errors carry no stack trace under NODE_ENV=development', async () => {
    const invalid = await graphqlPost(JSON.stringify({ query: '{ noSuchField }' }));
    const body = await invalid.json();
    expect(invalid.status).toBe(400);
    expect(body.errors[0]).toMatchObject({
      message: expect.stringMatching(/noSuchField/),
      extensions: { code: 'GRAPHQL_VALIDATION_FAILED' },
    });
    expect(JSON.stringify(body)).not.toMatch(/stacktrace|\.ts:\d+/);
    const badVariables = await graphqlPost(JSON.stringify({ query: 'query ($id: ID!) { user(id: $id) { id } }', variables: { id: 7 } }));
    expect(JSON.stringify(await badVariables.json())).not.toContain('stacktrace');
    const domain = await graphqlPost(JSON.stringify({ query: '{ me { id } }' }), { authorization: 'Bearer nope' });
    const domainBody = await domain.json();
    expect(domainBody.errors[0].extensions).toEqual({ code: 'NOT_AUTHENTICATED', status: 401 });
  });

  it('malformed JSON on /graphql answers 400 with a GraphQL-shaped JSON error', async () => {
    const response = await graphqlPost('{"query": "{ __typename }"');
    expect(response.status).toBe(400);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    expect(await response.json()).toEqual({
      errors: [{ message: 'The request body is not valid JSON', extensions: { code: 'BAD_REQUEST', status: 400 } }],
    });
  });

  it('an oversized body on /graphql answers 413 QUERY_TOO_LARGE as JSON', async () => {
    const response = await graphqlPost(JSON.stringify({ query: `{ __typename }#${'x'.repeat(1_100_000)}` }));
    expect(response.status).toBe(413);
    expect(await response.json()).toMatchObject({ errors: [{ extensions: { code: 'QUERY_TOO_LARGE', status: 413 } }] });
  });

  it('unknown paths outside /api/v1 and undecodable ones answer JSON, never an HTML page', async () => {
    for (const [path, status, code] of [
      ['/no/such/page', 404, 'NOT_FOUND'],
      ['/static/graphiql/%E0%A4%A', 404, 'NOT_FOUND'],
      ['/api/v1/users/%E0%A4%A', 400, 'BAD_REQUEST'],
    ] as const) {
      const response = await fetch(`${app.url}${path}`, { headers: { authorization: `Bearer ${token}` } });
      expect(response.status, path).toBe(status);
      expect(response.headers.get('content-type'), path).toMatch(/^application\/json/);
      const body = await response.json();
      expect(body, path).toMatchObject({ code, detail: expect.any(String) });
      expect(JSON.stringify(body)).not.toMatch(/<html|\bat \w+ \(/);
    }
    const put = await fetch(`${app.url}/graphiql`, { method: 'PUT' });
    expect(put.status).toBe(404);
    expect(await put.json()).toMatchObject({ code: 'NOT_FOUND' });
  });

  it('stack traces appear only with DEBUG_ERRORS=true', async () => {
    const debug = await startTestApp({ NODE_ENV: 'production', DEBUG_ERRORS: 'true' });
    try {
      const result = await debug.graphql('{ noSuchField }');
      expect(result.errors?.[0].extensions.stacktrace).toEqual(expect.arrayContaining([expect.any(String)]));
    } finally {
      await debug.close();
    }
  });
});
