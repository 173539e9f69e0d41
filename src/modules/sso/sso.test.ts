import { randomBytes } from 'node:crypto';
import { DOMParser } from '@xmldom/xmldom';
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from '../../../test/helpers/app.ts';
import { EMAIL_ATTRIBUTE, ROLE_ATTRIBUTE, type SamlAttributes, SP, SSO_PUBLIC_URL } from '../../../test/helpers/sso.ts';
import { enableSso, postSsoCallback, signInThroughIdp, startSsoLogin, useTestIdp } from '../../../test/helpers/sso.ts';

const app = useTestApp({ PUBLIC_URL: SSO_PUBLIC_URL });
const idp = useTestIdp(app, { enable: false });

const someone = () => `sso.user.${randomBytes(4).toString('hex')}@example.test`;

const signIn = (nameId: string, attributes?: SamlAttributes) => signInThroughIdp(app, idp, nameId, attributes);

describe('single sign-on: the whole flow', () => {
  beforeAll(async () => {
    await enableSso(app, idp);
  });

  it('login redirects to the IdP with an AuthnRequest; the signed answer signs in, provisions the user and lands on the relay path', async () => {
    const request = await startSsoLogin(app, '/techniques?tactic=TA0001');
    expect(request.location.startsWith(`${idp.ssoUrl}?SAMLRequest=`)).toBe(true);
    expect(request).toMatchObject({
      issuer: SP.entityId,
      acsUrl: SP.acsUrl,
      destination: idp.ssoUrl,
      relayState: '/techniques?tactic=TA0001',
    });
    expect(request.id).toMatch(/^_[0-9a-f]+$/);

    const nameId = someone();
    const answer = idp.response(SP, {
      inResponseTo: request.id,
      nameId,
      attributes: { [EMAIL_ATTRIBUTE]: nameId, [ROLE_ATTRIBUTE]: ['Everyone', 'Red Team'] },
    });
    const callback = await postSsoCallback(app, answer, { relayState: request.relayState!, started: request });
    expect(callback.status, JSON.stringify(callback.body)).toBe(303);
    expect(callback.location).toBe('/techniques?tactic=TA0001');
    expect(callback.clearsRequestCookie).toBe(true);
    expect(callback.cookie).toMatch(/;\s*HttpOnly/i);
    expect(callback.cookie).toMatch(/;\s*SameSite=Lax/i);

    const me = await app.api('GET', '/auth/me', { headers: { cookie: `svc_token=${callback.token}` } });
    expect(me).toMatchObject({ status: 200, body: { username: nameId, email: nameId, role: 'red_tech', must_change_password: false } });
    const user = await app.services.prisma.user.findUniqueOrThrow({ where: { username: nameId } });
    expect(user).toMatchObject({ authSource: 'saml', passwordHash: null });

    const audit = await app.services.prisma.auditLog.findMany({ where: { entityId: user.id } });
    expect(audit.map((entry) => entry.action).sort()).toEqual(['create_user', 'sso_login']);
    expect(audit.find((entry) => entry.action === 'create_user')).toMatchObject({
      username: 'sso',
      details: { username: nameId, role: 'red_tech', source: 'sso' },
    });
    expect(audit.find((entry) => entry.action === 'sso_login')).toMatchObject({
      userId: user.id,
      details: { matched_by: 'created', role: 'red_tech' },
    });
  });

  it('a second sign-in finds the user and takes the role the changed mapping gives', async () => {
    const nameId = someone();
    const first = await signIn(nameId, { [ROLE_ATTRIBUTE]: 'Red Team' });
    expect(first.status).toBe(303);
    const admin = await app.tokenFor('admin');
    const changed = await app.api('PUT', '/sso/config', { token: admin, body: { role_mapping: { 'Red Team': 'red_lead' } } });
    expect(changed).toMatchObject({ status: 200, body: { role_mapping: { 'Red Team': 'red_lead' } } });

    const second = await signIn(nameId, { [ROLE_ATTRIBUTE]: 'Red Team' });
    expect(second.status).toBe(303);
    const me = await app.api('GET', '/auth/me', { token: second.token! });
    expect(me.body).toMatchObject({ username: nameId, role: 'red_lead' });
    expect(await app.services.prisma.user.count({ where: { username: nameId } })).toBe(1);
    const user = await app.services.prisma.user.findUniqueOrThrow({ where: { username: nameId } });
    const update = await app.services.prisma.auditLog.findFirst({ where: { action: 'update_user', entityId: user.id } });
    expect(update).toMatchObject({ username: 'sso', details: { changes: { role: 'red_lead' }, previous_role: 'red_tech', source: 'sso' } });
    const logins = await app.services.prisma.auditLog.findMany({ where: { action: 'sso_login', entityId: user.id } });
    expect(logins.map((entry) => (entry.details as { matched_by: string }).matched_by)).toEqual(['created', 'identity']);
    await enableSso(app, idp);
  });

  it('the highest mapped role wins; values that map to nothing give new users the default role and leave others as they are', async () => {
    const many = await signIn(someone(), { [ROLE_ATTRIBUTE]: ['Red Team', 'Violet Admins', 'blue_leads'] });
    expect((await app.api('GET', '/auth/me', { token: many.token! })).body.role).toBe('admin');

    const nameId = someone();
    const unmapped = await signIn(nameId, { [ROLE_ATTRIBUTE]: ['Somebody Else'] });
    expect((await app.api('GET', '/auth/me', { token: unmapped.token! })).body.role).toBe('viewer');
    await app.services.prisma.user.update({ where: { username: nameId }, data: { role: 'blue_tech' } });
    const again = await signIn(nameId, {});
    expect((await app.api('GET', '/auth/me', { token: again.token! })).body.role).toBe('blue_tech');
  });

  it('users of single sign-on cannot sign in with a password, nor set one; admins still create local users', async () => {
    const nameId = someone();
    expect((await signIn(nameId)).status).toBe(303);
    const guess = await app.api('POST', '/auth/login', { form: { username: nameId, password: 'any password at all' } });
    expect(guess).toMatchObject({ status: 401, body: { code: 'INVALID_CREDENTIALS', detail: 'Incorrect username or password' } });

    const admin = await app.tokenFor('admin');
    const user = await app.services.prisma.user.findUniqueOrThrow({ where: { username: nameId } });
    const reset = await app.api('PATCH', `/users/${user.id}`, { token: admin, body: { password: 'a long enough password' } });
    expect(reset).toMatchObject({ status: 400, body: { code: 'VALIDATION_ERROR', field: 'password' } });

    const created = await app.api('POST', '/users', {
      token: admin,
      body: { username: `local_${randomBytes(3).toString('hex')}`, password: 'a long enough password', role: 'viewer' },
    });
    expect(created.status).toBe(201);
    expect(await app.services.prisma.user.findUniqueOrThrow({ where: { id: created.body.id } })).toMatchObject({ authSource: 'local' });
    const graphql = await app.graphql(`{ user(id: "${user.id}") { authSource } }`, {}, admin);
    expect(graphql.data).toEqual({ user: { authSource: 'saml' } });
  });

  it('the last active admin is not demoted by the role mapping', async () => {
    const nameId = someone();
    await app.services.prisma.user.updateMany({ where: { role: 'admin' }, data: { isActive: false } });
    try {
      await app.services.prisma.user.create({ data: { username: nameId, role: 'admin', authSource: 'saml' } });
      const answer = await signIn(nameId, { [ROLE_ATTRIBUTE]: 'Red Team' });
      expect(answer.status).toBe(303);
      expect((await app.services.prisma.user.findUniqueOrThrow({ where: { username: nameId } })).role).toBe('admin');
    } finally {
      await app.services.prisma.user.updateMany({ where: { role: 'admin', username: { not: nameId } }, data: { isActive: true } });
    }
  });

  it('without auto-provisioning, unknown users are refused and nobody is created', async () => {
    await enableSso(app, idp, { auto_provision: false });
    try {
      const nameId = someone();
      const answer = await signIn(nameId);
      expect(answer).toMatchObject({ status: 401, body: { code: 'SSO_FAILED', detail: 'Single sign-on failed' }, cookie: null });
      expect(await app.services.prisma.user.count({ where: { username: nameId } })).toBe(0);
      const audit = await app.services.prisma.auditLog.findFirst({ where: { action: 'sso_login_failed' }, orderBy: { timestamp: 'desc' } });
      expect(audit?.details).toMatchObject({ reason: 'unknown user and auto-provisioning is off' });
    } finally {
      await enableSso(app, idp);
    }
  });

  it('a deactivated user is refused', async () => {
    const nameId = someone();
    expect((await signIn(nameId)).status).toBe(303);
    await app.services.prisma.user.update({ where: { username: nameId }, data: { isActive: false } });
    expect(await signIn(nameId)).toMatchObject({ status: 401, body: { code: 'SSO_FAILED' } });
  });

  it('a username attribute replaces the NameID', async () => {
    await enableSso(app, idp, { attribute_mapping: { username: 'uid', email: EMAIL_ATTRIBUTE, role: ROLE_ATTRIBUTE } });
    try {
      const uid = `uid_${randomBytes(4).toString('hex')}`;
      const answer = await signIn('opaque-persistent-id', { uid });
      expect(answer.status).toBe(303);
      expect((await app.api('GET', '/auth/me', { token: answer.token! })).body.username).toBe(uid);
    } finally {
      await enableSso(app, idp);
    }
  });
});

