import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from '../../../test/helpers/app.ts';
import { eventsSettled, until } from '../../../test/helpers/events.ts';
import { startSmtpServer, type TestSmtpServer } from '../../../test/helpers/smtp.ts';
import { advance, createTest, team, technique, type Team } from '../../../test/helpers/test-runs.ts';
import { startWebhookReceiver, type WebhookReceiver } from '../../../test/helpers/webhook-receiver.ts';

const SECRET = 'a shared webhook secret for alerts';

let receiver: WebhookReceiver;
let smtp: TestSmtpServer;
beforeAll(async () => {
  receiver = await startWebhookReceiver();
  smtp = await startSmtpServer();
});
afterAll(async () => {
  await receiver.close();
  await smtp.close();
});

const app = useTestApp(() => ({
  WEBHOOK_ALLOWED_HOSTS: `127.0.0.1:${new URL(receiver.url).port}`,
  SMTP_URL: smtp.url,
  EMAIL_FROM: 'violet@example.test',
}));
let t: Team;
beforeAll(async () => {
  t = await team(app);
  await app.services.prisma.user.update({ where: { id: t.blue_lead.id }, data: { email: 'blue.lead@example.test' } });
});

const confidenceOf = async (ttpId: string) =>
  (await app.api('GET', `/detection-lifecycle/dashboard?technique=${ttpId}`, { token: t.viewer.token })).body.techniques[0];

