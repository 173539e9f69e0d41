import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiResponse, useTestApp } from './helpers/app.ts';
import { team, technique, type Team } from './helpers/test-runs.ts';
import { startWebhookReceiver, type WebhookReceiver } from './helpers/webhook-receiver.ts';

/**
 * Every "only if it is still X" write, raced on PostgreSQL by two requests sent at the same moment: one wins, the
 * other is refused (or changes nothing), and exactly one audit entry records the change.
 */
const ROUNDS = 8;

let receiver: WebhookReceiver;
beforeAll(async () => {
  receiver = await startWebhookReceiver();
});
afterAll(() => receiver?.close());

const app = useTestApp(() => ({ WEBHOOK_ALLOWED_HOSTS: `127.0.0.1:${new URL(receiver.url).port}` }));
let t: Team;
beforeAll(async () => {
  t = await team(app);
});

const audits = (action: string, entityId: string) => app.services.prisma.auditLog.count({ where: { action, entityId } });
const statuses = (responses: ApiResponse[]) => responses.map((response) => response.status).sort();
const twice = (request: () => Promise<ApiResponse>) => Promise.all([request(), request()]);

describe('concurrent requests for one "only if still" change', () => {
  it('two invalidations of one validation: one 200, one 409 CONFLICT, one audit entry', async () => {
    const tech = await technique(app);
    for (let round = 0; round < ROUNDS; round++) {
      const created = await app.api('POST', '/detection-lifecycle/validations', {
        token: t.blue_lead.token,
        body: { technique_id: tech.ttpId },
      });
      expect(created.status).toBe(201);
      const id = created.body.id as string;
      const responses = await twice(() =>
        app.api('POST', `/detection-lifecycle/validations/${id}/invalidate`, {
          token: t.blue_lead.token,
          body: { reason: `round ${round}` },
        }),
      );
      expect(statuses(responses), `round ${round}`).toEqual([200, 409]);
      const refused = responses.find((response) => response.status === 409)!;
      expect(refused.body).toEqual({ code: 'CONFLICT', detail: 'The validation is already invalidated' });
      expect(responses.find((response) => response.status === 200)!.body).toMatchObject({ id, status: 'invalidated' });
      expect(await audits('invalidate_detection_validation', id)).toBe(1);
    }
  });

  it('two revocations of one API key: both answer the revoked key, one audit entry, revoked_at unchanged by the second', async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const key = await app.api('POST', '/api-keys', { token: t.red_lead.token, body: { name: `race ${round}`, scope: 'read' } });
      expect(key.status).toBe(201);
      const responses = await twice(() => app.api('DELETE', `/api-keys/${key.body.id}`, { token: t.red_lead.token }));
      expect(statuses(responses)).toEqual([200, 200]);
      const stored = await app.services.prisma.apiKey.findUniqueOrThrow({ where: { id: key.body.id } });
      for (const response of responses) expect(response.body.revoked_at).toBe(stored.revokedAt?.toISOString());
      expect(await audits('revoke_api_key', key.body.id), `round ${round}`).toBe(1);
    }
  });

  it('two deactivations of one user: one audit entry, sessions ended once', async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const user = await app.createUser({ role: 'viewer' });
      const before = await app.services.prisma.user.findUniqueOrThrow({ where: { id: user.id } });
      const responses = await twice(() => app.api('DELETE', `/users/${user.id}`, { token: t.admin.token }));
      expect(statuses(responses)).toEqual([200, 200]);
      for (const response of responses) expect(response.body).toMatchObject({ id: user.id, is_active: false });
      const after = await app.services.prisma.user.findUniqueOrThrow({ where: { id: user.id } });
      expect(after.sessionVersion, `round ${round}`).toBe(before.sessionVersion + 1);
      expect(await audits('deactivate_user', user.id), `round ${round}`).toBe(1);
    }
  });

  it('two toggles of one template flip it twice: back where it was, audited as off then on', async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const template = await app.services.prisma.testTemplate.create({ data: { name: `race ${round}` } });
      const responses = await twice(() => app.api('POST', `/test-templates/${template.id}/toggle-active`, { token: t.admin.token }));
      expect(statuses(responses)).toEqual([200, 200]);
      expect(responses.map((response) => response.body.is_active).sort()).toEqual([false, true]);
      expect(await app.services.prisma.testTemplate.findUniqueOrThrow({ where: { id: template.id } })).toMatchObject({ isActive: true });
      const entries = await app.services.prisma.auditLog.findMany({
        where: { action: 'toggle_test_template_active', entityId: template.id },
        orderBy: { timestamp: 'asc' },
      });
      expect(
        entries.map((entry) => (entry.details as { is_active: boolean }).is_active),
        `round ${round}`,
      ).toEqual([false, true]);
    }
  });

  it('two redeliveries of one finished delivery: one 202, one 409, one audit entry', async () => {
    const hook = await app.api('POST', '/webhooks', {
      token: t.admin.token,
      body: { url: `${receiver.url}/race`, events: ['test.validated'] },
    });
    expect(hook.status, JSON.stringify(hook.body)).toBe(201);
    for (let round = 0; round < ROUNDS; round++) {
      const delivery = await app.services.prisma.webhookDelivery.create({
        data: { webhookId: hook.body.id, eventType: 'test.validated', body: '{}', status: 'failed', attempts: 1, completedAt: new Date() },
      });
      const responses = await twice(() =>
        app.api('POST', `/webhooks/${hook.body.id}/deliveries/${delivery.id}/redeliver`, { token: t.admin.token }),
      );
      expect(statuses(responses), `round ${round}`).toEqual([202, 409]);
      expect(responses.find((response) => response.status === 409)!.body).toEqual({
        code: 'CONFLICT',
        detail: 'The delivery is still being attempted',
      });
      const entries = await app.services.prisma.auditLog.findMany({ where: { action: 'redeliver_webhook', entityId: hook.body.id } });
      expect(entries.filter((entry) => (entry.details as { delivery_id: string }).delivery_id === delivery.id)).toHaveLength(1);
    }
  });

  it("two password changes from the same current password: one 200, the other refused, and the winner's password is the one stored", async () => {
    const user = await app.createUser({ role: 'viewer' });
    const token = await app.login(user.username);
    const change = (newPassword: string) =>
      app.api('POST', '/auth/change-password', { token, body: { current_password: user.password, new_password: newPassword } });
    const responses = await Promise.all([change('first new password 8274'), change('second new password 9163')]);
    // Overlapping, the loser's conditional write finds the password changed (409); on a busy machine the second may
    // only check the current password once the first has committed, and finds it no longer current (400).
    expect(statuses(responses)).toEqual([200, expect.toBeOneOf([400, 409])]);
    expect(responses.find((response) => response.status !== 200)!.body).toEqual(
      expect.toBeOneOf([
        { code: 'CONFLICT', detail: 'The password was changed meanwhile; sign in with the new one' },
        expect.objectContaining({ field: 'current_password' }),
      ]),
    );
    const winner = responses[0].status === 200 ? 'first new password 8274' : 'second new password 9163';
    const loser = winner.startsWith('first') ? 'second new password 9163' : 'first new password 8274';
    const login = (password: string) => app.api('POST', '/auth/login', { form: { username: user.username, password } });
    expect((await login(winner)).status).toBe(200);
    expect((await login(loser)).status).toBe(401);
    expect(await audits('change_password', user.id)).toBe(1);
  });
});
