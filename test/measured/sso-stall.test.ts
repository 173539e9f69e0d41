import { describe, expect, it } from 'vitest';
import { useTestApp } from '../helpers/app.ts';
import { SSO_PUBLIC_URL, useTestIdp, withEmptySignatures } from '../helpers/sso.ts';

// A latency acceptance test: it runs with the measured suite, alone, since what it measures is the service's.
const app = useTestApp({ PUBLIC_URL: SSO_PUBLIC_URL });
const idp = useTestIdp(app);

/** The callback's form body limit: every attack has to fit in it. */
const FORM_MAX = 160 * 1024;

const form = (samlResponse: string) => new URLSearchParams({ SAMLResponse: samlResponse, RelayState: '/' }).toString();

/** The form with as many empty signatures as fit in the form limit, encoded once (the client's work is not the server's). */
function largestAttack(): { form: string; xmlBytes: number } {
  let count = 2_500;
  while (form(withEmptySignatures(idp, '_x', count)).length > FORM_MAX) count -= 50;
  return {
    form: form(withEmptySignatures(idp, '_x', count)),
    xmlBytes: Buffer.byteLength(withEmptySignatures(idp, '_x', count), 'base64'),
  };
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
});
