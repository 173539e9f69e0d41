import { describe, expect, it } from 'vitest';
import { hashApiKey } from '../../auth/api-keys.ts';
import type { Role } from '../../auth/roles.ts';
import { useTestApp } from '../../../test/helpers/app.ts';

const app = useTestApp();

/** A fresh user of `role`, signed in, with helpers to create keys. */
async function signedIn(role: Role) {
  const user = await app.createUser({ role });
  const token = await app.login(user.username);
  const createKey = async (scope: 'read' | 'write' | 'admin', name = `${scope} key`) => {
    const response = await app.api('POST', '/api-keys', { token, body: { name, scope } });
    expect(response.status, JSON.stringify(response.body)).toBe(201);
    return response.body as { id: string; key: string; prefix: string };
  };
  return { ...user, token, createKey };
}

describe('API keys: creation and listing', () => {
  it('the value is shown once, in the creation answer, and only its hash is stored', async () => {
    const owner = await signedIn('red_tech');
    const created = await app.api('POST', '/api-keys', { token: owner.token, body: { name: 'CI pipeline', scope: 'write' } });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ name: 'CI pipeline', scope: 'write', last_used_at: null, revoked_at: null });
    expect(created.body.key).toMatch(/^svc_[0-9a-f]{64}$/);
    expect(created.body.prefix).toBe(created.body.key.slice(0, 12));
    expect(Object.keys(created.body).sort()).toEqual(['created_at', 'id', 'key', 'last_used_at', 'name', 'prefix', 'revoked_at', 'scope']);

    const row = await app.services.prisma.apiKey.findUniqueOrThrow({ where: { id: created.body.id } });
    expect(row).toMatchObject({ userId: owner.id, keyHash: hashApiKey(created.body.key) });
    expect(JSON.stringify(row)).not.toContain(created.body.key);

    const listed = await app.api('GET', '/api-keys', { token: owner.token });
    const { key: _value, ...fields } = created.body;
    expect(listed.body).toEqual([fields]);
    const audit = await app.services.prisma.auditLog.findFirst({ where: { action: 'create_api_key', entityId: created.body.id } });
    expect(audit).toMatchObject({ userId: owner.id, details: { name: 'CI pipeline', scope: 'write', prefix: created.body.prefix } });
    expect(JSON.stringify(audit)).not.toContain(created.body.key);
  });

  it('lists only the own keys, newest first, revoked ones included', async () => {
    const owner = await signedIn('blue_tech');
    const other = await signedIn('blue_tech');
    const older = await owner.createKey('read', 'older');
    const newer = await owner.createKey('write', 'newer');
    await other.createKey('read', 'not mine');
    await app.api('DELETE', `/api-keys/${older.id}`, { token: owner.token });
    const listed = await app.api('GET', '/api-keys', { token: owner.token });
    expect(listed.body.map((key: any) => [key.name, key.revoked_at !== null])).toEqual([
      ['newer', false],
      ['older', true],
    ]);
    expect(listed.body[0].id).toBe(newer.id);
  });

  it('a key never exceeds its owner: a non-admin asking for the admin scope gets 403 API_KEY_SCOPE', async () => {
    const lead = await signedIn('red_lead');
    const response = await app.api('POST', '/api-keys', { token: lead.token, body: { name: 'too much', scope: 'admin' } });
    expect(response).toMatchObject({ status: 403, body: { code: 'API_KEY_SCOPE' } });
    expect(await app.services.prisma.apiKey.count({ where: { userId: lead.id } })).toBe(0);
  });

  it('invalid input answers 400 naming the field', async () => {
    const user = await signedIn('viewer');
    const post = (body: unknown) => app.api('POST', '/api-keys', { token: user.token, body });
    expect(await post({ scope: 'read' })).toMatchObject({ status: 400, body: { code: 'VALIDATION_ERROR', field: 'name' } });
    expect(await post({ name: '   ', scope: 'read' })).toMatchObject({ status: 400, body: { field: 'name' } });
    expect(await post({ name: 'x'.repeat(101), scope: 'read' })).toMatchObject({ status: 400, body: { field: 'name' } });
    expect(await post({ name: 'ok', scope: 'root' })).toMatchObject({ status: 400, body: { field: 'scope' } });
    expect(await post({ name: 'ok' })).toMatchObject({ status: 400, body: { field: 'scope' } });
  });
});

