import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from '../../../test/helpers/app.ts';
import { until } from '../../../test/helpers/events.ts';
import { WEBHOOK_EVENTS } from './events.ts';
import { webhookSecrets } from './signing.ts';
import { advance, createTest, team, technique, type Team } from '../../../test/helpers/test-runs.ts';
import { startWebhookReceiver, type WebhookReceiver } from '../../../test/helpers/webhook-receiver.ts';

const SECRET = `whsec_${Buffer.from('violet-webhook-test-secret-bytes').toString('base64')}`;
const verifier = new Webhook(SECRET);

let receiver: WebhookReceiver;
beforeAll(async () => {
  receiver = await startWebhookReceiver();
});
afterAll(() => receiver.close());

// 127.0.0.1 on its standard ports (80, 443) and on the receiver's port: never on any other.
const app = useTestApp(() => ({
  WEBHOOK_ALLOWED_HOSTS: `127.0.0.1, 127.0.0.1:${new URL(receiver.url).port}`,
  WEBHOOK_RETRY_SCHEDULE: '100ms,200ms,300ms',
  WEBHOOK_DISABLE_AFTER: '4',
  WEBHOOK_TIMEOUT: '2s',
}));
let t: Team;
beforeAll(async () => {
  t = await team(app);
});

async function createWebhook(path: string, body: Record<string, unknown> = {}) {
  const response = await app.api('POST', '/webhooks', {
    token: t.admin.token,
    body: { url: `${receiver.url}${path}`, events: ['webhook.test'], secret: SECRET, ...body },
  });
  expect(response.status, JSON.stringify(response.body)).toBe(201);
  return response.body as Record<string, any>;
}

/** The verified messages a receiver path got: every one must carry a valid Standard Webhooks signature. */
const messagesAt = (path: string) =>
  receiver.at(path).map((request) => ({
    id: request.headers['webhook-id'] as string,
    message: verifier.verify(request.body, {
      'webhook-id': request.headers['webhook-id'] as string,
      'webhook-timestamp': request.headers['webhook-timestamp'] as string,
      'webhook-signature': request.headers['webhook-signature'] as string,
    }) as { type: string; timestamp: string; data: Record<string, any> },
  }));

/** The delivery log's page of items (every page answers with its total). */
const deliveries = async (webhookId: string) => {
  const page = (await app.api('GET', `/webhooks/${webhookId}/deliveries`, { token: t.admin.token })).body;
  expect(page).toMatchObject({ total: page.items.length, offset: 0, limit: 50 });
  return page.items;
};

