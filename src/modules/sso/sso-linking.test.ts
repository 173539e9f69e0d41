import { randomBytes } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from '../../../test/helpers/app.ts';
import { TestIdp } from '../../../test/helpers/saml-idp.ts';
import { EMAIL_ATTRIBUTE, ROLE_ATTRIBUTE, type SamlAttributes, SP, SSO_PUBLIC_URL } from '../../../test/helpers/sso.ts';
import { enableSso, postSsoCallback, signInThroughIdp, useTestIdp } from '../../../test/helpers/sso.ts';
import { bootstrapAdmin } from '../users/bootstrap.ts';

const app = useTestApp({ PUBLIC_URL: SSO_PUBLIC_URL, ADMIN_PASSWORD: 'bootstrap admin password' });
let bootstrapId: string;

beforeAll(async () => {
  expect(await bootstrapAdmin(app.services)).toEqual({ username: 'admin' });
  bootstrapId = (await app.services.prisma.user.findUniqueOrThrow({ where: { username: 'admin' } })).id;
});
// After the bootstrap above: enabling single sign-on signs in as an administrator.
const idp = useTestIdp(app);

const hex = () => randomBytes(4).toString('hex');

const signIn = (nameId: string, attributes?: SamlAttributes) => signInThroughIdp(app, idp, nameId, attributes);

const ACCOUNT_EXISTS = {
  status: 409,
  cookie: null,
  body: {
    code: 'SSO_ACCOUNT_EXISTS',
    detail: 'An account with this username or e-mail already exists; an administrator must link it to your single sign-on identity',
  },
};

const link = async (userId: string, nameId: string) =>
  app.api('PUT', `/users/${userId}/sso-identity`, { token: await app.tokenFor('admin'), body: { name_id: nameId } });