describe('relay states', () => {
  beforeAll(async () => {
    await enableSso(app, idp);
  });

  it.each([
    ['/x', '/x'],
    ['/campaigns/42?tab=tests#top', '/campaigns/42?tab=tests#top'],
    ['//evil.example', '/'],
    ['/\\evil.example', '/'],
    ['http://evil.example/', '/'],
    ['https:evil.example', '/'],
    ['javascript:alert(1)', '/'],
    ['/\t/evil.example', '/'],
    ['', '/'],
    [`/${'a'.repeat(600)}`, '/'],
    ['/.//evil.example/phish', '/evil.example/phish'],
    ['/././/evil.example', '/evil.example'],
    ['/..//evil.example', '/evil.example'],
    ['/x/..//evil.example', '/evil.example'],
    ['/%2F%2Fevil.example', '/evil.example'],
    ['/%2f/evil.example', '/evil.example'],
    ['/%252F%252Fevil.example', '/evil.example'],
    ['/%2E%2E//evil.example', '/evil.example'],
    ['/%5Cevil.example', '/'],
    ['/%5C%5Cevil.example', '/'],
    ['\\evil.example', '/'],
    ['\\/evil.example', '/'],
    ['/\\/evil.example', '/'],
    ['/\n/evil.example', '/'],
    ['/%09/evil.example', '/'],
    ['/%0A/evil.example', '/'],
    [' /x', '/'],
    ['https://evil.example/x', '/'],
    ['HTTPS://evil.example', '/'],
    ['javascript:alert(document.domain)', '/'],
    ['/javascript:alert(1)', '/javascript:alert(1)'],
    ['data:text/html,x', '/'],
    ['\uFF0F\uFF0Fevil.example', '/'],
    ['/\uFF0Fevil.example', '/%EF%BC%8Fevil.example'],
    ['/caf\u00e9', '/caf%C3%A9'],
    ['/%', '/'],
    ['/x?next=//evil.example', '/x?next=//evil.example'],
  ])('RelayState %j lands on %j', async (relayState, expected) => {
    const request = await startSsoLogin(app);
    const answer = await postSsoCallback(app, idp.response(SP, { inResponseTo: request.id, nameId: someone() }), {
      relayState,
      started: request,
    });
    expect(answer).toMatchObject({ status: 303, location: expected });
    const landing = new URL(answer.location!, SSO_PUBLIC_URL);
    expect(landing.origin).toBe(SSO_PUBLIC_URL);
    expect(answer.location).toMatch(/^\/(?![/\\])/);
  });

  it('an unsafe relay_state at login is replaced by / before it reaches the IdP', async () => {
    expect((await startSsoLogin(app, '//evil.example')).relayState).toBe('/');
    expect((await startSsoLogin(app, '/ok')).relayState).toBe('/ok');
  });
});

