import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from '../../../test/helpers/app.ts';

/**
 * Receivers a webhook must never reach without WEBHOOK_ALLOWED_HOSTS: every non-public range in its numeric
 * encodings and IPv6 forms, host names resolving to them, and schemes other than http(s).
 */
const INTERNAL_URLS = [
  // loopback, written every way a URL parser accepts
  'http://127.0.0.1/',
  'http://127.0.0.2:8080/admin',
  'http://127.1/',
  'http://2130706433/',
  'http://0177.0.0.1/',
  'http://0x7f.0.0.1/',
  'http://0x7f000001/',
  'http://127.000.000.001/',
  'https://[::1]/',
  'http://[0:0:0:0:0:0:0:1]/',
  'http://[::ffff:127.0.0.1]/',
  'http://[::ffff:7f00:1]/',
  'http://[::127.0.0.1]/',
  'http://[64:ff9b::7f00:1]/',
  'http://[2002:7f00:1::]/',
  // host names that resolve to loopback
  'http://localhost/',
  'http://LOCALHOST:9200/',
  'http://localhost./',
  // private networks
  'http://10.0.0.1/',
  'http://10.255.255.254/',
  'http://012.0.0.1/',
  'http://167772161/',
  'http://172.16.0.1/',
  'http://172.31.255.254/',
  'http://0xac.0x10.0.1/',
  'http://192.168.0.1/',
  'http://3232235777/',
  'http://[::ffff:10.0.0.1]/',
  'http://[::ffff:c0a8:101]/',
  // link-local and cloud metadata
  'http://169.254.169.254/latest/meta-data/',
  'http://2852039166/',
  'http://0xa9fea9fe/',
  'http://0251.0376.0251.0376/',
  'http://[fd00:ec2::254]/latest/meta-data/',
  'http://[::ffff:169.254.169.254]/',
  'http://[64:ff9b::a9fe:a9fe]/',
  'http://[fe80::1]/',
  // carrier-grade NAT, "this network", multicast, reserved, broadcast
  'http://100.64.0.1/',
  'http://100.127.255.254/',
  'http://0.0.0.0/',
  'http://0/',
  'http://0.1.2.3/',
  'http://224.0.0.1/',
  'http://239.255.255.250:1900/',
  'http://240.0.0.1/',
  'http://255.255.255.255/',
  // IPv6 unique-local, unspecified, multicast
  'http://[fc00::1]/',
  'http://[fd12:3456:789a::1]/',
  'http://[::]/',
  'http://[ff02::1]/',
];

const OTHER_SCHEMES = [
  'file:///etc/passwd',
  'gopher://127.0.0.1:6379/_INFO',
  'ftp://example.com/',
  'dict://127.0.0.1:11211/',
  'data:text/plain,hi',
];

const app = useTestApp({ WEBHOOK_RETRY_SCHEDULE: '10ms', WEBHOOK_DISABLE_AFTER: '1000' });
let admin: string;
beforeAll(async () => {
  admin = await app.tokenFor('admin');
});

describe('SSRF guard of webhook URLs', () => {
  it(`holds a corpus of ${INTERNAL_URLS.length + OTHER_SCHEMES.length} URLs`, () => {
    expect(INTERNAL_URLS.length + OTHER_SCHEMES.length).toBeGreaterThanOrEqual(40);
  });

  it('refuses every internal or non-http(s) URL at save time with 400 VALIDATION_ERROR naming url', async () => {
    const accepted: string[] = [];
    for (const url of [...INTERNAL_URLS, ...OTHER_SCHEMES]) {
      const created = await app.api('POST', '/webhooks', { token: admin, body: { url, events: ['webhook.test'] } });
      if (created.status !== 400 || created.body.code !== 'VALIDATION_ERROR' || created.body.field !== 'url') accepted.push(url);
    }
    expect(accepted).toEqual([]);
    expect(await app.services.prisma.webhook.count()).toBe(0);
  });

  it('refuses the same URLs as updates', async () => {
    const created = await app.api('POST', '/webhooks', {
      token: admin,
      body: { url: 'https://93.184.215.14/hook', events: ['webhook.test'] },
    });
    expect(created.status).toBe(201);
    for (const url of INTERNAL_URLS.slice(0, 10)) {
      const updated = await app.api('PATCH', `/webhooks/${created.body.id}`, { token: admin, body: { url } });
      expect(updated.body, url).toMatchObject({ code: 'VALIDATION_ERROR', field: 'url' });
    }
    await app.api('DELETE', `/webhooks/${created.body.id}`, { token: admin });
  });

  it('refuses them again at delivery time (a URL stored before its DNS answer changed), without connecting', async () => {
    const stored = await app.services.prisma.webhook.createManyAndReturn({
      data: INTERNAL_URLS.map((url) => ({ url, events: ['webhook.test'] })),
      select: { id: true, url: true },
    });
    for (const { id } of stored) expect((await app.api('POST', `/webhooks/${id}/test`, { token: admin })).status).toBe(202);
    const attempts = await waitForFirstAttempts(stored.length);
    const byWebhook = new Map(attempts.map((attempt) => [attempt.delivery.webhookId, attempt]));
    const reached = stored.filter(({ id }) => {
      const attempt = byWebhook.get(id);
      // Refused by the guard, or (a name with no address here) never resolved: either way no connection was made.
      return !attempt || attempt.statusCode !== null || !/^(destination refused|connection failed: ENOTFOUND)/.test(attempt.error ?? '');
    });
    expect(reached.map(({ url }) => url)).toEqual([]);
  });
});

async function waitForFirstAttempts(count: number) {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const attempts = await app.services.prisma.webhookAttempt.findMany({
      where: { attempt: 1 },
      select: { statusCode: true, error: true, delivery: { select: { webhookId: true } } },
    });
    if (attempts.length >= count || Date.now() > deadline) return attempts;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