describe('webhook configuration', () => {
  it('creates, reads, lists, updates and deletes webhooks with the secret masked in every answer', async () => {
    const created = await createWebhook('/crud', { events: ['test.validated', 'test.validated', 'coverage.changed'], description: 'SIEM' });
    expect(created).toMatchObject({
      url: `${receiver.url}/crud`,
      events: ['test.validated', 'coverage.changed'],
      secret: '***',
      description: 'SIEM',
      is_active: true,
      consecutive_failures: 0,
      created_by: t.admin.id,
    });
    const read = await app.api('GET', `/webhooks/${created.id}`, { token: t.admin.token });
    expect(read.body).toEqual(created);
    const listed = await app.api('GET', '/webhooks?limit=200', { token: t.admin.token });
    expect(listed.body).toContainEqual(created);
    expect(JSON.stringify(listed.body)).not.toContain('whsec_');

    const unsigned = await app.api('PATCH', `/webhooks/${created.id}`, {
      token: t.admin.token,
      body: { secret: null, events: ['alert.fired'] },
    });
    expect(unsigned.body).toMatchObject({ secret: null, events: ['alert.fired'] });
    const row = await app.services.prisma.webhook.findUniqueOrThrow({ where: { id: created.id } });
    expect(row.secretSealed).toBeNull();

    expect((await app.api('DELETE', `/webhooks/${created.id}`, { token: t.admin.token })).status).toBe(204);
    expect((await app.api('GET', `/webhooks/${created.id}`, { token: t.admin.token })).status).toBe(404);
    expect((await app.api('POST', `/webhooks/${created.id}/test`, { token: t.admin.token })).status).toBe(404);
    const actions = await app.services.prisma.auditLog.findMany({ where: { entityId: created.id }, orderBy: { timestamp: 'asc' } });
    expect(actions.map((entry) => entry.action)).toEqual(['create_webhook', 'update_webhook', 'delete_webhook']);
    expect(JSON.stringify(actions)).not.toContain('whsec_');
  });

  it('stores the secret sealed, never as given', async () => {
    const created = await createWebhook('/sealed');
    const row = await app.services.prisma.webhook.findUniqueOrThrow({ where: { id: created.id } });
    expect(row.secretSealed).toMatch(/^v1\./);
    expect(webhookSecrets(app.services).open(row.secretSealed!)).toBe(SECRET);
  });

  it.each([
    [{ url: 'ftp://127.0.0.1/x', events: ['webhook.test'] }, 'url'],
    [{ url: 'not a url', events: ['webhook.test'] }, 'url'],
    [{ url: 'http://user:pass@127.0.0.1/x', events: ['webhook.test'] }, 'url'],
    [{ url: 'http://127.0.0.1/x', events: ['test.deleted'] }, 'events.0'],
    [{ url: 'http://127.0.0.1/x', events: [] }, 'events'],
    [{ url: 'http://127.0.0.1/x', events: ['webhook.test'], secret: 'short' }, 'secret'],
    [{ url: 'http://127.0.0.1/x', events: ['webhook.test'], secret: 'whsec_not base64 at all!!' }, 'secret'],
    [{ events: ['webhook.test'] }, 'url'],
  ])('refuses %j with 400 naming %s', async (body, field) => {
    const response = await app.api('POST', '/webhooks', { token: t.admin.token, body });
    expect(response.status).toBe(400);
    expect(response.body).toMatchObject({ code: 'VALIDATION_ERROR', field });
  });

  it('admits an allow-listed host only on the ports its entries name: 127.0.0.1 does not open Redis on 6379', async () => {
    for (const url of ['http://127.0.0.1:6379/', 'http://localhost:6379/', 'http://[::ffff:127.0.0.1]:6379/', 'http://127.0.0.1:5432/']) {
      const response = await app.api('POST', '/webhooks', { token: t.admin.token, body: { url, events: ['webhook.test'] } });
      expect(response, url).toMatchObject({ status: 400, body: { code: 'VALIDATION_ERROR', field: 'url' } });
      expect(response.body.detail, url).toMatch(/^url: .* (is not a public address|resolves to (no|a non-)public address)$/);
    }
    const standard = await app.api('POST', '/webhooks', {
      token: t.admin.token,
      body: { url: 'https://127.0.0.1/siem', events: ['webhook.test'] },
    });
    expect(standard.status).toBe(201);
    expect((await createWebhook('/listed-port')).url).toBe(`${receiver.url}/listed-port`);
  });

  it('lists the event names a webhook may subscribe to, for admins only', async () => {
    const listed = await app.graphql('{ webhookEvents }', {}, t.admin.token);
    expect(listed.data.webhookEvents).toEqual([...WEBHOOK_EVENTS]);
    const refused = await app.graphql('{ webhookEvents }', {}, t.red_lead.token);
    expect(refused.errors?.[0].extensions?.code).toBe('FORBIDDEN');
  });

  it('documents every event of the catalogue with its data, and no other', async () => {
    const page = await readFile(new URL('../../../docs/webhooks.md', import.meta.url), 'utf8');
    const documented = [...page.matchAll(/^\| `([a-z_]+\.[a-z_]+)` \|/gm)].map((match) => match[1]);
    expect(documented.sort()).toEqual([...WEBHOOK_EVENTS].sort());
  });

  it('answers 404 for unknown webhooks and deliveries', async () => {
    const created = await createWebhook('/unknown');
    expect((await app.api('GET', `/webhooks/${randomUUID()}/deliveries`, { token: t.admin.token })).status).toBe(404);
    expect((await app.api('PATCH', `/webhooks/${randomUUID()}`, { token: t.admin.token, body: { events: ['alert.fired'] } })).status).toBe(
      404,
    );
    const redeliver = await app.api('POST', `/webhooks/${created.id}/deliveries/${randomUUID()}/redeliver`, { token: t.admin.token });
    expect(redeliver.status).toBe(404);
  });
});