describe('cross-site posts', () => {
  it("the callback takes the IdP's cross-site form post, while other routes still refuse cross-site writes", async () => {
    await enableSso(app, idp);
    const request = await startSsoLogin(app);
    const answer = idp.response(SP, { inResponseTo: request.id, nameId: someone() });
    const fromIdp = { origin: 'https://idp.example.test', 'sec-fetch-site': 'cross-site', referer: 'https://idp.example.test/saml/sso' };
    expect(await postSsoCallback(app, answer, { started: request, headers: fromIdp })).toMatchObject({ status: 303 });

    const elsewhere = await fetch(`${app.url}/api/v1/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', ...fromIdp },
      body: new URLSearchParams({ username: 'x', password: 'y' }),
    });
    expect(elsewhere.status).toBe(403);
    expect(await elsewhere.json()).toMatchObject({ code: 'CSRF_REJECTED' });
  });

  it('the callback reads only form bodies, of at most 160 KB', async () => {
    const json = await fetch(`${app.url}/api/v1/sso/callback`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ SAMLResponse: 'x' }),
    });
    expect(json.status).toBe(415);
    const huge = await postSsoCallback(app, 'A'.repeat(170 * 1024), { started: null });
    expect(huge).toMatchObject({ status: 413, body: { code: 'PAYLOAD_TOO_LARGE' } });
  });
});

describe('SSO switched off', () => {
  it('login and callback answer 409 SSO_DISABLED, status says so, and nothing is created', async () => {
    await enableSso(app, idp);
    const pending = await startSsoLogin(app);
    const admin = await app.tokenFor('admin');
    expect((await app.api('PUT', '/sso/config', { token: admin, body: { enabled: false } })).body).toMatchObject({
      enabled: false,
      configured: true,
    });
    try {
      const login = await fetch(`${app.url}/api/v1/sso/login`, { redirect: 'manual' });
      expect(login.status).toBe(409);
      expect(await login.json()).toEqual({ code: 'SSO_DISABLED', detail: 'Single sign-on is not enabled' });
      const nameId = someone();
      const callback = await postSsoCallback(app, idp.response(SP, { inResponseTo: pending.id, nameId }), { started: pending });
      expect(callback).toMatchObject({ status: 409, body: { code: 'SSO_DISABLED' }, cookie: null });
      expect(await app.services.prisma.user.count({ where: { username: nameId } })).toBe(0);
      expect((await app.api('GET', '/sso/status', { token: await app.tokenFor('viewer') })).body).toEqual({
        configured: true,
        enabled: false,
      });
    } finally {
      await enableSso(app, idp);
    }
  });
});

describe('service-provider metadata', () => {
  it('is SAML metadata XML with the entity id, the HTTP-POST ACS URL and the NameID formats', async () => {
    const response = await fetch(`${app.url}/api/v1/sso/metadata`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^application\/samlmetadata\+xml/);
    const errors: string[] = [];
    const document = new DOMParser({ onError: (level, message) => void (level !== 'warning' && errors.push(message)) }).parseFromString(
      await response.text(),
      'text/xml',
    );
    expect(errors).toEqual([]);
    const md = 'urn:oasis:names:tc:SAML:2.0:metadata';
    const root = document.documentElement!;
    expect([root.namespaceURI, root.localName, root.getAttribute('entityID')]).toEqual([md, 'EntityDescriptor', SP.entityId]);
    const sp = root.getElementsByTagNameNS(md, 'SPSSODescriptor')[0];
    expect(sp.getAttribute('WantAssertionsSigned')).toBe('true');
    const acs = sp.getElementsByTagNameNS(md, 'AssertionConsumerService')[0];
    expect([acs.getAttribute('Binding'), acs.getAttribute('Location')]).toEqual([
      'urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST',
      SP.acsUrl,
    ]);
    const formats = Array.from(sp.getElementsByTagNameNS(md, 'NameIDFormat')).map((element) => element.textContent);
    expect(formats).toEqual([
      'urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress',
      'urn:oasis:names:tc:SAML:2.0:nameid-format:persistent',
      'urn:oasis:names:tc:SAML:1.1:nameid-format:unspecified',
    ]);
  });

  it('names a configured SP entity id instead of the metadata URL', async () => {
    await enableSso(app, idp, { sp_entity_id: 'urn:violet:test' });
    try {
      expect(await (await fetch(`${app.url}/api/v1/sso/metadata`)).text()).toContain('entityID="urn:violet:test"');
    } finally {
      await enableSso(app, idp, { sp_entity_id: null });
    }
  });
});
