import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../../test/helpers/app.ts';
import { postSsoCallback, SP, SSO_PUBLIC_URL, startSsoLogin, useTestIdp, withEmptySignatures } from '../../../test/helpers/sso.ts';

const app = useTestApp({ PUBLIC_URL: SSO_PUBLIC_URL });
const idp = useTestIdp(app);

describe('pathological SAML responses', () => {
  it('a small response with many signature elements is refused before it is verified, and a good sign-in still works', async () => {
    const request = await startSsoLogin(app);
    const answer = await postSsoCallback(app, withEmptySignatures(idp, request.id, 200), { started: request });
    expect(answer).toMatchObject({ status: 401, body: { code: 'SSO_FAILED' }, cookie: null });
    const audit = await app.services.prisma.auditLog.findFirst({ where: { action: 'sso_login_failed' }, orderBy: { timestamp: 'desc' } });
    expect(audit?.details).toMatchObject({ reason: expect.stringMatching(/^the response has more than \d+ signature elements$/) });

    const fresh = await startSsoLogin(app);
    const good = await postSsoCallback(app, idp.response(SP, { inResponseTo: fresh.id, nameId: 'after.stall@example.test' }), {
      started: fresh,
    });
    expect(good.status, JSON.stringify(good.body)).toBe(303);
  });

  const nested = (depth: number) => `${'<saml:Advice>'.repeat(depth)}${'</saml:Advice>'.repeat(depth)}`;
  const namespaces = (count: number) => `<x ${Array.from({ length: count }, (_, index) => `xmlns:n${index}="urn:n${index}"`).join(' ')}/>`;
  it.each([
    [
      'nested 40 deep',
      (xml: string) => xml.replace('</saml:Assertion>', `${nested(40)}</saml:Assertion>`),
      /^the response nests elements more than 32 deep$/,
    ],
    [
      'with 70 namespace declarations',
      (xml: string) => xml.replace('</samlp:Response>', `${namespaces(70)}</samlp:Response>`),
      /^the response declares more than 64 namespaces$/,
    ],
    [
      'with a document type',
      (xml: string) => `<!DOCTYPE r [<!ENTITY a "aaaa">]>${xml}`,
      /^the response holds a document type or entity declaration$/,
    ],
    [
      'with an entity declaration after the root opens',
      (xml: string) => xml.replace('<samlp:Status>', '<!ENTITY a "x"><samlp:Status>'),
      /^the response holds a document type or entity declaration$/,
    ],
    [
      'larger than the limit (64 KB)',
      (xml: string) => xml.replace('</samlp:Response>', `<!--${'x'.repeat(70_000)}--></samlp:Response>`),
      /^the response is larger than 65536 bytes/,
    ],
    [
      'signed with RSA-SHA1 (refused by default)',
      'sha1',
      /^signature algorithm "http:\/\/www.w3.org\/2000\/09\/xmldsig#rsa-sha1" is not accepted \(SHA-1 is refused unless SSO_ALLOW_SHA1 is set\)$/,
    ],
  ] as const)('an answer %s is refused with its reason in the audit log', async (_name, change, reason) => {
    const request = await startSsoLogin(app);
    const nameId = `hostile.${request.id.slice(1, 9)}@example.test`;
    const response =
      change === 'sha1'
        ? idp.response(SP, { inResponseTo: request.id, nameId, hash: 'sha1' })
        : Buffer.from(change(idp.responseXml(SP, { inResponseTo: request.id, nameId }))).toString('base64');
    const answer = await postSsoCallback(app, response, { started: request });
    expect(answer).toMatchObject({ status: 401, body: { code: 'SSO_FAILED', detail: 'Single sign-on failed' }, cookie: null });
    const audit = await app.services.prisma.auditLog.findFirst({ where: { action: 'sso_login_failed' }, orderBy: { timestamp: 'desc' } });
    expect(audit?.details).toMatchObject({ reason: expect.stringMatching(reason) });
    expect(await app.services.prisma.user.count({ where: { username: nameId } })).toBe(0);
  });
});