describe('detection lifecycle end to end over REST', () => {
  it('validation from a test, invalidation by an infrastructure change, revalidation queue, confidence drop, one alert and its notices', async () => {
    const tech = await technique(app);
    const asset = await app.api('POST', '/detection-lifecycle/assets', {
      token: t.blue_lead.token,
      body: { name: 'EDR: encoded PowerShell', kind: 'edr_policy', platform: 'Windows', owner_id: t.blue_lead.id },
    });
    expect(asset).toMatchObject({ status: 201, body: { platform: 'windows', status: 'active', owner: { id: t.blue_lead.id } } });
    const linked = await app.api('POST', `/detection-lifecycle/assets/${asset.body.id}/techniques/${tech.ttpId}`, {
      token: t.blue_lead.token,
    });
    expect(linked.status, JSON.stringify(linked.body)).toBe(200);
    expect(linked.body.techniques).toEqual([{ id: tech.id, ttp_id: tech.ttpId, name: tech.name }]);
    expect(
      (await app.api('POST', `/detection-lifecycle/assets/${asset.body.id}/techniques/${tech.ttpId}`, { token: t.blue_lead.token })).status,
    ).toBe(409);

    const owner = await app.api('POST', '/ownership/assignments', {
      token: t.red_lead.token,
      body: { technique_id: tech.ttpId, owner_id: t.blue_lead.id, responsibility: 'blue', team: 'SOC', due_date: '2027-01-31' },
    });
    expect(owner).toMatchObject({
      status: 201,
      body: { responsibility: 'blue', due_date: '2027-01-31', technique: { ttp_id: tech.ttpId } },
    });
    const taken = await app.api('POST', '/ownership/assignments', {
      token: t.red_lead.token,
      body: { technique_id: tech.id, owner_id: t.red_lead.id, responsibility: 'blue' },
    });
    expect(taken).toMatchObject({ status: 409, body: { code: 'CONFLICT' } });

    const hook = await app.api('POST', '/webhooks', {
      token: t.admin.token,
      body: { url: `${receiver.url}/alerts`, events: ['alert.fired'], secret: SECRET },
    });
    expect(hook.status).toBe(201);

    // A test validated with "detected" leaves a validation of the linked asset.
    const test = await createTest(app, t.red_lead, tech.id);
    await advance(app, t, test.id, 'validated');
    const [validation] = await until(async () => {
      const list = (await app.api('GET', `/detection-lifecycle/validations?technique=${tech.ttpId}`, { token: t.viewer.token })).body;
      return list.items.length ? list.items : undefined;
    });
    expect(validation).toMatchObject({ asset_id: asset.body.id, test_id: test.id, source: 'test', status: 'fresh', result: 'detected' });
    const validDays = (Date.parse(validation.valid_until) - Date.parse(validation.validated_at)) / 86_400_000;
    expect(validDays).toBe(90);
    // One active asset (0.5), a validation seconds old (1), no change: round(100 × (0.2 × 0.5 + 0.8 × 1)) = 90.
    expect(await confidenceOf(tech.ttpId)).toMatchObject({
      active_assets: 1,
      asset_term: 0.5,
      validation_term: 1,
      changes_since_validation: 0,
      confidence: 90,
    });
    // The rule is made now: before the validation, the linked asset alone (confidence 10) would have fired it.
    const rule = await app.api('POST', '/alerts/rules', {
      token: t.red_lead.token,
      body: { name: 'Confidence under 50', rule_type: 'confidence_below', severity: 'high', parameters: { threshold: 50 } },
    });
    expect(rule).toMatchObject({ status: 201, body: { parameters: { threshold: 50 }, enabled: true, cooldown_minutes: 60 } });
    await app.api('POST', '/alerts/evaluate', { token: t.blue_lead.token });
    expect(await app.services.prisma.alertInstance.count({ where: { ruleId: rule.body.id } })).toBe(0);

    // An EDR upgrade on Windows invalidates it.
    const change = await app.api('POST', '/detection-lifecycle/infrastructure-changes', {
      token: t.blue_lead.token,
      body: { title: 'EDR agent 7.2 upgrade', platforms: ['windows'] },
    });
    expect(change).toMatchObject({ status: 201, body: { invalidated_validations: 1, platforms: ['windows'] } });
    const [invalidated] = (await app.api('GET', `/detection-lifecycle/validations?technique=${tech.ttpId}`, { token: t.viewer.token })).body
      .items;
    expect(invalidated).toMatchObject({
      status: 'invalidated',
      invalidated_by_change_id: change.body.id,
      invalidated_reason: 'infrastructure change: EDR agent 7.2 upgrade',
    });

    // The change's event has the queue rebuilt after the commit.
    await eventsSettled(app);
    const queue = await app.api('GET', '/ownership/revalidation-queue', { token: t.blue_lead.token });
    expect(
      queue.body.items
        .filter((entry: any) => entry.technique.ttp_id === tech.ttpId)
        .map((entry: any) => entry.reason)
        .sort(),
    ).toEqual(['infrastructure_change', 'validation_invalidated']);
    expect((await app.api('GET', '/ownership/revalidation-queue', { token: t.red_lead.token })).status).toBe(403);
    const ofTechnique = await app.graphql(
      'query ($technique: String) { revalidationQueue(technique: $technique) { items { reason technique { ttpId } } total } }',
      { technique: tech.ttpId },
      t.blue_lead.token,
    );
    expect(ofTechnique.errors).toBeUndefined();
    expect(ofTechnique.data.revalidationQueue.total).toBe(2);
    expect(ofTechnique.data.revalidationQueue.items.map((entry: any) => [entry.technique.ttpId, entry.reason]).sort()).toEqual([
      [tech.ttpId, 'infrastructure_change'],
      [tech.ttpId, 'validation_invalidated'],
    ]);
    const unknown = await app.api('GET', '/ownership/revalidation-queue?technique=T9999', { token: t.blue_lead.token });
    expect(unknown.status).toBe(404);
    const ownerNotice = await until(
      async () =>
        (await app.services.prisma.notification.findFirst({ where: { userId: t.blue_lead.id, event: 'revalidation_needed' } })) ??
        undefined,
    );
    expect(ownerNotice.message).toContain(tech.ttpId);

    // No fresh validation, one change since the latest: round(100 × (0.2 × 0.5 + 0) × 0.5) = 5.
    expect(await confidenceOf(tech.ttpId)).toMatchObject({
      validation_term: 0,
      changes_since_validation: 1,
      change_factor: 0.5,
      confidence: 5,
    });

    // The rule fires once (the change's event already evaluated it, or this call does), never twice.
    await app.api('POST', '/alerts/evaluate', { token: t.blue_lead.token });
    const again = await app.api('POST', '/alerts/evaluate', { token: t.blue_lead.token });
    expect(again.body.fired).toBe(0);
    const alerts = await app.api('GET', `/alerts?rule_type=confidence_below&status=open`, { token: t.viewer.token });
    expect(alerts.body).toMatchObject({ total: 1, offset: 0, limit: 50 });
    expect(alerts.body.items[0]).toMatchObject({
      subject: tech.id,
      technique_id: tech.id,
      severity: 'high',
      figures: { confidence: 5, threshold: 50, ttp_id: tech.ttpId },
    });

    // In-app notice to the leads, a signed webhook, an e-mail.
    const leadNotice = await until(
      async () =>
        (await app.services.prisma.notification.findFirst({
          where: { userId: t.red_lead.id, event: 'alert_fired', entityId: alerts.body.items[0].id },
        })) ?? undefined,
    );
    expect(leadNotice.message).toContain(tech.ttpId);
    const delivered = await until(async () => receiver.at('/alerts')[0]);
    const message = new Webhook(Buffer.from(SECRET), { format: 'raw' }).verify(delivered.body, {
      'webhook-id': String(delivered.headers['webhook-id']),
      'webhook-timestamp': String(delivered.headers['webhook-timestamp']),
      'webhook-signature': String(delivered.headers['webhook-signature']),
    }) as any;
    expect(message).toMatchObject({
      type: 'alert.fired',
      data: { alert_id: alerts.body.items[0].id, rule_type: 'confidence_below', technique_id: tech.id },
    });
    const [mail] = await smtp.waitFor('blue.lead@example.test', 1);
    expect(mail.subject).toContain('Alert (high)');
    expect(mail.text).toContain(tech.ttpId);
  });
});

