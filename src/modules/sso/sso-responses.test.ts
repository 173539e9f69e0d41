import { randomBytes } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, useTestApp } from '../../../test/helpers/app.ts';
import { signingKeys, type AnswerOptions, type SigningKeys } from '../../../test/helpers/saml-idp.ts';
import { ROLE_ATTRIBUTE, SP, SSO_PUBLIC_URL } from '../../../test/helpers/sso.ts';
import { enableSso, postSsoCallback, startSsoLogin, type StartedSignIn, useTestIdp } from '../../../test/helpers/sso.ts';

const app = useTestApp({ PUBLIC_URL: SSO_PUBLIC_URL });
const idp = useTestIdp(app);
let forger: SigningKeys;

beforeAll(async () => {
  forger = await signingKeys('Forger');
});

const MINUTE = 60_000;
const SIGNED_ASSERTION = /<saml:Assertion\b[\s\S]*<\/saml:Assertion>/;
const signatureOf = (xml: string) => /<ds:Signature\b[\s\S]*?<\/ds:Signature>/.exec(xml)![0];
const evilAssertion = (nameId: string, id = '_evil') =>
  `<saml:Assertion xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion" ID="${id}" Version="2.0" IssueInstant="${new Date().toISOString()}">` +
  `<saml:Issuer>${'https://idp.example.test/saml/metadata'}</saml:Issuer><saml:Subject><saml:NameID>${nameId}-admin</saml:NameID></saml:Subject>` +
  `<saml:AttributeStatement><saml:Attribute Name="${ROLE_ATTRIBUTE}"><saml:AttributeValue>Violet Admins</saml:AttributeValue></saml:Attribute></saml:AttributeStatement>`;

interface Case {
  name: string;
  /** The answer's options, given the id of a request the service issued and a fresh NameID. */
  answer: (requestId: string, nameId: string) => Partial<AnswerOptions>;
  /** The reason recorded in the audit log. */
  reason: RegExp;
}

