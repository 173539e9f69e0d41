import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../../test/helpers/app.ts';
import { postSsoCallback, SP, SSO_PUBLIC_URL, startSsoLogin, useTestIdp } from '../../../test/helpers/sso.ts';

// One XML worker and no waiting room, and SHA-1 allowed: the settings a deployment may choose.
const app = useTestApp({ PUBLIC_URL: SSO_PUBLIC_URL, SSO_XML_WORKERS: '1', SSO_XML_QUEUE: '0', SSO_ALLOW_SHA1: 'true' });
const idp = useTestIdp(app);

describe('SAML verification settings', () => {
  it('with SSO_ALLOW_SHA1 set, an answer signed with RSA-SHA1 signs in', async () => {
    const request = await startSsoLogin(app);
    const nameId = `sha1.${request.id.slice(1, 9)}@example.test`;
    const answer = await postSsoCallback(app, idp.response(SP, { inResponseTo: request.id, nameId, hash: 'sha1' }), { started: request });
    expect(answer.status, JSON.stringify(answer.body)).toBe(303);
    expect((await app.api('GET', '/auth/me', { token: answer.token! })).body).toMatchObject({ username: nameId });
  });

  it('answers beyond the busy worker and its queue get 503 SSO_BUSY with Retry-After; the worker still serves the next', async () => {
    const requests = await Promise.all(Array.from({ length: 8 }, () => startSsoLogin(app)));
    const answers = await Promise.all(
      requests.map((request) =>
        fetch(`${app.url}/api/v1/sso/callback`, {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: request.cookie },
          body: new URLSearchParams({ SAMLResponse: idp.response(SP, { inResponseTo: request.id, nameId: 'busy@example.test' }) }),
          redirect: 'manual',
        }).then(async (response) => ({
          status: response.status,
          retryAfter: response.headers.get('retry-after'),
          body: await response.text(),
        })),
      ),
    );
    const busy = answers.filter((answer) => answer.status === 503);
    expect(busy.length).toBeGreaterThan(0);
    for (const answer of busy) {
      expect(JSON.parse(answer.body)).toEqual({
        detail: 'Single sign-on is busy; try again in a moment',
        code: 'SSO_BUSY',
        retry_after: 2,
      });
      expect(answer.retryAfter).toBe('2');
    }
    expect(answers.filter((answer) => answer.status === 303).length).toBeGreaterThan(0);

    const request = await startSsoLogin(app);
    const later = await postSsoCallback(app, idp.response(SP, { inResponseTo: request.id, nameId: 'busy@example.test' }), {
      started: request,
    });
    expect(later.status).toBe(303);
  });
});