describe('SAML sign-in links identities by issuer and NameID only', () => {
  it("an unknown identity asserting a red lead's e-mail and the admins' group is refused; the red lead is untouched", async () => {
    const redLead = await app.createUser({ role: 'red_lead' });
    const email = `${redLead.username}@corp.example.test`;
    await app.services.prisma.user.update({ where: { id: redLead.id }, data: { email } });
    const answer = await signIn(`stranger.${hex()}@idp.example.test`, {
      [EMAIL_ATTRIBUTE]: email.toUpperCase(),
      [ROLE_ATTRIBUTE]: 'Violet Admins',
    });
    expect(answer).toMatchObject(ACCOUNT_EXISTS);
    expect(await app.services.prisma.user.findUniqueOrThrow({ where: { id: redLead.id } })).toMatchObject({
      role: 'red_lead',
      authSource: 'local',
      ssoNameId: null,
    });
    const audit = await app.services.prisma.auditLog.findFirst({ where: { action: 'sso_login_failed' }, orderBy: { timestamp: 'desc' } });
    expect(audit?.details).toMatchObject({
      reason: `the username or e-mail belongs to account ${redLead.id}, which is not linked to this identity`,
    });
  });

  it('NameID ADMIN does not sign in as the bootstrap admin, nor does one asserting its username in any case', async () => {
    for (const nameId of ['ADMIN', 'admin', 'Admin']) {
      expect(await signIn(nameId, { [ROLE_ATTRIBUTE]: 'Violet Admins' })).toMatchObject(ACCOUNT_EXISTS);
    }
    await enableSso(app, idp, { attribute_mapping: { username: 'uid', email: EMAIL_ATTRIBUTE, role: ROLE_ATTRIBUTE } });
    try {
      expect(await signIn(`opaque-${hex()}`, { uid: 'admin' })).toMatchObject(ACCOUNT_EXISTS);
    } finally {
      await enableSso(app, idp);
    }
    expect(await app.services.prisma.user.findUniqueOrThrow({ where: { id: bootstrapId } })).toMatchObject({
      username: 'admin',
      ssoIssuer: null,
      ssoNameId: null,
    });
  });

  it('the bootstrap admin is never linked, by REST or GraphQL; nothing is stored or audited', async () => {
    const rest = await link(bootstrapId, 'admin@idp.example.test');
    expect(rest).toMatchObject({
      status: 409,
      body: { code: 'SSO_LINK_REFUSED', detail: 'The first administrator is never linked to an identity provider' },
    });
    const graphql = await app.graphql(
      `mutation { linkSsoIdentity(userId: "${bootstrapId}", input: { nameId: "admin@idp.example.test" }) { userId } }`,
      {},
      await app.tokenFor('admin'),
    );
    expect(graphql.errors?.[0]).toMatchObject({ extensions: { code: 'SSO_LINK_REFUSED' } });
    expect(await app.services.prisma.user.findUniqueOrThrow({ where: { id: bootstrapId } })).toMatchObject({ ssoNameId: null });
    expect(await app.services.prisma.auditLog.count({ where: { action: 'link_sso_identity', entityId: bootstrapId } })).toBe(0);
  });

  it('an admin links a local account: its identity signs in as it, the role mapping leaves its role, its password still works', async () => {
    const local = await app.createUser({ role: 'blue_tech' });
    const nameId = `linked.${hex()}@idp.example.test`;
    const linked = await link(local.id, nameId);
    expect(linked).toMatchObject({ status: 200, body: { user_id: local.id, issuer: idp.entityId, name_id: nameId } });
    const audit = await app.services.prisma.auditLog.findFirst({ where: { action: 'link_sso_identity', entityId: local.id } });
    expect(audit).toMatchObject({ details: { username: local.username, issuer: idp.entityId, name_id: nameId, previous: null } });

    const answer = await signIn(nameId, { [ROLE_ATTRIBUTE]: 'Violet Admins', [EMAIL_ATTRIBUTE]: 'new@idp.example.test' });
    expect(answer.status, JSON.stringify(answer.body)).toBe(303);
    expect((await app.api('GET', '/auth/me', { token: answer.token! })).body).toMatchObject({
      id: local.id,
      role: 'blue_tech',
      email: null,
    });
    const login = await app.services.prisma.auditLog.findFirst({ where: { action: 'sso_login', entityId: local.id } });
    expect(login?.details).toMatchObject({ matched_by: 'identity', role: 'blue_tech' });
    expect(await app.login(local.username)).toEqual(expect.any(String));
  });

  it('an identity links to one account only; unlinking stops it signing in as the account; non-admins may do neither', async () => {
    const [first, second] = [await app.createUser(), await app.createUser()];
    const nameId = `one.${hex()}@idp.example.test`;
    expect((await link(first.id, nameId)).status).toBe(200);
    expect(await link(second.id, nameId)).toMatchObject({
      status: 409,
      body: { code: 'SSO_LINK_REFUSED', detail: 'This identity is linked to another user' },
    });
    for (const role of ['red_lead', 'blue_lead', 'viewer'] as const) {
      const token = await app.tokenFor(role);
      expect((await app.api('PUT', `/users/${second.id}/sso-identity`, { token, body: { name_id: 'x' } })).status).toBe(403);
      expect((await app.api('DELETE', `/users/${first.id}/sso-identity`, { token })).status).toBe(403);
    }
    expect(await app.api('PUT', `/users/${second.id}/sso-identity`, { token: await app.tokenFor('admin'), body: {} })).toMatchObject({
      status: 400,
      body: { code: 'VALIDATION_ERROR' },
    });

    const unlinked = await app.api('DELETE', `/users/${first.id}/sso-identity`, { token: await app.tokenFor('admin') });
    expect(unlinked).toMatchObject({ status: 200, body: { user_id: first.id, issuer: null, name_id: null } });
    expect(await app.services.prisma.auditLog.count({ where: { action: 'unlink_sso_identity', entityId: first.id } })).toBe(1);
    const answer = await signIn(nameId);
    expect(answer.status).toBe(303);
    expect((await app.api('GET', '/auth/me', { token: answer.token! })).body.id).not.toBe(first.id);
  });

  it('an IdP-owned account is found by its NameID when its username attribute changes, and takes the mapped role', async () => {
    await enableSso(app, idp, { attribute_mapping: { username: 'uid', email: EMAIL_ATTRIBUTE, role: ROLE_ATTRIBUTE } });
    try {
      const nameId = `persistent-${hex()}`;
      const first = await signIn(nameId, { uid: `before_${hex()}`, [ROLE_ATTRIBUTE]: 'Red Team' });
      const id = (await app.api('GET', '/auth/me', { token: first.token! })).body.id;
      const second = await signIn(nameId, { uid: `after_${hex()}`, [ROLE_ATTRIBUTE]: 'blue_leads' });
      expect((await app.api('GET', '/auth/me', { token: second.token! })).body).toMatchObject({ id, role: 'blue_lead' });
      expect(await app.services.prisma.user.findUniqueOrThrow({ where: { id } })).toMatchObject({
        authSource: 'saml',
        ssoIssuer: idp.entityId,
        ssoNameId: nameId,
      });
    } finally {
      await enableSso(app, idp);
    }
  });

  it('an IdP-owned account created before identities were stored is claimed once by its username, then by its NameID only', async () => {
    const username = `legacy.${hex()}@example.test`;
    const legacy = await app.services.prisma.user.create({ data: { username, role: 'viewer', authSource: 'saml' } });
    const answer = await signIn(username);
    expect(answer.status, JSON.stringify(answer.body)).toBe(303);
    expect(await app.services.prisma.user.findUniqueOrThrow({ where: { id: legacy.id } })).toMatchObject({ ssoNameId: username });
    const login = await app.services.prisma.auditLog.findFirst({ where: { action: 'sso_login', entityId: legacy.id } });
    expect(login?.details).toMatchObject({ matched_by: 'legacy' });
  });
});