/** Every row is a response to a request the service really issued, refused with 401 SSO_FAILED. */
const CORPUS: Case[] = [
  { name: 'unsigned response and assertion', answer: () => ({ signAssertion: false, signResponse: false }), reason: /Invalid signature/ },
  {
    name: 'signed response around an unsigned assertion (assertions must be signed)',
    answer: () => ({ signAssertion: false }),
    reason: /Invalid signature/,
  },
  { name: 'signed with another certificate', answer: () => ({ signWith: forger }), reason: /Invalid (document )?signature/ },
  {
    name: 'assertion signed with another certificate, response unsigned',
    answer: () => ({ signWith: forger, signResponse: false }),
    reason: /Invalid signature/,
  },
  {
    name: 'attribute tampered with after signing',
    answer: () => ({ attributes: { [ROLE_ATTRIBUTE]: 'Red Team' }, tamper: (xml) => xml.replace('Red Team', 'Violet Admins') }),
    reason: /Invalid (document )?signature/,
  },
  {
    name: 'tampered attribute with the response signature stripped',
    answer: () => ({
      attributes: { [ROLE_ATTRIBUTE]: 'Red Team' },
      signResponse: false,
      tamper: (xml) => xml.replace('Red Team', 'Violet Admins'),
    }),
    reason: /Invalid signature/,
  },
  {
    name: 'a broken Response signature is checked, not ignored, even though the assertion is intact',
    answer: () => ({ tamper: (xml) => xml.replace(/(<samlp:Response[^>]*IssueInstant=")[^"]+/, '$1 2001-01-01T00:00:00Z') }),
    reason: /Invalid document signature/,
  },
  {
    name: 'wrapping: an unsigned assertion injected beside the signed one',
    answer: (_id, nameId) => ({
      signResponse: false,
      tamper: (xml) => xml.replace('</samlp:Response>', `${evilAssertion(nameId)}</saml:Assertion></samlp:Response>`),
    }),
    reason: /multiple assertions/,
  },
  {
    name: 'wrapping: an unsigned assertion injected before the signed one',
    answer: (_id, nameId) => ({
      signResponse: false,
      tamper: (xml) => xml.replace('<samlp:Status>', `${evilAssertion(nameId)}</saml:Assertion><samlp:Status>`),
    }),
    reason: /multiple assertions/,
  },
  {
    name: 'wrapping: the signed assertion hidden inside an unsigned one',
    answer: (_id, nameId) => ({
      signResponse: false,
      tamper: (xml) =>
        xml.replace(SIGNED_ASSERTION, (signed) => `${evilAssertion(nameId)}<saml:Advice>${signed}</saml:Advice></saml:Assertion>`),
    }),
    reason: /Invalid signature/,
  },
  {
    name: "wrapping: the signed assertion's signature moved into an unsigned one",
    answer: (_id, nameId) => ({
      signResponse: false,
      tamper: (xml) =>
        xml.replace(
          SIGNED_ASSERTION,
          (signed) =>
            `${evilAssertion(nameId).replace('</saml:Issuer>', `</saml:Issuer>${signatureOf(signed)}`)}<saml:Advice>${signed.replace(signatureOf(signed), '')}</saml:Advice></saml:Assertion>`,
        ),
    }),
    reason: /signature/i,
  },
  {
    name: 'expired (NotOnOrAfter beyond the clock skew)',
    answer: () => ({ notBefore: new Date(Date.now() - 10 * MINUTE), notOnOrAfter: new Date(Date.now() - 2 * MINUTE) }),
    // node-saml checks the subject confirmation's NotOnOrAfter first, and names that check so.
    reason: /expired|No valid subject confirmation/,
  },
  {
    name: 'conditions expired while the subject confirmation is not',
    answer: () => ({ notOnOrAfter: new Date(Date.now() - 2 * MINUTE), subjectNotOnOrAfter: new Date(Date.now() + 5 * MINUTE) }),
    reason: /SAML assertion expired/,
  },
  {
    name: 'not yet valid (NotBefore beyond the clock skew)',
    answer: () => ({ notBefore: new Date(Date.now() + 5 * MINUTE), notOnOrAfter: new Date(Date.now() + 10 * MINUTE) }),
    reason: /not yet valid/,
  },
  { name: 'for another audience', answer: () => ({ audience: 'https://other-sp.example.test' }), reason: /audience mismatch/ },
  {
    name: 'from another issuer (signed with the configured key)',
    answer: () => ({ issuer: 'https://other-idp.example.test' }),
    reason: /issuer "https:\/\/other-idp.example.test" is not the identity provider/,
  },
  { name: 'to another destination', answer: () => ({ destination: 'https://other-sp.example.test/acs' }), reason: /destination/ },
  { name: 'for another recipient', answer: () => ({ recipient: 'https://other-sp.example.test/acs' }), reason: /recipient/ },
  {
    name: 'answering a request this service never issued',
    answer: () => ({ inResponseTo: '_never_issued' }),
    reason: /InResponseTo is not valid/,
  },
  { name: 'answering no request (IdP-initiated)', answer: () => ({ inResponseTo: null }), reason: /InResponseTo is missing/ },
  {
    name: 'subject confirmation naming another request than the response',
    answer: () => ({ subjectInResponseTo: '_another_request' }),
    reason: /InResponseTo does not match/,
  },
];

const someone = () => `forged.${randomBytes(4).toString('hex')}@example.test`;

async function lastRefusal(): Promise<string> {
  const entry = await app.services.prisma.auditLog.findFirst({ where: { action: 'sso_login_failed' }, orderBy: { timestamp: 'desc' } });
  return (entry?.details as { reason?: string } | undefined)?.reason ?? '';
}

async function expectRefused(samlResponse: string, nameId: string, reason: RegExp, started: StartedSignIn | null) {
  const answer = await postSsoCallback(app, samlResponse, { started });
  expect(answer).toMatchObject({
    status: 401,
    body: { code: 'SSO_FAILED', detail: 'Single sign-on failed' },
    cookie: null,
    location: null,
  });
  expect(await lastRefusal()).toMatch(reason);
  expect(await app.services.prisma.user.count({ where: { username: { startsWith: nameId } } })).toBe(0);
}

