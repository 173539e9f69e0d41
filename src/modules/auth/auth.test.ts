import { randomBytes, randomUUID } from 'node:crypto';
import { SignJWT } from 'jose';
import { afterEach, describe, expect, it } from 'vitest';
import { startTestApp, type ApiResponse, type RequestOptions, useTestApp } from '../../../test/helpers/app.ts';

const JWT_SECRET = randomBytes(32).toString('hex');
const serverErrors: string[] = [];

/** REST call that remembers any 5xx, so every test also proves that no request ends in a 500. */
async function call(method: string, path: string, options?: RequestOptions, on = app): Promise<ApiResponse> {
  const response = await on.api(method, path, options);
  if (response.status >= 500) serverErrors.push(`${method} ${path} → ${response.status} ${JSON.stringify(response.body)}`);
  return response;
}

const me = (token: string) => call('GET', '/auth/me', { token });
const sessionCookie = (response: ApiResponse) => response.headers.getSetCookie().find((cookie) => cookie.startsWith('svc_token='));
const base64url = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
const payloadOf = (token: string) => JSON.parse(Buffer.from(token.split('.')[1], 'base64url').toString());

function signToken(claims: { sub: string; role: string; sv: number; iat: number; exp: number }) {
  return new SignJWT({ role: claims.role, sv: claims.sv })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setSubject(claims.sub)
    .setJti(randomUUID())
    .setIssuedAt(claims.iat)
    .setExpirationTime(claims.exp)
    .sign(new TextEncoder().encode(JWT_SECRET));
}

const app = useTestApp({ JWT_SECRET });
afterEach(() => expect(serverErrors).toEqual([]));

describe('login and sessions', () => {
  it('a form-encoded login returns a bearer token and sets the svc_token cookie (HttpOnly, SameSite=Lax)', async () => {
    const user = await app.createUser({ role: 'red_tech' });
    const response = await call('POST', '/auth/login', { form: { username: user.username, password: user.password } });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ access_token: expect.any(String), token_type: 'bearer' });
    const cookie = sessionCookie(response)!;
    expect(cookie).toContain(`svc_token=${response.body.access_token};`);
    expect(cookie).toMatch(/;\s*HttpOnly/i);
    expect(cookie).toMatch(/;\s*SameSite=Lax/i);
    expect(cookie).toMatch(/;\s*Path=\//i);
  });

  it('the cookie alone authenticates', async () => {
    const user = await app.createUser({ role: 'blue_tech' });
    const token = await app.login(user.username);
    const response = await call('GET', '/auth/me', { headers: { cookie: `svc_token=${token}` } });
    expect(response).toMatchObject({ status: 200, body: { id: user.id, username: user.username, role: 'blue_tech', is_active: true } });
  });

  it('logout revokes the token and clears the cookie', async () => {
    const user = await app.createUser();
    const token = await app.login(user.username);
    const logout = await call('POST', '/auth/logout', { token });
    expect(logout.status).toBe(200);
    expect(sessionCookie(logout)).toMatch(/^svc_token=;.*Expires=Thu, 01 Jan 1970/i);
    expect(await me(token)).toMatchObject({ status: 401, body: { code: 'NOT_AUTHENTICATED' } });
    expect((await call('GET', '/auth/me', { headers: { cookie: `svc_token=${token}` } })).status).toBe(401);
  });

  it('GraphQL answers `me` for the token', async () => {
    const user = await app.createUser({ role: 'blue_lead' });
    const result = await app.graphql('{ me { username role } }', {}, await app.login(user.username));
    expect(result.data).toEqual({ me: { username: user.username, role: 'blue_lead' } });
  });
});

describe('refused tokens', () => {
  it('a token signed with the app secret works until it expires; an expired one gets 401', async () => {
    const user = await app.createUser();
    const now = Math.floor(Date.now() / 1000);
    expect((await me(await signToken({ sub: user.id, role: user.role, sv: 0, iat: now, exp: now + 60 }))).status).toBe(200);
    const expired = await signToken({ sub: user.id, role: user.role, sv: 0, iat: now - 7200, exp: now - 3600 });
    expect(await me(expired)).toMatchObject({ status: 401, body: { code: 'NOT_AUTHENTICATED', detail: 'Token has expired' } });
  });

  it('a token whose payload was changed gets 401', async () => {
    const user = await app.createUser({ role: 'viewer' });
    const token = await app.login(user.username);
    const [header, payload, signature] = token.split('.');
    const middle = Math.floor(payload.length / 2);
    const flipped = `${payload.slice(0, middle)}${payload[middle] === 'A' ? 'B' : 'A'}${payload.slice(middle + 1)}`;
    expect(await me(`${header}.${flipped}.${signature}`)).toMatchObject({ status: 401, body: { code: 'NOT_AUTHENTICATED' } });
    const raised = `${header}.${base64url({ ...payloadOf(token), role: 'admin' })}.${signature}`;
    expect(await me(raised)).toMatchObject({ status: 401, body: { code: 'NOT_AUTHENTICATED' } });
    expect((await call('GET', '/audit-logs', { token: raised })).status).toBe(401);
  });

  it('an unsigned `alg: none` token gets 401', async () => {
    const user = await app.createUser({ role: 'admin' });
    const claims = payloadOf(await app.login(user.username));
    const unsigned = `${base64url({ alg: 'none', typ: 'JWT' })}.${base64url(claims)}.`;
    expect(await me(unsigned)).toMatchObject({ status: 401, body: { code: 'NOT_AUTHENTICATED' } });
  });

  it('the token of a deactivated user gets 401', async () => {
    const user = await app.createUser();
    const token = await app.login(user.username);
    await app.services.prisma.user.update({ where: { id: user.id }, data: { isActive: false } });
    expect(await me(token)).toMatchObject({ status: 401, body: { code: 'NOT_AUTHENTICATED' } });
  });

  it('a missing token gets 401 on a protected route', async () => {
    expect(await call('GET', '/techniques')).toMatchObject({
      status: 401,
      body: { code: 'NOT_AUTHENTICATED', detail: expect.any(String) },
    });
  });
});

