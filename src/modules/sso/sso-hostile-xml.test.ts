import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from '../../../test/helpers/app.ts';
import { TestIdp } from '../../../test/helpers/saml-idp.ts';
import { enableSso, postSsoCallback, SP, SSO_PUBLIC_URL, startSsoLogin } from '../../../test/helpers/sso.ts';

const app = useTestApp({ PUBLIC_URL: SSO_PUBLIC_URL });
let idp: TestIdp;

beforeAll(async () => {
  idp = await TestIdp.create();
  await enableSso(app, idp);
});

const EMPTY_SIGNATURE = '<ds:Signature xmlns:ds="http://www.w3.org/2000/09/xmldsig#"/>';
/** The callback's form body limit: every attack has to fit in it. */
const FORM_MAX = 160 * 1024;

/** A signed answer to `inResponseTo` with `count` empty signature elements appended to the Response. */
function withEmptySignatures(inResponseTo: string, count: number): string {
  const xml = idp.responseXml(SP, { inResponseTo, nameId: 'stall@example.test' });
  return Buffer.from(xml.replace('</samlp:Response>', `${EMPTY_SIGNATURE.repeat(count)}</samlp:Response>`)).toString('base64');
}

const form = (samlResponse: string) => new URLSearchParams({ SAMLResponse: samlResponse, RelayState: '/' }).toString();

/** The form with as many empty signatures as fit in the form limit, encoded once (the client's work is not the server's). */
function largestAttack(): { form: string; xmlBytes: number } {
  let count = 2_500;
  while (form(withEmptySignatures('_x', count)).length > FORM_MAX) count -= 50;
  return { form: form(withEmptySignatures('_x', count)), xmlBytes: Buffer.byteLength(withEmptySignatures('_x', count), 'base64') };
}

async function post(body: string): Promise<{ status: number; body: unknown }> {
  const response = await fetch(`${app.url}/api/v1/sso/callback`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body,
  });
  return { status: response.status, body: await response.json() };
}

/** The 99th percentile of `/system/health` latencies (ms) sampled back to back while `attack` runs. */
async function healthLatencyDuring(attack: () => Promise<unknown>): Promise<{ p99: number; samples: number }> {
  const latencies: number[] = [];
  let running = true;
  const sampler = (async () => {
    while (running) {
      const started = performance.now();
      const response = await fetch(`${app.url}/api/v1/system/health`);
      await response.arrayBuffer();
      latencies.push(performance.now() - started);
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  })();
  await attack();
  running = false;
  await sampler;
  latencies.sort((a, b) => a - b);
  return { p99: latencies[Math.min(latencies.length - 1, Math.floor(latencies.length * 0.99))], samples: latencies.length };
}

describe('pathological SAML responses do not stall the API', () => {
  it('the largest response of empty signatures the form takes (115 KB), posted 6 at a time every 500 ms for 2 s (six times the anonymous write budget), keeps /system/health p99 under 200 ms; each is refused', async () => {
    // The budget is 200 ms, or twice what health takes just before without any attack when the machine is that busy.
    const baseline = await healthLatencyDuring(() => new Promise((resolve) => setTimeout(resolve, 1_000)));
    const budget = Math.max(200, 2 * baseline.p99);
    const attack = largestAttack();
    expect(attack.xmlBytes).toBeGreaterThan(110_000);
    const answers: { status: number; body: unknown }[] = [];
    const started = performance.now();
    const { p99, samples } = await healthLatencyDuring(async () => {
      while (answers.length < 12 || performance.now() - started < 2_000) {
        const wave = Promise.all(Array.from({ length: 6 }, () => post(attack.form)));
        await new Promise((resolve) => setTimeout(resolve, 500));
        answers.push(...(await wave));
      }
    });
    expect(samples).toBeGreaterThanOrEqual(3);
    expect(p99, `p99 of ${samples} health checks (${Math.round(baseline.p99)} ms without the attack)`).toBeLessThan(budget);
    for (const answer of answers)
      expect(answer).toMatchObject({ status: 401, body: { code: 'SSO_FAILED', detail: 'Single sign-on failed' } });
    const audit = await app.services.prisma.auditLog.findFirst({ where: { action: 'sso_login_failed' }, orderBy: { timestamp: 'desc' } });
    expect(audit?.details).toMatchObject({ reason: 'the response is larger than 65536 bytes (SSO_MAX_RESPONSE_SIZE)' });
  }, 90_000);

  it('a small response with many signature elements is refused before it is verified, and a good sign-in still works', async () => {
    const request = await startSsoLogin(app);
    const answer = await postSsoCallback(app, withEmptySignatures(request.id, 200), { started: request });
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
