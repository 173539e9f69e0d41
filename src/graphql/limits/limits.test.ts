import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { connect } from 'node:net';
import { performance } from 'node:perf_hooks';
import { createClient } from 'graphql-ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { prepareOperation } from '../../../rest-adapter/handler.ts';
import { routes } from '../../../rest-adapter/routes.ts';
import { isCustom } from '../../../rest-adapter/types.ts';
import { loadConfig } from '../../config.ts';
import { measureDocument } from './documents.ts';
import { graphqlLimitsOf } from './rules.ts';
import { schema } from '../schema.ts';
import { startTestApp, type TestApp, useTestApp } from '../../../test/helpers/app.ts';
import { countQueries } from '../../../test/helpers/queries.ts';

const limits = graphqlLimitsOf(loadConfig({}));

let viewer: string;

const app = useTestApp();

beforeAll(async () => {
  viewer = await app.tokenFor('viewer');
});

interface Answer {
  status: number;
  body: any;
  ms: number;
}

/** POST /graphql with a raw body, timed from the first byte sent to the last byte read. */
async function post(body: string, token?: string): Promise<Answer> {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (token) headers.authorization = `Bearer ${token}`;
  const started = performance.now();
  const response = await fetch(`${app.url}/graphql`, { method: 'POST', headers, body });
  const text = await response.text();
  return { status: response.status, body: JSON.parse(text), ms: performance.now() - started };
}

const fastest = (values: number[]) => Math.min(...values);

/**
 * Sends the same request three times: every answer, and the SQL statements that read the techniques or the tests (what
 * the refused documents ask for) meanwhile. A refusal before execution reads none: its cost does not grow with what the
 * document asks for.
 */
async function refusedUnread(body: string, token?: string) {
  const answers: Answer[] = [];
  const statements = await countQueries(async () => {
    for (let i = 0; i < 3; i += 1) answers.push(await post(body, token));
  }, /"public"\."(techniques|tests)"/);
  return { answers, statements };
}

const codeOf = (answer: Answer) => answer.body.errors?.[0]?.extensions?.code;

// technique → tests → technique → tests … : each level multiplies the answer by a page of tests.
function testsOfTests(levels: number): string {
  let selection = 'id';
  for (let i = 0; i < levels; i += 1) selection = `tests { id technique { ttpId ${selection} } }`;
  return selection;
}
const nested = (levels: number) => `{ techniques { ttpId ${testsOfTests(levels)} } }`;

function deep(levels: number): string {
  let selection = 'ttpId';
  for (let i = 0; i < levels - 1; i += 1) selection = `parent { ${selection} }`;
  return `{ technique(ttpId: "T1059") { ${selection} } }`;
}