describe('a user signed in with their password links their own account', () => {
  async function startLink(token: string) {
    const response = await fetch(`${app.url}/api/v1/sso/link?relay_state=/settings`, {
      redirect: 'manual',
      headers: { authorization: `Bearer ${token}` },
    });
    const text = await response.text();
    if (response.status !== 302) return { status: response.status, body: JSON.parse(text) };
    const setCookie = response.headers.getSetCookie().find((value) => value.startsWith('svc_sso_request='))!;
    return { status: 302, ...TestIdp.authnRequest(response.headers.get('location')!), cookie: setCookie.split(';')[0] };
  }

  it('GET /sso/link, then the IdP answer, links the identity to the account, which then signs in by it with its role', async () => {
    const local = await app.createUser({ role: 'red_lead' });
    const request = await startLink(await app.login(local.username));
    if (!('id' in request)) throw new Error(`no redirect: ${JSON.stringify(request)}`);
    const nameId = `self.${hex()}@idp.example.test`;
    const answer = await postSsoCallback(
      app,
      idp.response(SP, { inResponseTo: request.id, nameId, attributes: { [ROLE_ATTRIBUTE]: 'Violet Admins' } }),
      {
        relayState: request.relayState ?? '/',
        started: request,
      },
    );
    expect(answer).toMatchObject({ status: 303, location: '/settings' });
    expect(await app.services.prisma.user.findUniqueOrThrow({ where: { id: local.id } })).toMatchObject({
      role: 'red_lead',
      ssoIssuer: idp.entityId,
      ssoNameId: nameId,
    });
    const audit = await app.services.prisma.auditLog.findFirst({ where: { action: 'link_sso_identity', entityId: local.id } });
    expect(audit?.details).toMatchObject({ source: 'user', name_id: nameId });
    const again = await signIn(nameId, { [ROLE_ATTRIBUTE]: 'Violet Admins' });
    expect((await app.api('GET', '/auth/me', { token: again.token! })).body).toMatchObject({ id: local.id, role: 'red_lead' });
  });

  it('the bootstrap admin and IdP-owned accounts cannot start a link; nobody signed in gets 401', async () => {
    const bootstrap = await startLink(await app.login('admin', 'bootstrap admin password'));
    expect(bootstrap).toMatchObject({
      status: 409,
      body: { code: 'SSO_LINK_REFUSED', detail: 'The first administrator is never linked to an identity provider' },
    });
    const owned = await signIn(`owned.${hex()}@idp.example.test`);
    expect(await startLink(owned.token!)).toMatchObject({ status: 409, body: { code: 'SSO_LINK_REFUSED' } });
    const anonymous = await fetch(`${app.url}/api/v1/sso/link`, { redirect: 'manual' });
    expect(anonymous.status).toBe(401);
  });
});

describe('a link started by a user for an identity already linked elsewhere', () => {
  it('is refused with 409 SSO_LINK_REFUSED and links nothing', async () => {
    const [holder, other] = [await app.createUser(), await app.createUser()];
    const nameId = `taken.${hex()}@idp.example.test`;
    expect((await link(holder.id, nameId)).status).toBe(200);
    const response = await fetch(`${app.url}/api/v1/sso/link`, {
      redirect: 'manual',
      headers: { authorization: `Bearer ${await app.login(other.username)}` },
    });
    const request = TestIdp.authnRequest(response.headers.get('location')!);
    const cookie = response.headers
      .getSetCookie()
      .find((value) => value.startsWith('svc_sso_request='))!
      .split(';')[0];
    const answer = await postSsoCallback(app, idp.response(SP, { inResponseTo: request.id, nameId }), { started: { cookie } });
    expect(answer).toMatchObject({
      status: 409,
      cookie: null,
      body: { code: 'SSO_LINK_REFUSED', detail: 'This identity is linked to another user' },
    });
    expect(await app.services.prisma.user.findUniqueOrThrow({ where: { id: other.id } })).toMatchObject({ ssoNameId: null });
  });
});