describe('failed logins', () => {
  it('a wrong password and an unknown user get the same 401 INVALID_CREDENTIALS body', async () => {
    const user = await app.createUser();
    const wrongPassword = await call('POST', '/auth/login', { form: { username: user.username, password: 'not the password at all' } });
    const unknownUser = await call('POST', '/auth/login', {
      form: { username: `ghost_${user.username}`, password: 'not the password at all' },
    });
    expect(wrongPassword).toMatchObject({ status: 401, body: { code: 'INVALID_CREDENTIALS' } });
    expect(unknownUser.status).toBe(401);
    expect(unknownUser.body).toEqual(wrongPassword.body);
  });

  it('loopback callers are exempt from the lockout by default', async () => {
    const user = await app.createUser();
    for (let attempt = 0; attempt < app.services.config.LOGIN_MAX_FAILURES + 1; attempt++) {
      expect((await call('POST', '/auth/login', { form: { username: user.username, password: 'wrong password here' } })).status).toBe(401);
    }
    expect((await call('POST', '/auth/login', { form: { username: user.username, password: user.password } })).status).toBe(200);
  });

  it('without the loopback exemption, the 4th attempt after 3 failures gets 429 even with the right password; other usernames are not locked', async () => {
    const throttled = await startTestApp({ RATE_LIMIT_EXEMPT_LOOPBACK: 'false', LOGIN_MAX_FAILURES: '3' });
    try {
      const user = await throttled.createUser();
      const other = await throttled.createUser();
      for (let attempt = 0; attempt < 3; attempt++) {
        const failed = await call('POST', '/auth/login', { form: { username: user.username, password: 'wrong password here' } }, throttled);
        expect(failed).toMatchObject({ status: 401, body: { code: 'INVALID_CREDENTIALS' } });
      }
      const locked = await call('POST', '/auth/login', { form: { username: user.username, password: user.password } }, throttled);
      expect(locked).toMatchObject({ status: 429, body: { code: 'TOO_MANY_ATTEMPTS' } });
      expect(Number(locked.headers.get('retry-after'))).toBeGreaterThan(0);
      const unaffected = await call('POST', '/auth/login', { form: { username: other.username, password: other.password } }, throttled);
      expect(unaffected.status).toBe(200);
    } finally {
      await throttled.close();
    }
  });
});

describe('the must-change-password gate', () => {
  it('blocks everything but me and change-password until the password is changed', async () => {
    const user = await app.createUser({ role: 'red_lead', mustChangePassword: true });
    const oldToken = await app.login(user.username);
    const otherSession = await app.login(user.username);
    expect(await call('GET', '/techniques', { token: oldToken })).toMatchObject({
      status: 403,
      body: { code: 'PASSWORD_CHANGE_REQUIRED' },
    });
    expect(await me(oldToken)).toMatchObject({ status: 200, body: { must_change_password: true } });

    const wrongCurrent = await call('POST', '/auth/change-password', {
      token: oldToken,
      body: { current_password: 'not my password', new_password: 'a brand new passphrase' },
    });
    expect(wrongCurrent).toMatchObject({ status: 400, body: { code: 'VALIDATION_ERROR', field: 'current_password' } });
    const tooShort = await call('POST', '/auth/change-password', {
      token: oldToken,
      body: { current_password: user.password, new_password: 'short' },
    });
    expect(tooShort).toMatchObject({ status: 400, body: { code: 'VALIDATION_ERROR', field: 'new_password' } });

    const changed = await call('POST', '/auth/change-password', {
      token: oldToken,
      body: { current_password: user.password, new_password: 'a brand new passphrase' },
    });
    expect(changed).toMatchObject({ status: 200, body: { access_token: expect.any(String), token_type: 'bearer' } });
    const newToken = changed.body.access_token as string;
    expect(newToken).not.toBe(oldToken);
    expect(sessionCookie(changed)).toContain(`svc_token=${newToken};`);

    expect((await call('GET', '/techniques', { token: newToken })).status).toBe(200);
    expect(await me(newToken)).toMatchObject({ status: 200, body: { must_change_password: false } });
    expect((await me(oldToken)).status).toBe(401);
    // Issued within the same second as the change, yet refused: sessions carry the user's session version.
    expect(await me(otherSession)).toMatchObject({ status: 401, body: { detail: 'Token predates a password change' } });
    expect((await call('POST', '/auth/login', { form: { username: user.username, password: 'a brand new passphrase' } })).status).toBe(200);
  });
});

describe('error bodies', () => {
  it('an unknown route answers 404 with detail and code', async () => {
    const response = await call('GET', '/no-such-thing');
    expect(response).toMatchObject({ status: 404, body: { code: 'NOT_FOUND', detail: expect.any(String) } });
  });

  it('malformed JSON answers 400', async () => {
    const response = await call('POST', '/techniques', { token: await app.tokenFor('admin'), body: '{"ttp_id": "T1", ' });
    expect(response).toMatchObject({ status: 400, body: { code: 'BAD_REQUEST', detail: 'The request body is not valid JSON' } });
  });
});
