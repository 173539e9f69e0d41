import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from './helpers/app.ts';

/** Small budgets, and a trusted proxy on loopback so a forwarded address stands for a remote client. */
const app = useTestApp({ TRUST_PROXY: 'loopback', RATE_LIMIT_READS: '3', RATE_LIMIT_WRITES: '2', RATE_LIMIT_EXPENSIVE: '1' });

const from = (address: string, token?: string) => ({
  headers: { 'x-forwarded-for': address },
  ...(token ? { token } : {}),
});

let admin: string;
let viewer: string;

beforeAll(async () => {
  admin = await app.tokenFor('admin');
  viewer = await app.tokenFor('viewer');
});

describe('general rate limits', () => {
  it('answer 429 RATE_LIMITED with Retry-After and the RateLimit fields once a remote address spends its reads', async () => {
    const answers = [];
    for (let i = 0; i < 4; i++) answers.push(await app.api('GET', '/system/health', from('203.0.113.7')));
    expect(answers.slice(0, 3).map((answer) => answer.status)).toEqual([200, 200, 200]);
    expect(answers.map((answer) => answer.headers.get('ratelimit-policy'))).toEqual(Array(4).fill('"reads";q=3;w=60'));
    expect(answers.map((answer) => answer.headers.get('ratelimit')?.replace(/;t=\d+$/, ''))).toEqual([
      '"reads";r=2',
      '"reads";r=1',
      '"reads";r=0',
      '"reads";r=0',
    ]);
    const refused = answers[3];
    expect(refused.status).toBe(429);
    expect(refused.body).toMatchObject({ code: 'RATE_LIMITED', detail: expect.stringMatching(/^Too many reads; retry in \d+ seconds$/) });
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(Number(refused.headers.get('retry-after'))).toBeLessThanOrEqual(60);
    // Another address has its own budget.
    expect((await app.api('GET', '/system/health', from('203.0.113.8'))).status).toBe(200);
  });

  it('exempt loopback callers by default', async () => {
    for (let i = 0; i < 8; i++) {
      const answer = await app.api('GET', '/system/health');
      expect(answer.status).toBe(200);
      expect(answer.headers.get('ratelimit')).toBeNull();
    }
  });

  it('count a signed-in caller per user, wherever the requests come from, with writes and expensive work apart', async () => {
    const reads = [
      await app.api('GET', '/techniques', from('198.51.100.1', admin)),
      await app.api('GET', '/techniques', from('198.51.100.2', admin)),
      await app.api('GET', '/techniques', from('198.51.100.3', admin)),
      await app.api('GET', '/techniques', from('198.51.100.4', admin)),
    ];
    expect(reads.map((answer) => answer.status)).toEqual([200, 200, 200, 429]);
    // The viewer behind the same addresses is another budget.
    expect((await app.api('GET', '/techniques', from('198.51.100.4', viewer))).status).toBe(200);

    const expensive = [
      await app.api('POST', '/risk/compute', from('198.51.100.1', admin)),
      await app.api('POST', '/risk/compute', from('198.51.100.1', admin)),
    ];
    expect(expensive.map((answer) => answer.status)).toEqual([200, 429]);
    expect(expensive[1].headers.get('ratelimit-policy')).toBe('"expensive";q=1;w=60');

    const writes = [];
    for (let i = 0; i < 3; i++) {
      writes.push(
        await app.api('PATCH', '/users/me/preferences', { ...from('198.51.100.1', admin), body: { email_test_validated: false } }),
      );
    }
    expect(writes.map((answer) => answer.status)).toEqual([200, 200, 429]);
  });

  it('apply to GraphQL over HTTP: queries spend reads, and a spent budget is an HTTP 429', async () => {
    const ask = () =>
      fetch(`${app.url}/graphql`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-forwarded-for': '192.0.2.55' },
        body: JSON.stringify({ query: '{ __typename }' }),
      });
    const statuses = [];
    let last: Response | undefined;
    for (let i = 0; i < 4; i++) {
      last = await ask();
      statuses.push(last.status);
    }
    expect(statuses).toEqual([200, 200, 200, 429]);
    expect(last!.headers.get('retry-after')).toMatch(/^\d+$/);
    expect(last!.headers.get('ratelimit-policy')).toBe('"reads";q=3;w=60');
    const body = (await last!.json()) as { errors: { extensions: Record<string, unknown> }[] };
    expect(body.errors[0].extensions).toMatchObject({ code: 'RATE_LIMITED', status: 429 });
  });
});
