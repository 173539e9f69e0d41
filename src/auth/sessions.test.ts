import { randomUUID } from 'node:crypto';
import { SignJWT } from 'jose';
import { describe, expect, it, vi } from 'vitest';
import { useTestApp } from '../../test/helpers/app.ts';

const app = useTestApp({ RATE_LIMIT_EXEMPT_LOOPBACK: 'false', LOGIN_MAX_FAILURES: '5' });

const WRONG = 'not the password at all';

async function failedLoginRows(username: string): Promise<number> {
  return app.services.prisma.auditLog.count({ where: { username, action: 'login_failed' } });
}

describe('login throttling counts before it evaluates', () => {
  it('20 parallel wrong passwords are evaluated at most 5 times, and the right password in the burst gets 429', async () => {
    const user = await app.createUser();
    const wrong = Array.from({ length: 20 }, () => app.api('POST', '/auth/login', { form: { username: user.username, password: WRONG } }));
    const right = app.api('POST', '/auth/login', { form: { username: user.username, password: user.password } });
    const answers = await Promise.all([...wrong, right]);

    const statuses = answers.slice(0, 20).map((answer) => answer.status);
    expect(statuses.filter((status) => status === 401)).toHaveLength(5);
    expect(statuses.filter((status) => status === 429)).toHaveLength(15);
    expect(await failedLoginRows(user.username)).toBe(5);
    expect(answers[20]).toMatchObject({ status: 429, body: { code: 'TOO_MANY_ATTEMPTS' } });
    expect(Number(answers[20].headers.get('retry-after'))).toBeGreaterThan(0);
  });

  it('a successful login forgives earlier failures', async () => {
    const user = await app.createUser();
    for (let attempt = 0; attempt < 4; attempt++) {
      expect((await app.api('POST', '/auth/login', { form: { username: user.username, password: WRONG } })).status).toBe(401);
    }
    await app.login(user.username, user.password);
    for (let attempt = 0; attempt < 4; attempt++) {
      expect((await app.api('POST', '/auth/login', { form: { username: user.username, password: WRONG } })).status).toBe(401);
    }
    expect(await failedLoginRows(user.username)).toBe(8);
  });
});

describe('change-password is throttled per user', () => {
  it('wrong current passwords answer 400 five times, then 429 even for the right one', async () => {
    const user = await app.createUser();
    const token = await app.login(user.username);
    const change = (currentPassword: string) =>
      app.api('POST', '/auth/change-password', {
        token,
        body: { current_password: currentPassword, new_password: 'a brand new passphrase 42' },
      });
    for (let attempt = 0; attempt < 5; attempt++) {
      expect(await change(`guess number ${attempt}`)).toMatchObject({ status: 400, body: { field: 'current_password' } });
    }
    const locked = await change(user.password);
    expect(locked).toMatchObject({ status: 429, body: { code: 'TOO_MANY_ATTEMPTS' } });
    expect(Number(locked.headers.get('retry-after'))).toBeGreaterThan(0);
    // The password did not change: the old one still signs in.
    expect(await app.login(user.username, user.password)).toEqual(expect.any(String));
  });

  it('parallel wrong current passwords are checked at most 5 times', async () => {
    const user = await app.createUser();
    const token = await app.login(user.username);
    const answers = await Promise.all(
      Array.from({ length: 12 }, (_, attempt) =>
        app.api('POST', '/auth/change-password', {
          token,
          body: { current_password: `guess ${attempt}`, new_password: 'another new passphrase 7' },
        }),
      ),
    );
    const statuses = answers.map((answer) => answer.status).sort();
    expect(statuses.filter((status) => status === 400)).toHaveLength(5);
    expect(statuses.filter((status) => status === 429)).toHaveLength(7);
  });
});