describe('operations beyond the limits are refused before execution', () => {
  it('a viewer nesting technique → tests → technique → tests four levels deep gets QUERY_TOO_COMPLEX before anything is read', async () => {
    const { answers, statements } = await refusedUnread(JSON.stringify({ query: nested(4) }), viewer);
    for (const answer of answers) {
      expect(answer.status).toBe(400);
      expect(codeOf(answer)).toBe('QUERY_TOO_COMPLEX');
      expect(answer.body.errors[0].extensions.max_cost).toBe(limits.maxCost);
      expect(answer.body.errors[0].extensions.cost).toBeGreaterThan(limits.maxCost);
      expect(answer.body.data).toBeUndefined();
    }
    expect(statements).toBe(0);
  });

  it('technique → threat actors → techniques is refused as too complex', async () => {
    const answer = await post(JSON.stringify({ query: '{ techniques { threatActors { techniques { ttpId } } } }' }), viewer);
    expect(answer.status).toBe(400);
    expect(codeOf(answer)).toBe('QUERY_TOO_COMPLEX');
  });

  it('the cost follows the page sizes in the variables, also for a document already validated', async () => {
    const query = 'query ($n: Int) { techniques { ttpId tests(limit: $n) { id technique { tests(limit: $n) { id } } } } }';
    const small = await post(JSON.stringify({ query, variables: { n: 1 } }), viewer);
    expect(small.status).toBe(200);
    expect(small.body.errors).toBeUndefined();
    expect(Array.isArray(small.body.data.techniques)).toBe(true);
    const large = await post(JSON.stringify({ query, variables: { n: 500 } }), viewer);
    expect(large.status).toBe(400);
    expect(codeOf(large)).toBe('QUERY_TOO_COMPLEX');
  });

  it('an anonymous 52-level query gets QUERY_TOO_DEEP before anything is read', async () => {
    const { answers, statements } = await refusedUnread(JSON.stringify({ query: deep(52) }));
    for (const answer of answers) {
      expect(answer.status).toBe(400);
      expect(codeOf(answer)).toBe('QUERY_TOO_DEEP');
      expect(answer.body.errors[0].extensions.max_depth).toBe(limits.maxDepth);
    }
    expect(statements).toBe(0);
  });

  it('400 aliases of one list field get TOO_MANY_ALIASES before anything is read', async () => {
    const query = `{ ${Array.from({ length: 400 }, (_, i) => `a${i}: techniques { id }`).join(' ')} }`;
    const { answers, statements } = await refusedUnread(JSON.stringify({ query }), viewer);
    for (const answer of answers) {
      expect(answer.status).toBe(400);
      expect(codeOf(answer)).toBe('TOO_MANY_ALIASES');
      expect(answer.body.errors[0].extensions.max_aliases).toBe(limits.maxAliases);
    }
    expect(statements).toBe(0);
  });

  it('an anonymous 800 KB document gets QUERY_TOO_LARGE (413) before anything is read', async () => {
    const query = `{ ${'__typename '.repeat(80_000)}}`;
    expect(query.length).toBeGreaterThan(800_000);
    const { answers, statements } = await refusedUnread(JSON.stringify({ query }));
    for (const answer of answers) {
      expect(answer.status).toBe(413);
      expect(codeOf(answer)).toBe('QUERY_TOO_LARGE');
      expect(answer.body.errors[0].message).toMatch(/larger than 262144 bytes/);
    }
    expect(statements).toBe(0);
  });

  it('a document under the body limit but over the token limit gets QUERY_TOO_LARGE (400)', async () => {
    const query = `{ ${'__typename '.repeat(limits.maxTokens + 10)}}`;
    const answer = await post(JSON.stringify({ query }));
    expect(answer.status).toBe(400);
    expect(codeOf(answer)).toBe('QUERY_TOO_LARGE');
    expect(answer.body.errors[0].extensions.max_tokens).toBe(limits.maxTokens);
  });

  it('a JSON array of operations (a batch) is refused with 400 before anything is read', async () => {
    const batch = JSON.stringify(Array.from({ length: 100 }, () => ({ query: '{ techniques { id } }' })));
    const { answers, statements } = await refusedUnread(batch, viewer);
    for (const answer of answers) {
      expect(answer.status).toBe(400);
      expect(codeOf(answer)).toBe('BAD_REQUEST');
      expect(answer.body.errors[0].message).toMatch(/batching/i);
    }
    expect(statements).toBe(0);
  });

  it('the health check keeps answering in under 100 ms while refused operations arrive', async () => {
    const attacks = Promise.all([
      post(JSON.stringify({ query: nested(5) }), viewer),
      post(JSON.stringify({ query: deep(52) })),
      post(JSON.stringify({ query: `{ ${'__typename '.repeat(80_000)}}` })),
      post(JSON.stringify({ query: `{ ${Array.from({ length: 400 }, (_, i) => `a${i}: techniques { id }`).join(' ')} }` }), viewer),
    ]);
    const timings: number[] = [];
    for (let i = 0; i < 5; i += 1) {
      const started = performance.now();
      const response = await fetch(`${app.url}/api/v1/system/health`);
      await response.text();
      expect(response.status).toBe(200);
      timings.push(performance.now() - started);
    }
    const refused = await attacks;
    expect(refused.map((answer) => answer.status)).toEqual([400, 400, 413, 400]);
    expect(fastest(timings)).toBeLessThan(100);
  });
});

