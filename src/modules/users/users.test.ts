import { beforeAll, describe, expect, it } from 'vitest';
import { togglesOf } from '../notifications/preferences.ts';
import { deactivateUser } from './service.ts';
import { TEST_PASSWORD, useTestApp } from '../../../test/helpers/app.ts';

let admin: string;

const app = useTestApp();

beforeAll(async () => {
  admin = await app.tokenFor('admin');
});

const NEW_PASSWORD = 'a brand new temporary password';
let counter = 0;
const uniqueName = (base: string) => `${base}.${++counter}`;

async function createThroughApi(body: Record<string, unknown> = {}) {
  const response = await app.api('POST', '/users', {
    token: admin,
    body: { username: uniqueName('person'), email: 'person@example.com', password: NEW_PASSWORD, role: 'red_tech', ...body },
  });
  expect(response.status).toBe(201);
  return response.body;
}

describe('users: administration', () => {
  it('an admin creates a user who must change the password; no hash or password is ever answered or audited', async () => {
    const created = await app.api('POST', '/users', {
      token: admin,
      body: { username: 'alice.smith', email: 'alice@example.com', password: NEW_PASSWORD, role: 'blue_tech', display_name: 'Alice' },
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      username: 'alice.smith',
      email: 'alice@example.com',
      role: 'blue_tech',
      is_active: true,
      display_name: 'Alice',
      must_change_password: true,
      tracker_account_id: null,
    });
    expect(Object.keys(created.body).sort()).toEqual(
      [
        'created_at',
        'display_name',
        'email',
        'id',
        'is_active',
        'must_change_password',
        'role',
        'tracker_account_id',
        'updated_at',
        'username',
      ].sort(),
    );
    const audit = await app.services.prisma.auditLog.findFirst({ where: { action: 'create_user', entityId: created.body.id } });
    expect(audit?.details).toEqual({ username: 'alice.smith', role: 'blue_tech' });
    expect(JSON.stringify(audit)).not.toContain(NEW_PASSWORD);

    const token = await app.login('alice.smith', NEW_PASSWORD);
    expect(await app.api('GET', '/users/me', { token })).toMatchObject({ status: 403, body: { code: 'PASSWORD_CHANGE_REQUIRED' } });
  });

  it('only admins manage users: every other role gets 403', async () => {
    const target = await createThroughApi();
    for (const role of ['red_lead', 'blue_lead', 'red_tech', 'blue_tech', 'viewer'] as const) {
      const token = await app.tokenFor(role);
      const calls = [
        app.api('GET', '/users', { token }),
        app.api('POST', '/users', { token, body: { username: uniqueName('nope'), password: NEW_PASSWORD, role: 'viewer' } }),
        app.api('GET', `/users/${target.id}`, { token }),
        app.api('PATCH', `/users/${target.id}`, { token, body: { display_name: 'Hacked' } }),
        app.api('DELETE', `/users/${target.id}`, { token }),
      ];
      for (const response of await Promise.all(calls)) expect(response).toMatchObject({ status: 403, body: { code: 'FORBIDDEN' } });
    }
    expect(await app.api('GET', `/users/${target.id}`, { token: admin })).toMatchObject({
      status: 200,
      body: { display_name: null, is_active: true },
    });
  });

  it('a duplicate username answers 409, even in another letter case', async () => {
    await createThroughApi({ username: 'bob' });
    const duplicate = await app.api('POST', '/users', { token: admin, body: { username: 'bob', password: NEW_PASSWORD, role: 'viewer' } });
    expect(duplicate).toMatchObject({ status: 409, body: { code: 'CONFLICT' } });
    const otherCase = await app.api('POST', '/users', { token: admin, body: { username: 'BOB', password: NEW_PASSWORD, role: 'viewer' } });
    expect(otherCase).toMatchObject({ status: 409, body: { code: 'CONFLICT' } });
  });

  it('invalid input answers 400 naming the field', async () => {
    const post = (body: Record<string, unknown>) =>
      app.api('POST', '/users', { token: admin, body: { username: uniqueName('valid'), password: NEW_PASSWORD, role: 'viewer', ...body } });
    const cases: [Record<string, unknown>, string][] = [
      [{ username: 'ab' }, 'username'],
      [{ username: 'has space' }, 'username'],
      [{ username: 'x'.repeat(151) }, 'username'],
      [{ email: 'not-an-email' }, 'email'],
      [{ password: 'short' }, 'password'],
      [{ username: 'samename.pass', password: 'samename.pass' }, 'password'],
      [{ role: 'superuser' }, 'role'],
      [{ colour: 'red' }, 'colour'],
    ];
    for (const [body, field] of cases) {
      expect(await post(body), JSON.stringify(body)).toMatchObject({ status: 400, body: { code: 'VALIDATION_ERROR', field } });
    }
    const missing = await app.api('POST', '/users', { token: admin, body: { username: uniqueName('valid'), role: 'viewer' } });
    expect(missing).toMatchObject({ status: 400, body: { field: 'password' } });
    const target = await createThroughApi();
    expect(await app.api('PATCH', `/users/${target.id}`, { token: admin, body: { is_active: 'yes' } })).toMatchObject({
      status: 400,
      body: { code: 'VALIDATION_ERROR', field: 'is_active' },
    });
    expect(await app.api('PATCH', `/users/${target.id}`, { token: admin, body: { email: 'nope' } })).toMatchObject({
      status: 400,
      body: { field: 'email' },
    });
  });

  it('lists users a page at a time with role, is_active and search filters', async () => {
    const first = await createThroughApi({ username: 'listing.one', role: 'viewer', display_name: 'Zebra Keeper' });
    await createThroughApi({ username: 'listing.two', role: 'viewer' });
    await app.api('DELETE', `/users/${first.id}`, { token: admin });

    const all = await app.api('GET', '/users', { token: admin });
    expect(all.status).toBe(200);
    expect(all.body).toMatchObject({ offset: 0, limit: 50 });
    expect(all.body.total).toBe(all.body.items.length);
    expect(all.body.items[0]).not.toHaveProperty('password_hash');

    const viewers = await app.api('GET', '/users?role=viewer&search=listing', { token: admin });
    expect(viewers.body.items.map((user: any) => user.username)).toEqual(['listing.one', 'listing.two']);
    const active = await app.api('GET', '/users?role=viewer&search=listing&is_active=true', { token: admin });
    expect(active.body.items.map((user: any) => user.username)).toEqual(['listing.two']);
    const byDisplayName = await app.api('GET', '/users?search=zebra', { token: admin });
    expect(byDisplayName.body).toMatchObject({ total: 1, items: [{ id: first.id, is_active: false }] });

    const paged = await app.api('GET', '/users?offset=1&limit=1', { token: admin });
    expect(paged.body).toMatchObject({ offset: 1, limit: 1, total: all.body.total });
    expect(paged.body.items).toEqual([all.body.items[1]]);
    expect(await app.api('GET', '/users?limit=101', { token: admin })).toMatchObject({ status: 400, body: { field: 'limit' } });
    expect(await app.api('GET', '/users?role=king', { token: admin })).toMatchObject({ status: 400, body: { field: 'role' } });
  });

  it('reads one user; an unknown id answers 404', async () => {
    const target = await createThroughApi({ display_name: 'Reader' });
    expect(await app.api('GET', `/users/${target.id}`, { token: admin })).toMatchObject({
      status: 200,
      body: { id: target.id, display_name: 'Reader' },
    });
    const unknown = await app.api('GET', '/users/00000000-0000-4000-8000-000000000000', { token: admin });
    expect(unknown).toMatchObject({ status: 404, body: { code: 'NOT_FOUND' } });
  });

  it('an admin updates profile fields and role, audited without secrets', async () => {
    const target = await createThroughApi();
    const updated = await app.api('PATCH', `/users/${target.id}`, {
      token: admin,
      body: { email: 'new@example.com', role: 'blue_lead', display_name: 'Promoted', tracker_account_id: 'acct-42' },
    });
    expect(updated).toMatchObject({
      status: 200,
      body: {
        email: 'new@example.com',
        role: 'blue_lead',
        display_name: 'Promoted',
        tracker_account_id: 'acct-42',
        must_change_password: true,
      },
    });
    const cleared = await app.api('PATCH', `/users/${target.id}`, { token: admin, body: { email: null } });
    expect(cleared.body.email).toBeNull();
    const audit = await app.services.prisma.auditLog.findFirst({
      where: { action: 'update_user', entityId: target.id },
      orderBy: { timestamp: 'asc' },
    });
    expect(audit?.details).toEqual({
      username: target.username,
      changes: { email: 'new@example.com', role: 'blue_lead', displayName: 'Promoted', trackerAccountId: 'acct-42' },
    });
  });

  it('a password reset by an admin forces a change at next sign-in and is audited without the password', async () => {
    const user = await app.createUser({ role: 'red_tech' });
    const before = await app.login(user.username);
    expect((await app.api('GET', '/users/me', { token: before })).status).toBe(200);

    const reset = await app.api('PATCH', `/users/${user.id}`, { token: admin, body: { password: NEW_PASSWORD } });
    expect(reset).toMatchObject({ status: 200, body: { must_change_password: true } });
    const row = await app.services.prisma.user.findUniqueOrThrow({ where: { id: user.id } });
    expect(row.passwordChangedAt!.getTime()).toBeGreaterThan(Date.now() - 10_000);

    expect(await app.api('POST', '/auth/login', { form: { username: user.username, password: TEST_PASSWORD } })).toMatchObject({
      status: 401,
    });
    const token = await app.login(user.username, NEW_PASSWORD);
    expect(await app.api('GET', '/techniques', { token })).toMatchObject({ status: 403, body: { code: 'PASSWORD_CHANGE_REQUIRED' } });
    expect(await app.api('GET', '/users/me', { token })).toMatchObject({ status: 403, body: { code: 'PASSWORD_CHANGE_REQUIRED' } });

    const audit = await app.services.prisma.auditLog.findFirst({ where: { action: 'update_user', entityId: user.id } });
    expect(audit?.details).toMatchObject({ password_reset: true, changes: {} });
    expect(JSON.stringify(audit)).not.toContain(NEW_PASSWORD);
  });

  it('soft delete deactivates: the record stays, login is refused and an existing token answers 401', async () => {
    const user = await app.createUser({ role: 'blue_tech' });
    const token = await app.login(user.username);
    const deleted = await app.api('DELETE', `/users/${user.id}`, { token: admin });
    expect(deleted).toMatchObject({ status: 200, body: { id: user.id, is_active: false } });
    expect(await app.services.prisma.user.findUnique({ where: { id: user.id } })).toMatchObject({ isActive: false });
    expect(await app.api('GET', '/users/me', { token })).toMatchObject({ status: 401 });
    expect(await app.api('POST', '/auth/login', { form: { username: user.username, password: TEST_PASSWORD } })).toMatchObject({
      status: 401,
      body: { code: 'INVALID_CREDENTIALS' },
    });
    expect(await app.services.prisma.auditLog.count({ where: { action: 'deactivate_user', entityId: user.id } })).toBe(1);
    // Deleting again changes nothing.
    expect(await app.api('DELETE', `/users/${user.id}`, { token: admin })).toMatchObject({ status: 200, body: { is_active: false } });
    expect(await app.services.prisma.auditLog.count({ where: { action: 'deactivate_user', entityId: user.id } })).toBe(1);
  });
});