describe('SAML responses the callback refuses (401 SSO_FAILED, nobody signed in or created)', () => {
  it.each(CORPUS.map((row) => [row.name, row] as const))('%s', async (_name, row) => {
    const request = await startSsoLogin(app);
    const nameId = someone();
    const answer = idp.response(SP, { inResponseTo: request.id, nameId, ...row.answer(request.id, nameId) });
    await expectRefused(answer, nameId, row.reason, request);
  });

  it('replayed: the same response posted twice signs in once', async () => {
    const request = await startSsoLogin(app);
    const nameId = someone();
    const answer = idp.response(SP, { inResponseTo: request.id, nameId });
    expect((await postSsoCallback(app, answer, { started: request })).status).toBe(303);
    const replay = await postSsoCallback(app, answer, { started: request });
    expect(replay).toMatchObject({ status: 401, body: { code: 'SSO_FAILED' }, cookie: null });
    expect(await lastRefusal()).toMatch(/InResponseTo/);
  });

  it('replayed: a used assertion rewrapped in a new response for a fresh request is refused by the assertion-id cache', async () => {
    const first = await startSsoLogin(app);
    const nameId = someone();
    // An assertion whose subject confirmation names no request: only its id ties it to its first use.
    const options = { nameId, subjectInResponseTo: false, signResponse: false } as const;
    const original = idp.responseXml(SP, { ...options, inResponseTo: first.id });
    expect((await postSsoCallback(app, Buffer.from(original).toString('base64'), { started: first })).status).toBe(303);

    const second = await startSsoLogin(app);
    const rewrapped = original.replace(`InResponseTo="${first.id}"`, `InResponseTo="${second.id}"`);
    const replay = await postSsoCallback(app, Buffer.from(rewrapped).toString('base64'), { started: second });
    expect(replay).toMatchObject({ status: 401, body: { code: 'SSO_FAILED' }, cookie: null });
    expect(await lastRefusal()).toBe('assertion replayed');
  });

  it('a request id is spent by a refused answer too', async () => {
    const request = await startSsoLogin(app);
    const nameId = someone();
    await expectRefused(idp.response(SP, { inResponseTo: request.id, nameId, audience: 'https://elsewhere' }), nameId, /audience/, request);
    await expectRefused(idp.response(SP, { inResponseTo: request.id, nameId }), nameId, /InResponseTo is not valid/, request);
  });

  it.each([
    ['no SAMLResponse', ''],
    ['not base64', '%%%'],
    ['not XML', Buffer.from('hello').toString('base64')],
    ['not a Response', Buffer.from('<samlp:AuthnRequest xmlns:samlp="urn:oasis:names:tc:SAML:2.0:protocol"/>').toString('base64')],
    ['a document type declaration', Buffer.from('<!DOCTYPE x [<!ENTITY a "b">]><x/>').toString('base64')],
  ])('malformed: %s', async (_name, value) => {
    const answer = await postSsoCallback(app, value, { started: await startSsoLogin(app) });
    expect(answer).toMatchObject({ status: 401, body: { code: 'SSO_FAILED' }, cookie: null });
  });
});

describe('login CSRF: an answer completes only the sign-in the posting browser started', () => {
  it("someone else's valid answer, posted from a browser that started no sign-in, signs nobody in and is spent", async () => {
    const attackers = await startSsoLogin(app);
    const nameId = someone();
    const answer = idp.response(SP, { inResponseTo: attackers.id, nameId });
    await expectRefused(answer, nameId, /answers no sign-in this browser started/, null);
    await expectRefused(answer, nameId, /InResponseTo is not valid/, attackers);
  });

  it("someone else's valid answer, posted from a browser that started another sign-in, is refused", async () => {
    const attackers = await startSsoLogin(app);
    const victims = await startSsoLogin(app);
    const nameId = someone();
    await expectRefused(
      idp.response(SP, { inResponseTo: attackers.id, nameId }),
      nameId,
      /answers no sign-in this browser started/,
      victims,
    );
    // The victim's own sign-in still completes.
    const own = await postSsoCallback(app, idp.response(SP, { inResponseTo: victims.id, nameId: someone() }), { started: victims });
    expect(own).toMatchObject({ status: 303, clearsRequestCookie: true });
  });

  it('the request cookie is HttpOnly, scoped to the callback, and expires with the request', async () => {
    const started = await startSsoLogin(app);
    expect(started.setCookie).toMatch(/^svc_sso_request=_[0-9a-f]{40};/);
    expect(started.cookie).toBe(`svc_sso_request=${started.id}`);
    expect(started.setCookie).toMatch(/;\s*Path=\/api\/v1\/sso\/callback/i);
    expect(started.setCookie).toMatch(/;\s*HttpOnly/i);
    expect(started.setCookie).toMatch(/;\s*Max-Age=1800/i);
    // Plain HTTP here: SameSite=None needs Secure, so the cookie is Lax (HTTPS deployments get None; Secure).
    expect(started.setCookie).toMatch(/;\s*SameSite=Lax/i);
  });

  it("over HTTPS the request cookie is SameSite=None; Secure, so that the IdP's cross-site post carries it", async () => {
    const secure = await startTestApp({ PUBLIC_URL: SSO_PUBLIC_URL, COOKIE_SECURE: 'true' });
    try {
      await enableSso(secure, idp);
      const { setCookie } = await startSsoLogin(secure);
      expect(setCookie).toMatch(/;\s*SameSite=None/i);
      expect(setCookie).toMatch(/;\s*Secure/i);
    } finally {
      await secure.close();
    }
  });
});
