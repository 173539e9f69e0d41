import { randomBytes } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from '../../../test/helpers/app.ts';
import { signingKeys, TestIdp, type AnswerOptions, type SigningKeys } from '../../../test/helpers/saml-idp.ts';
import { enableSso, postSsoCallback, ROLE_ATTRIBUTE, SP, SSO_PUBLIC_URL, startSsoLogin } from '../../../test/helpers/sso.ts';

const app = useTestApp({ PUBLIC_URL: SSO_PUBLIC_URL });
let idp: TestIdp;
let forger: SigningKeys;

beforeAll(async () => {
  idp = await TestIdp.create();
  forger = await signingKeys('Forger');
  await enableSso(app, idp);
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

async function expectRefused(samlResponse: string, nameId: string, reason: RegExp) {
  const answer = await postSsoCallback(app, samlResponse);
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
    await expectRefused(idp.response(SP, { inResponseTo: request.id, nameId, ...row.answer(request.id, nameId) }), nameId, row.reason);
  });

  it('replayed: the same response posted twice signs in once', async () => {
    const request = await startSsoLogin(app);
    const nameId = someone();
    const answer = idp.response(SP, { inResponseTo: request.id, nameId });
    expect((await postSsoCallback(app, answer)).status).toBe(303);
    const replay = await postSsoCallback(app, answer);
    expect(replay).toMatchObject({ status: 401, body: { code: 'SSO_FAILED' }, cookie: null });
    expect(await lastRefusal()).toMatch(/InResponseTo/);
  });

  it('replayed: a used assertion rewrapped in a new response for a fresh request is refused by the assertion-id cache', async () => {
    const first = await startSsoLogin(app);
    const nameId = someone();
    // An assertion whose subject confirmation names no request: only its id ties it to its first use.
    const options = { nameId, subjectInResponseTo: false, signResponse: false } as const;
    const original = idp.responseXml(SP, { ...options, inResponseTo: first.id });
    expect((await postSsoCallback(app, Buffer.from(original).toString('base64'))).status).toBe(303);

    const second = await startSsoLogin(app);
    const rewrapped = original.replace(`InResponseTo="${first.id}"`, `InResponseTo="${second.id}"`);
    const replay = await postSsoCallback(app, Buffer.from(rewrapped).toString('base64'));
    expect(replay).toMatchObject({ status: 401, body: { code: 'SSO_FAILED' }, cookie: null });
    expect(await lastRefusal()).toBe('assertion replayed');
  });

  it('a request id is spent by a refused answer too', async () => {
    const request = await startSsoLogin(app);
    const nameId = someone();
    await expectRefused(idp.response(SP, { inResponseTo: request.id, nameId, audience: 'https://elsewhere' }), nameId, /audience/);
    await expectRefused(idp.response(SP, { inResponseTo: request.id, nameId }), nameId, /InResponseTo is not valid/);
  });

  it.each([
    ['no SAMLResponse', ''],
    ['not base64', '%%%'],
    ['not XML', Buffer.from('hello').toString('base64')],
    ['not a Response', Buffer.from('<samlp:AuthnRequest xmlns:samlp="urn:oasis:names:tc:SAML:2.0:protocol"/>').toString('base64')],
    ['a document type declaration', Buffer.from('<!DOCTYPE x [<!ENTITY a "b">]><x/>').toString('base64')],
  ])('malformed: %s', async (_name, value) => {
    const answer = await postSsoCallback(app, value);
    expect(answer).toMatchObject({ status: 401, body: { code: 'SSO_FAILED' }, cookie: null });
  });
});