describe('users: admins keep control', () => {
  it('an admin cannot deactivate, delete or demote themselves', async () => {
    const self = await app.createUser({ role: 'admin' });
    const token = await app.login(self.username);
    for (const [method, body] of [
      ['PATCH', { is_active: false }],
      ['PATCH', { role: 'viewer' }],
      ['DELETE', undefined],
    ] as const) {
      expect(await app.api(method, `/users/${self.id}`, { token, body })).toMatchObject({ status: 400, body: { code: 'SELF_LOCKOUT' } });
    }
    expect(await app.api('PATCH', `/users/${self.id}`, { token, body: { display_name: 'Still me' } })).toMatchObject({ status: 200 });
  });

  it('the last active admin cannot be deactivated or demoted', async () => {
    const last = await app.createUser({ role: 'admin' });
    const others = await app.services.prisma.user.findMany({
      where: { role: 'admin', isActive: true, id: { not: last.id } },
      select: { id: true },
    });
    await app.services.prisma.user.updateMany({ where: { id: { in: others.map((user) => user.id) } }, data: { isActive: false } });
    try {
      // No admin could make this call over HTTP; a worker or script calling the service is held to the same rule.
      const someone = {
        userId: others[0].id,
        username: 'script',
        role: 'admin' as const,
        mustChangePassword: false,
        via: 'token' as const,
      };
      await expect(deactivateUser(app.services, someone, last.id)).rejects.toMatchObject({ status: 409, code: 'LAST_ADMIN' });
    } finally {
      await app.services.prisma.user.updateMany({ where: { id: { in: others.map((user) => user.id) } }, data: { isActive: true } });
    }
  });

  it('two admins deactivating each other at once leave one active admin', async () => {
    const [a, b] = [await app.createUser({ role: 'admin' }), await app.createUser({ role: 'admin' })];
    const [tokenA, tokenB] = [await app.login(a.username), await app.login(b.username)];
    const others = await app.services.prisma.user.findMany({
      where: { role: 'admin', isActive: true, id: { notIn: [a.id, b.id] } },
      select: { id: true },
    });
    await app.services.prisma.user.updateMany({ where: { id: { in: others.map((user) => user.id) } }, data: { isActive: false } });
    try {
      const results = await Promise.all([
        app.api('DELETE', `/users/${b.id}`, { token: tokenA }),
        app.api('DELETE', `/users/${a.id}`, { token: tokenB }),
      ]);
      expect(results.filter((result) => result.status === 200)).toHaveLength(1);
      const refused = results.find((result) => result.status !== 200)!;
      // Either the loser's request ran after the winner's commit (its own account is now inactive: 401),
      // or both ran together and the lock made the second see no other admin (409).
      expect([401, 409]).toContain(refused.status);
      if (refused.status === 409) expect(refused.body.code).toBe('LAST_ADMIN');
      expect(await app.services.prisma.user.count({ where: { id: { in: [a.id, b.id] }, isActive: true } })).toBe(1);
    } finally {
      await app.services.prisma.user.updateMany({ where: { id: { in: others.map((user) => user.id) } }, data: { isActive: true } });
    }
  });
});