describe('ordinary operations still work', () => {
  it('a dashboard query with a page of tests, the technique list and the executive summary answers', async () => {
    const result = await app.graphql(
      `{ executiveSummary { sentences coverage { coveragePercentage } }
         tests(limit: 50) { total items { id name technique { ttpId } } }
         techniques { ttpId name tests(limit: 5) { id } }
         heatmap { tactics { shortName techniques { ttpId subTechniques { ttpId } } } } }`,
      {},
      viewer,
    );
    expect(result.errors).toBeUndefined();
    expect(result.status).toBe(200);
    expect(Array.isArray(result.data.tests.items)).toBe(true);
    expect(Array.isArray(result.data.techniques)).toBe(true);
    expect(Array.isArray(result.data.executiveSummary.sentences)).toBe(true);
  });
});

describe('REST documents', () => {
  const documents = routes.flatMap((route) =>
    (isCustom(route) ? (route.documents ?? []) : [route.document]).map((document) => ({
      label: `${route.method} ${route.path}`,
      document,
    })),
  );

  it('every document of the route table is within the default limits for any variables', () => {
    expect(documents.length).toBeGreaterThan(100);
    const beyond = documents
      .map(({ label, document }) => ({ label, ...measureDocument(schema, document, limits) }))
      .filter((measure) => measure.problems.length > 0 || !(measure.worstCaseCost <= limits.maxCost / 2));
    // Half the limit: the documents fit comfortably, not just barely.
    expect(beyond).toEqual([]);
  });

  it('a route document that could exceed the limits stops the start-up', () => {
    const source = 'query ($id: UUID!) { campaign(id: $id) { tests { technique { tests { technique { tests { id } } } } } } }';
    expect(() => prepareOperation(schema, source, 'GET /example', limits)).toThrow(
      /GET \/example: the document exceeds the GraphQL limits: its worst-case cost \d+ exceeds/,
    );
  });
});