describe('deactivation ends sessions', () => {
  it('deactivate then reactivate leaves tokens issued before the deactivation dead', async () => {
    const admin = await app.tokenFor('admin');
    const user = await app.createUser({ role: 'red_tech' });
    const oldToken = await app.login(user.username);
    expect((await app.api('GET', '/auth/me', { token: oldToken })).status).toBe(200);

    expect(await app.api('DELETE', `/users/${user.id}`, { token: admin })).toMatchObject({ status: 200, body: { is_active: false } });
    expect(await app.api('PATCH', `/users/${user.id}`, { token: admin, body: { is_active: true } })).toMatchObject({
      status: 200,
      body: { is_active: true },
    });

    expect(await app.api('GET', '/auth/me', { token: oldToken })).toMatchObject({ status: 401, body: { code: 'NOT_AUTHENTICATED' } });
    const fresh = await app.login(user.username);
    expect(await app.api('GET', '/auth/me', { token: fresh })).toMatchObject({ status: 200, body: { username: user.username } });
  });

  it('deactivating through PATCH is_active=false ends sessions too', async () => {
    const admin = await app.tokenFor('admin');
    const user = await app.createUser();
    const oldToken = await app.login(user.username);
    await app.api('PATCH', `/users/${user.id}`, { token: admin, body: { is_active: false } });
    await app.api('PATCH', `/users/${user.id}`, { token: admin, body: { is_active: true } });
    expect((await app.api('GET', '/auth/me', { token: oldToken })).status).toBe(401);
  });
});

describe('signed tokens with malformed claims', () => {
  async function forge(claims: Record<string, unknown>): Promise<string> {
    const key = new TextEncoder().encode(app.services.config.JWT_SECRET);
    const now = Math.floor(Date.now() / 1000);
    return new SignJWT({ jti: randomUUID(), iat: now, exp: now + 600, role: 'admin', sv: 0, ...claims })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .sign(key);
  }

  const malformed: [string, Record<string, unknown>][] = [
    ['sub that is not a UUID', { sub: 'admin' }],
    ['numeric sub', { sub: 12345 }],
    ['sv that is not an integer', { sv: 1.5 }],
    ['sv as a string', { sv: '0' }],
    ['unknown role', { role: 'superuser' }],
    ['jti that is not a UUID', { jti: "'; drop table users; --" }],
    ['jti as an object', { jti: { nested: true } }],
    ['exp as a string', { exp: 'tomorrow' }],
  ];

  it.each(malformed)('a token with a %s answers 401 over REST and GraphQL', async (_label, claims) => {
    const user = await app.createUser({ role: 'admin' });
    const token = await forge({ sub: user.id, ...claims });
    expect(await app.api('GET', '/auth/me', { token })).toMatchObject({
      status: 401,
      body: { code: 'NOT_AUTHENTICATED', detail: expect.any(String) },
    });
    const graphql = await app.graphql('{ me { id } }', {}, token);
    expect(graphql.status).not.toBe(500);
    expect(graphql.errors?.[0]?.extensions?.code).toBe('NOT_AUTHENTICATED');
  });

  it('a well-formed forged token for a real user is accepted (the check is about shape, not a blanket refusal)', async () => {
    const user = await app.createUser({ role: 'viewer' });
    const token = await forge({ sub: user.id, role: 'viewer' });
    expect(await app.api('GET', '/auth/me', { token })).toMatchObject({ status: 200, body: { id: user.id } });
  });
});

describe('proxy configuration warning', () => {
  it('a loopback request with X-Forwarded-For and TRUST_PROXY unset logs one warning per process', async () => {
    const warn = vi.spyOn(app.services.log, 'warn');
    try {
      await app.api('GET', '/auth/me');
      expect(warn).not.toHaveBeenCalled();
      for (let request = 0; request < 3; request++) {
        await app.api('GET', '/auth/me', { headers: { 'x-forwarded-for': `203.0.113.${request}` } });
      }
      const warnings = warn.mock.calls.filter(([, message]) => typeof message === 'string' && message.includes('TRUST_PROXY'));
      expect(warnings).toHaveLength(1);
      expect(warnings[0][1]).toContain('X-Forwarded-For');
    } finally {
      warn.mockRestore();
    }
  });
});