describe('alert instance transitions', () => {
  it('acknowledge → resolve, with INVALID_TRANSITION for anything else', async () => {
    const rule = await app.services.prisma.alertRule.create({
      data: { name: 'manual', ruleType: 'rejected_tests', severity: 'low', parameters: { count: 1, window_days: 7 } },
    });
    const alert = await app.services.prisma.alertInstance.create({
      data: { ruleId: rule.id, ruleType: 'rejected_tests', severity: 'low', subject: 'global', title: 'x' },
    });
    const path = (action: string) => `/alerts/${alert.id}/${action}`;
    expect((await app.api('POST', path('acknowledge'), { token: t.viewer.token })).status).toBe(403);
    expect(await app.api('POST', path('acknowledge'), { token: t.blue_lead.token, body: { note: 'on it' } })).toMatchObject({
      status: 200,
      body: { status: 'acknowledged', note: 'on it', changed_by: t.blue_lead.id, acknowledged_at: expect.any(String) },
    });
    const twice = await app.api('POST', path('acknowledge'), { token: t.blue_lead.token });
    expect(twice).toMatchObject({
      status: 400,
      body: {
        code: 'INVALID_TRANSITION',
        detail: {
          code: 'INVALID_TRANSITION',
          current_state: 'acknowledged',
          target_state: 'acknowledged',
          valid_transitions: ['resolved', 'dismissed'],
        },
      },
    });
    expect((await app.api('POST', path('resolve'), { token: t.red_lead.token })).body).toMatchObject({
      status: 'resolved',
      resolved_at: expect.any(String),
    });
    expect((await app.api('POST', path('dismiss'), { token: t.red_lead.token })).body).toMatchObject({
      code: 'INVALID_TRANSITION',
      detail: { current_state: 'resolved', target_state: 'dismissed', valid_transitions: [] },
    });
  });

  it('validates rule parameters per type, naming the field', async () => {
    const create = (body: unknown) => app.api('POST', '/alerts/rules', { token: t.red_lead.token, body });
    expect((await create({ name: 'x', rule_type: 'coverage_below', severity: 'low', parameters: { threshold: 120 } })).body).toMatchObject({
      code: 'VALIDATION_ERROR',
      field: 'parameters.threshold',
    });
    expect(
      (await create({ name: 'x', rule_type: 'coverage_below', severity: 'low', parameters: { threshold: 3, points: 3 } })).body,
    ).toMatchObject({
      code: 'VALIDATION_ERROR',
      field: 'parameters',
      detail: 'parameters: unknown for coverage_below: points',
    });
    expect((await create({ name: 'x', rule_type: 'actor_technique_uncovered', severity: 'low', parameters: {} })).body).toMatchObject({
      field: 'parameters.min_actors',
    });
    expect((await create({ name: 'x', rule_type: 'nope', severity: 'low' })).body).toMatchObject({
      code: 'VALIDATION_ERROR',
      field: 'rule_type',
    });
  });
});