describe('WebSocket', () => {
  let capped: TestApp;
  beforeAll(async () => {
    capped = await startTestApp({
      TRUST_PROXY: 'loopback',
      WS_MAX_CONNECTIONS: '3',
      WS_MAX_CONNECTIONS_PER_CLIENT: '2',
      WS_CONNECTION_INIT_TIMEOUT: '300ms',
    });
  });
  afterAll(() => capped.close());

  const wsUrl = (target: TestApp) => `${target.url.replace(/^http/, 'ws')}/graphql`;

  /**
   * Upgrades a raw TCP connection, then streams a masked text frame announcing `size` bytes; resolves with the close
   * code the server answers and the time from the frame's first byte to that answer. A raw socket measures the
   * server: a WebSocket client would first buffer and mask the whole frame.
   */
  async function sendHugeFrame(target: TestApp, size: number): Promise<{ code: number; ms: number }> {
    const { port } = new URL(target.url);
    const socket = connect(Number(port), '127.0.0.1');
    await once(socket, 'connect');
    socket.write(
      'GET /graphql HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n' +
        `Sec-WebSocket-Key: ${randomBytes(16).toString('base64')}\r\nSec-WebSocket-Version: 13\r\nSec-WebSocket-Protocol: graphql-transport-ws\r\n\r\n`,
    );
    const [handshake] = (await once(socket, 'data')) as [Buffer];
    expect(handshake.toString('latin1')).toMatch(/^HTTP\/1\.1 101/);
    const header = Buffer.alloc(14);
    header[0] = 0x81; // final text frame
    header[1] = 0x80 | 127; // masked, 64-bit length
    header.writeBigUInt64BE(BigInt(size), 2);
    randomBytes(4).copy(header, 10);
    const closeFrame = new Promise<number>((resolve, reject) => {
      socket.on('data', (chunk: Buffer) => {
        if ((chunk[0] & 0x0f) === 0x8) resolve(chunk.readUInt16BE(2));
      });
      socket.on('error', () => undefined);
      socket.on('close', () => reject(new Error('closed without a close frame')));
    });
    const started = performance.now();
    socket.write(Buffer.concat([header, Buffer.alloc(256 * 1024, 0x61)]));
    const code = await closeFrame;
    const ms = performance.now() - started;
    socket.destroy();
    return { code, ms };
  }

  /** Opens a graphql-transport-ws socket as `client`; resolves with the socket or the refusal's HTTP status. */
  function open(target: TestApp, client = '10.0.0.1'): Promise<{ socket?: WebSocket; status?: number }> {
    const socket = new WebSocket(wsUrl(target), 'graphql-transport-ws', { headers: { 'x-forwarded-for': client } });
    return new Promise((resolve, reject) => {
      socket.once('open', () => resolve({ socket }));
      socket.once('unexpected-response', (_req, res) => resolve({ status: res.statusCode }));
      socket.once('error', reject);
    });
  }

  it('an anonymous 20 MB frame gets a close frame with 1009 (message too big) in under 50 ms', async () => {
    const timings: number[] = [];
    for (let i = 0; i < 3; i += 1) {
      const { code, ms } = await sendHugeFrame(app, 20 * 1024 * 1024);
      expect(code).toBe(1009);
      timings.push(ms);
    }
    expect(fastest(timings)).toBeLessThan(50);
  });

  it('a subscription beyond the limits is refused with the same codes before it starts', async () => {
    const client = createClient({
      url: wsUrl(app),
      webSocketImpl: WebSocket,
      connectionParams: { authorization: `Bearer ${viewer}` },
      retryAttempts: 0,
    });
    const refusal = (query: string) =>
      new Promise<any[]>((resolve, reject) => {
        client.subscribe(
          { query },
          {
            next: () => reject(new Error('unexpected result')),
            error: (errors) => resolve(errors as any[]),
            complete: () => reject(new Error('completed')),
          },
        );
      });
    const costly = await refusal(`subscription { testStateChanged { test { technique { ${testsOfTests(3)} } } } }`);
    expect(costly[0].extensions.code).toBe('QUERY_TOO_COMPLEX');
    let selection = 'id';
    for (let i = 0; i < 52; i += 1) selection = `parent { ${selection} }`;
    const tooDeep = await refusal(`subscription { testStateChanged { test { technique { ${selection} } } } }`);
    expect(tooDeep.map((error) => error.extensions?.code)).toContain('QUERY_TOO_DEEP');
    const tooLong = await refusal(`subscription { ${'__typename '.repeat(limits.maxTokens + 10)}}`);
    expect(tooLong.map((error) => error.extensions?.code)).toEqual(['QUERY_TOO_LARGE']);
    await client.dispose();
  });

  it('a client over its own cap gets 429 and a full server 503, before any handshake; closed sockets free their place', async () => {
    const first = await open(capped, '10.0.0.1');
    const second = await open(capped, '10.0.0.1');
    expect(first.socket && second.socket).toBeTruthy();
    expect(await open(capped, '10.0.0.1')).toEqual({ status: 429 });

    const other = await open(capped, '10.0.0.2');
    expect(other.socket).toBeTruthy();
    expect(await open(capped, '10.0.0.3')).toEqual({ status: 503 });

    first.socket!.close();
    await once(first.socket!, 'close');
    await new Promise((resolve) => setTimeout(resolve, 50));
    const again = await open(capped, '10.0.0.1');
    expect(again.socket).toBeTruthy();
    for (const socket of [second.socket!, other.socket!, again.socket!]) {
      socket.close();
      await once(socket, 'close');
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  });

  it('a socket that never sends connection_init is closed after the init timeout', async () => {
    const { socket } = await open(capped, '10.0.0.9');
    const started = performance.now();
    const [code] = await once(socket!, 'close');
    expect(code).toBe(4408);
    expect(performance.now() - started).toBeLessThan(2000);
  });
});