describe('API keys: authentication', () => {
  it('a key works as a bearer credential and acts as its owner', async () => {
    const owner = await signedIn('blue_lead');
    const { id, key } = await owner.createKey('write');
    const me = await app.api('GET', '/users/me', { token: key });
    expect(me).toMatchObject({ status: 200, body: { id: owner.id, username: owner.username, role: 'blue_lead' } });
    const changed = await app.api('PATCH', '/users/me/preferences', { token: key, body: { theme: 'dark' } });
    expect(changed).toMatchObject({ status: 200, body: { theme: 'dark' } });
    const audit = await app.services.prisma.auditLog.findFirst({ where: { action: 'update_preferences', userId: owner.id } });
    expect(audit?.username).toBe(owner.username);
    expect((await app.services.prisma.apiKey.findUniqueOrThrow({ where: { id } })).lastUsedAt).not.toBeNull();
  });

  it('a read key reads but cannot change anything (403 API_KEY_SCOPE)', async () => {
    const owner = await signedIn('red_lead');
    const { key } = await owner.createKey('read');
    expect(await app.api('GET', '/api-keys', { token: key })).toMatchObject({ status: 200 });
    expect(await app.api('POST', '/api-keys', { token: key, body: { name: 'more', scope: 'read' } })).toMatchObject({
      status: 403,
      body: { code: 'API_KEY_SCOPE' },
    });
    expect(await app.api('PATCH', '/users/me/preferences', { token: key, body: { theme: 'dark' } })).toMatchObject({
      status: 403,
      body: { code: 'API_KEY_SCOPE' },
    });
    const graphql = await app.graphql('mutation { updateMyPreferences(preferences: { theme: "dark" }) }', {}, key);
    expect(graphql.errors?.[0].extensions).toMatchObject({ code: 'API_KEY_SCOPE', status: 403 });
  });

  it("an admin's write key cannot call admin-only routes nor mint an admin key; an admin key can", async () => {
    const admin = await signedIn('admin');
    const write = await admin.createKey('write');
    expect(await app.api('GET', '/users', { token: write.key })).toMatchObject({ status: 403, body: { code: 'API_KEY_SCOPE' } });
    expect(await app.api('POST', '/api-keys', { token: write.key, body: { name: 'escalate', scope: 'admin' } })).toMatchObject({
      status: 403,
      body: { code: 'API_KEY_SCOPE' },
    });
    const adminKey = await admin.createKey('admin');
    expect(await app.api('GET', '/users', { token: adminKey.key })).toMatchObject({ status: 200 });
    const created = await app.api('POST', '/users', {
      token: adminKey.key,
      body: { username: 'made.by.key', password: 'a long enough password', role: 'viewer' },
    });
    expect(created).toMatchObject({ status: 201, body: { username: 'made.by.key' } });
  });

  it("a non-admin's write key cannot call admin-only routes either (403)", async () => {
    const lead = await signedIn('blue_lead');
    const { key } = await lead.createKey('write');
    expect(await app.api('GET', '/users', { token: key })).toMatchObject({ status: 403 });
  });

  it("a deactivated owner's keys stop working", async () => {
    const owner = await signedIn('viewer');
    const { key } = await owner.createKey('read');
    const admin = await app.tokenFor('admin');
    await app.api('DELETE', `/users/${owner.id}`, { token: admin });
    expect(await app.api('GET', '/api-keys', { token: key })).toMatchObject({ status: 401 });
  });
});

describe('API keys: revocation', () => {
  it('the owner revokes a key and it is refused at once with 401', async () => {
    const owner = await signedIn('red_tech');
    const { id, key } = await owner.createKey('write');
    expect((await app.api('GET', '/api-keys', { token: key })).status).toBe(200);
    const revoked = await app.api('DELETE', `/api-keys/${id}`, { token: owner.token });
    expect(revoked).toMatchObject({ status: 200, body: { id } });
    expect(revoked.body.revoked_at).not.toBeNull();
    expect(await app.api('GET', '/api-keys', { token: key })).toMatchObject({ status: 401 });
    expect(await app.services.prisma.auditLog.count({ where: { action: 'revoke_api_key', entityId: id } })).toBe(1);
    // Revoking again changes nothing.
    expect(await app.api('DELETE', `/api-keys/${id}`, { token: owner.token })).toMatchObject({
      status: 200,
      body: { revoked_at: revoked.body.revoked_at },
    });
    expect(await app.services.prisma.auditLog.count({ where: { action: 'revoke_api_key', entityId: id } })).toBe(1);
  });

  it("another non-admin gets 404 for someone else's key, which keeps working", async () => {
    const owner = await signedIn('blue_tech');
    const stranger = await signedIn('blue_lead');
    const { id, key } = await owner.createKey('read');
    expect(await app.api('DELETE', `/api-keys/${id}`, { token: stranger.token })).toMatchObject({
      status: 404,
      body: { code: 'NOT_FOUND' },
    });
    expect(await app.api('DELETE', '/api-keys/00000000-0000-4000-8000-000000000000', { token: stranger.token })).toMatchObject({
      status: 404,
    });
    expect((await app.api('GET', '/api-keys', { token: key })).status).toBe(200);
  });

  it("an admin revokes another user's key; an admin's write key may not", async () => {
    const owner = await signedIn('viewer');
    const admin = await signedIn('admin');
    const first = await owner.createKey('read', 'first');
    const second = await owner.createKey('read', 'second');
    const adminWrite = await admin.createKey('write');
    expect(await app.api('DELETE', `/api-keys/${first.id}`, { token: adminWrite.key })).toMatchObject({
      status: 403,
      body: { code: 'API_KEY_SCOPE' },
    });
    expect(await app.api('DELETE', `/api-keys/${first.id}`, { token: admin.token })).toMatchObject({ status: 200 });
    expect(await app.api('GET', '/api-keys', { token: first.key })).toMatchObject({ status: 401 });
    const audit = await app.services.prisma.auditLog.findFirst({ where: { action: 'revoke_api_key', entityId: first.id } });
    expect(audit).toMatchObject({ userId: admin.id, details: { owner_id: owner.id } });
    expect((await app.api('GET', '/api-keys', { token: second.key })).status).toBe(200);
  });
});