describe('deliveries', () => {
  it('sends webhook.test on demand: 202 with detail, payload webhook_id and message, signed', async () => {
    const created = await createWebhook('/ping');
    const response = await app.api('POST', `/webhooks/${created.id}/test`, { token: t.admin.token });
    expect(response).toMatchObject({ status: 202, body: { detail: expect.any(String), delivery_id: expect.any(String) } });
    const [ping] = await until(async () => {
      const messages = messagesAt('/ping');
      return messages.length ? messages : undefined;
    });
    expect(ping.id).toBe(response.body.delivery_id);
    expect(ping.message).toEqual({
      type: 'webhook.test',
      timestamp: expect.any(String),
      data: { webhook_id: created.id, message: expect.stringContaining(t.admin.username) },
    });
    const request = receiver.at('/ping')[0];
    expect(request.headers['content-type']).toBe('application/json');
    expect(request.headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/]+=*$/);
  });

  it('delivers test.state_changed, test.validated, coverage.changed and campaign.completed from the workflow, each verified', async () => {
    await createWebhook('/workflow', { events: ['test.state_changed', 'test.validated', 'campaign.completed', 'coverage.changed'] });
    const ignored = await createWebhook('/other-events', { events: ['alert.fired'] });
    const tech = await technique(app);
    const campaign = await app.api('POST', '/campaigns', { token: t.red_lead.token, body: { name: 'Webhook campaign' } });
    expect(campaign.status).toBe(201);
    const test = await createTest(app, t.red_lead, tech.id, { campaign_id: campaign.body.id });
    await advance(app, t, test.id, 'validated');
    expect((await app.api('POST', `/campaigns/${campaign.body.id}/activate`, { token: t.blue_lead.token })).status).toBe(200);
    expect((await app.api('POST', `/campaigns/${campaign.body.id}/complete`, { token: t.red_lead.token })).status).toBe(200);

    const messages = await until(async () => {
      const all = messagesAt('/workflow');
      const types = new Set(all.map(({ message }) => message.type));
      return ['test.validated', 'campaign.completed', 'coverage.changed'].every((type) => types.has(type)) &&
        all.filter(({ message }) => message.type === 'test.state_changed').length === 4
        ? all
        : undefined;
    });
    const of = (type: string) => messages.filter(({ message }) => message.type === type).map(({ message }) => message.data);
    expect(
      of('test.state_changed')
        .map((data) => `${data.from}->${data.to}`)
        .sort(),
    ).toEqual(['blue_evaluating->in_review', 'draft->red_executing', 'in_review->validated', 'red_executing->blue_evaluating'].sort());
    expect(of('test.state_changed')[0]).toMatchObject({
      test_id: test.id,
      technique_id: tech.id,
      ttp_id: tech.ttpId,
      campaign_id: campaign.body.id,
    });
    expect(of('test.validated')).toEqual([
      { test_id: test.id, technique_id: tech.id, ttp_id: tech.ttpId, campaign_id: campaign.body.id, detection_result: 'detected' },
    ]);
    expect(of('campaign.completed')).toEqual([
      { campaign_id: campaign.body.id, name: 'Webhook campaign', test_count: 1, validated_count: 1, percentage: 100 },
    ]);
    expect(of('coverage.changed')[0]).toMatchObject({ technique_ids: [tech.id], reason: expect.any(String) });
    // Every message has its own id; nothing reached the webhook that subscribes to other events.
    expect(new Set(messages.map(({ id }) => id)).size).toBe(messages.length);
    expect(receiver.at('/other-events')).toHaveLength(0);
    expect(await deliveries(ignored.id)).toEqual([]);
  });

  it('retries a receiver answering 500 with the same webhook-id, then logs both attempts', async () => {
    const created = await createWebhook('/flaky');
    receiver.answer('/flaky', 500);
    await app.api('POST', `/webhooks/${created.id}/test`, { token: t.admin.token });
    const messages = await until(async () => (messagesAt('/flaky').length === 2 ? messagesAt('/flaky') : undefined));
    expect(messages[0].id).toBe(messages[1].id);
    expect(messages[0].message).toEqual(messages[1].message);
    const [logged] = await until(async () => {
      const log = await deliveries(created.id);
      return log[0]?.status === 'succeeded' ? log : undefined;
    });
    expect(logged).toMatchObject({
      id: messages[0].id,
      event: 'webhook.test',
      status: 'succeeded',
      attempts: 2,
      status_code: 200,
      error: null,
      attempt_log: [
        { attempt: 1, status_code: 500, error: 'receiver answered 500', duration_ms: expect.any(Number) },
        { attempt: 2, status_code: 200, error: null },
      ],
    });
    const webhook = await app.api('GET', `/webhooks/${created.id}`, { token: t.admin.token });
    expect(webhook.body.consecutive_failures).toBe(0);
  });

  it('does not follow redirects (to a private address or anywhere else) and records them as failures', async () => {
    const created = await createWebhook('/redirect');
    receiver.answer('/redirect', { redirect: 'http://169.254.169.254/latest/meta-data/' }, { redirect: `${receiver.url}/elsewhere` });
    await app.api('POST', `/webhooks/${created.id}/test`, { token: t.admin.token });
    const [logged] = await until(async () => {
      const log = await deliveries(created.id);
      return log[0]?.status === 'succeeded' ? log : undefined;
    });
    expect(logged.attempt_log.map((entry: any) => entry.status_code)).toEqual([302, 302, 200]);
    expect(receiver.at('/elsewhere')).toHaveLength(0);
  });

  it('redelivers a finished delivery with the same webhook-id and body', async () => {
    const created = await createWebhook('/again');
    const { body } = await app.api('POST', `/webhooks/${created.id}/test`, { token: t.admin.token });
    await until(async () => ((await deliveries(created.id))[0]?.status === 'succeeded' ? true : undefined));
    const again = await app.api('POST', `/webhooks/${created.id}/deliveries/${body.delivery_id}/redeliver`, { token: t.admin.token });
    expect(again).toMatchObject({ status: 202, body: { id: body.delivery_id, status: 'pending' } });
    const messages = await until(async () => (messagesAt('/again').length === 2 ? messagesAt('/again') : undefined));
    expect(messages.map(({ id }) => id)).toEqual([body.delivery_id, body.delivery_id]);
    expect(receiver.at('/again')[0].body).toBe(receiver.at('/again')[1].body);
    const [logged] = await until(async () => {
      const log = await deliveries(created.id);
      return log[0]?.status === 'succeeded' && log[0].attempts === 2 ? log : undefined;
    });
    expect(logged.attempt_log).toHaveLength(2);
  });

  it('gives up after the retry schedule, disables the webhook after the limit of failures in a row and tells the admins', async () => {
    const created = await createWebhook('/down');
    receiver.answer('/down', 503, 503, 503, 503);
    await app.api('POST', `/webhooks/${created.id}/test`, { token: t.admin.token });
    const [logged] = await until(async () => {
      const log = await deliveries(created.id);
      return log[0]?.status === 'failed' ? log : undefined;
    });
    expect(logged).toMatchObject({ attempts: 4, status_code: 503, next_attempt_at: null, completed_at: expect.any(String) });
    const webhook = await app.api('GET', `/webhooks/${created.id}`, { token: t.admin.token });
    expect(webhook.body).toMatchObject({
      is_active: false,
      consecutive_failures: 4,
      disabled_reason: '4 failed delivery attempts in a row',
      disabled_at: expect.any(String),
    });
    const notices = await until(async () => {
      const rows = await app.services.prisma.notification.findMany({ where: { event: 'webhook_disabled', entityId: created.id } });
      return rows.length ? rows : undefined;
    });
    expect(notices.map((notice) => notice.userId)).toContain(t.admin.id);
    const audit = await app.services.prisma.auditLog.findFirst({ where: { entityId: created.id, action: 'disable_webhook' } });
    expect(audit).not.toBeNull();

    // Re-enabling starts a new streak; the receiver works again.
    const enabled = await app.api('PATCH', `/webhooks/${created.id}`, { token: t.admin.token, body: { is_active: true } });
    expect(enabled.body).toMatchObject({ is_active: true, consecutive_failures: 0, disabled_at: null, disabled_reason: null });
  });
});
