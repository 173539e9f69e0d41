import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from './helpers/app.ts';

// One connection and a short wait for it: a burst of concurrent requests while it is held must overflow the pool.
let tokens: string[];

const app = useTestApp({ DATABASE_POOL_SIZE: '1', DATABASE_POOL_TIMEOUT: '200ms' });

beforeAll(async () => {
  tokens = [];
  for (let index = 0; index < 4; index++) {
    const user = await app.createUser({ role: 'red_tech' });
    tokens.push(await app.login(user.username));
  }
});

const THEMES = ['light', 'dark', 'system'] as const;

/**
 * Runs `burst` while a transaction holds the pool's one connection for longer than DATABASE_POOL_TIMEOUT: however
 * fast the machine, the requests that wait behind it overflow the pool; those that come after it succeed.
 */
async function whileTheConnectionIsHeld<T>(burst: () => Promise<T>): Promise<T> {
  let held!: () => void;
  const holding = new Promise<void>((resolve) => {
    held = resolve;
  });
  const holder = app.services.prisma.$transaction(
    async (tx) => {
      held();
      await tx.$executeRaw`SELECT pg_sleep(0.6)`;
    },
    { timeout: 5_000 },
  );
  await holding;
  try {
    return await burst();
  } finally {
    await holder;
  }
}

describe('overload answers 503 with Retry-After, never 500', () => {
  it('a burst of concurrent REST writes on a one-connection pool answers only 2xx or 503 SERVICE_BUSY', async () => {
    const answers = await whileTheConnectionIsHeld(() =>
      Promise.all(
        Array.from({ length: 120 }, (_, index) =>
          app.api('PATCH', '/users/me/preferences', {
            token: tokens[index % tokens.length],
            body: { theme: THEMES[index % THEMES.length] },
          }),
        ),
      ),
    );
    const statuses = answers.map((answer) => answer.status);
    expect(statuses.every((status) => status === 200 || status === 503)).toBe(true);
    const busy = answers.filter((answer) => answer.status === 503);
    expect(busy.length).toBeGreaterThan(0);
    for (const answer of busy) {
      expect(answer.body).toMatchObject({ code: 'SERVICE_BUSY', detail: expect.any(String), retry_after: expect.any(Number) });
      expect(Number(answer.headers.get('retry-after'))).toBeGreaterThan(0);
    }
    for (const answer of answers.filter((answer) => answer.status === 200)) {
      expect(answer.body).toMatchObject({ theme: expect.stringMatching(/^(light|dark|system)$/) });
    }
  });

  it('a burst of concurrent GraphQL mutations answers HTTP 503 with Retry-After and SERVICE_BUSY, never 500', async () => {
    const answers = await whileTheConnectionIsHeld(() =>
      Promise.all(
        Array.from({ length: 120 }, async (_, index) => {
          const response = await fetch(`${app.url}/graphql`, {
            method: 'POST',
            headers: { 'content-type': 'application/json', authorization: `Bearer ${tokens[index % tokens.length]}` },
            body: JSON.stringify({
              query: 'mutation ($p: JSON!) { updateMyPreferences(preferences: $p) }',
              variables: { p: { theme: 'dark' } },
            }),
          });
          return { status: response.status, retryAfter: response.headers.get('retry-after'), body: (await response.json()) as any };
        }),
      ),
    );
    expect(answers.every((answer) => answer.status === 200 || answer.status === 503)).toBe(true);
    const busy = answers.filter((answer) => answer.status === 503);
    expect(busy.length).toBeGreaterThan(0);
    for (const answer of busy) {
      expect(Number(answer.retryAfter)).toBeGreaterThan(0);
      expect(answer.body.errors[0].extensions).toMatchObject({ code: 'SERVICE_BUSY', status: 503 });
      expect(JSON.stringify(answer.body)).not.toContain('INTERNAL_SERVER_ERROR');
    }
    for (const answer of answers.filter((answer) => answer.status === 200)) {
      expect(answer.body).toMatchObject({ data: { updateMyPreferences: { theme: 'dark' } } });
    }
  });

  it('once the burst is over the same requests succeed again', async () => {
    const answer = await app.api('PATCH', '/users/me/preferences', { token: tokens[0], body: { theme: 'light' } });
    expect(answer).toMatchObject({ status: 200, body: { theme: 'light' } });
  });
});