describe('users: own profile and preferences', () => {
  it('GET /users/me answers the own profile with the effective preferences', async () => {
    const user = await app.createUser({ role: 'blue_lead' });
    const token = await app.login(user.username);
    const me = await app.api('GET', '/users/me', { token });
    expect(me).toMatchObject({
      status: 200,
      body: { id: user.id, username: user.username, role: 'blue_lead', must_change_password: false },
    });
    expect(me.body.preferences).toMatchObject({
      theme: 'system',
      in_app_test_validated: true,
      email_new_techniques: true,
      in_app_intel_findings: true,
    });
    // One toggle per notice a blue lead can receive and channel it uses (the notice table), and the theme.
    expect(Object.keys(me.body.preferences).sort()).toEqual([...togglesOf('blue_lead'), 'theme'].sort());
    expect(me.body.preferences).not.toHaveProperty('in_app_test_ready_for_blue');
    expect(me.body.preferences).not.toHaveProperty('email_test_ready_for_review');
    expect(me.body).not.toHaveProperty('password_hash');
  });

  it('PATCH /users/me/preferences merges into the stored preferences and answers the effective ones', async () => {
    const user = await app.createUser({ role: 'red_lead' });
    const token = await app.login(user.username);
    const first = await app.api('PATCH', '/users/me/preferences', { token, body: { theme: 'dark', email_test_validated: false } });
    expect(first).toMatchObject({ status: 200, body: { theme: 'dark', email_test_validated: false, in_app_test_validated: true } });
    const second = await app.api('PATCH', '/users/me/preferences', { token, body: { in_app_new_techniques: false } });
    expect(second.body).toMatchObject({
      theme: 'dark',
      email_test_validated: false,
      in_app_new_techniques: false,
      in_app_test_validated: true,
    });
    const row = await app.services.prisma.user.findUniqueOrThrow({ where: { id: user.id } });
    expect(row.preferences).toEqual({ theme: 'dark', email_test_validated: false, in_app_new_techniques: false });
    expect((await app.api('GET', '/users/me', { token })).body.preferences).toEqual(second.body);
    const audit = await app.services.prisma.auditLog.findFirst({
      where: { action: 'update_preferences', userId: user.id },
      orderBy: { timestamp: 'desc' },
    });
    expect(audit?.details).toEqual({ changes: { in_app_new_techniques: false } });
  });

  it('an unknown preference or a value of the wrong type answers 400 naming the field, and nothing changes', async () => {
    const user = await app.createUser({ role: 'viewer' });
    const token = await app.login(user.username);
    const cases: [Record<string, unknown>, string][] = [
      [{ colour: 'red' }, 'colour'],
      [{ in_app_test_validated: 'no' }, 'in_app_test_validated'],
      [{ theme: 'blue' }, 'theme'],
      [{ theme: 'dark', email_campaign_completed: null }, 'email_campaign_completed'],
    ];
    for (const [body, field] of cases) {
      expect(await app.api('PATCH', '/users/me/preferences', { token, body }), field).toMatchObject({
        status: 400,
        body: { code: 'VALIDATION_ERROR', field },
      });
    }
    expect((await app.services.prisma.user.findUniqueOrThrow({ where: { id: user.id } })).preferences).toEqual({});
  });

  it("a toggle of a notice the caller's role cannot receive is refused", async () => {
    const user = await app.createUser({ role: 'blue_tech' });
    const token = await app.login(user.username);
    expect(await app.api('PATCH', '/users/me/preferences', { token, body: { in_app_test_ready_for_blue: false } })).toMatchObject({
      status: 200,
      body: { in_app_test_ready_for_blue: false, in_app_revalidation_needed: true },
    });
    expect(await app.api('PATCH', '/users/me/preferences', { token, body: { email_alert_fired: false } })).toMatchObject({
      status: 400,
      body: { code: 'VALIDATION_ERROR', field: 'email_alert_fired' },
    });
  });

  it('GraphQL shows preferences to the user themself and to admins', async () => {
    const user = await app.createUser({ role: 'viewer' });
    const token = await app.login(user.username);
    await app.graphql('mutation { updateMyPreferences(preferences: { theme: "light" }) }', {}, token);
    const own = await app.graphql('{ me { preferences } }', {}, token);
    expect(own.data.me.preferences).toMatchObject({ theme: 'light' });
    const asAdmin = await app.graphql('query ($id: UUID!) { user(id: $id) { username preferences } }', { id: user.id }, admin);
    expect(asAdmin.data.user).toMatchObject({ username: user.username, preferences: { theme: 'light' } });
    const listed = await app.graphql('query { users(filter: { search: "viewer" }, limit: 100) { total items { id } } }', {}, admin);
    expect(listed.data.users.items.map((item: any) => item.id)).toContain(user.id);
  });
});

describe('users: assignable to tests', () => {
  const ASSIGNABLE = 'query { assignableUsers { id username displayName role } }';

  it('leads list the active red and blue techs and leads by username, with only id, username, display name and role', async () => {
    const tech = await app.createUser({ role: 'blue_tech', username: 'assignable.blue.tech' });
    const lead = await app.createUser({ role: 'red_lead', username: 'assignable.red.lead' });
    const inactive = await app.createUser({ role: 'red_tech', username: 'assignable.inactive', isActive: false });
    const viewer = await app.createUser({ role: 'viewer', username: 'assignable.viewer' });
    const other = await app.createUser({ role: 'admin', username: 'assignable.admin' });
    for (const role of ['red_lead', 'blue_lead', 'admin'] as const) {
      const result = await app.graphql(ASSIGNABLE, {}, await app.tokenFor(role));
      expect(result.errors).toBeUndefined();
      const listed: { id: string; username: string; role: string }[] = result.data.assignableUsers;
      const ids = listed.map((user) => user.id);
      expect(ids).toEqual(expect.arrayContaining([tech.id, lead.id]));
      for (const absent of [inactive.id, viewer.id, other.id]) expect(ids).not.toContain(absent);
      for (const user of listed) expect(['red_lead', 'blue_lead', 'red_tech', 'blue_tech']).toContain(user.role);
      expect(ids.indexOf(tech.id)).toBeLessThan(ids.indexOf(lead.id));
      expect(listed.find((user) => user.id === tech.id)).toEqual({
        id: tech.id,
        username: tech.username,
        displayName: null,
        role: 'blue_tech',
      });
    }
  });

  it('techs and viewers are refused, and the list names no private field', async () => {
    for (const role of ['red_tech', 'blue_tech', 'viewer'] as const) {
      const result = await app.graphql(ASSIGNABLE, {}, await app.tokenFor(role));
      expect(result.errors?.map((error: any) => error.extensions?.code)).toEqual(['FORBIDDEN']);
      expect(result.data?.assignableUsers ?? null).toBeNull();
    }
    const leaking = await app.graphql('query { assignableUsers { id email } }', {}, await app.tokenFor('red_lead'));
    expect(leaking.errors?.[0].message).toMatch('Cannot query field "email" on type "AssignableUser"');
  });
});
