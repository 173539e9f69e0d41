import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from '../../../test/helpers/app.ts';
import { until } from '../../../test/helpers/events.ts';
import { advance, createTest, team, technique, type Team } from '../../../test/helpers/test-runs.ts';
import { createTrackerConnection, JIRA_ACCOUNT, JIRA_PROJECT, jiraCloudConnection } from '../../../test/helpers/tracker.ts';
import { startWebhookReceiver, type WebhookReceiver } from '../../../test/helpers/webhook-receiver.ts';
import { startFakeJira, type FakeJira } from '../../../test/fixtures/tracker-servers.ts';

const JIRA_TOKEN = 'jira-api-token-outbound-9b3d71';
const TRACKER_WEBHOOK_SECRET = 'tracker-inbound-secret-28c4f0';
const SIGNING_SECRET = `whsec_${Buffer.from('violet-tracker-events-signing-key').toString('base64')}`;
const verifier = new Webhook(SIGNING_SECRET);

let jira: FakeJira;
let receiver: WebhookReceiver;
beforeAll(async () => {
  jira = await startFakeJira(JIRA_ACCOUNT, JIRA_TOKEN, JIRA_PROJECT);
  receiver = await startWebhookReceiver();
});
afterAll(async () => {
  await jira?.close();
  await receiver?.close();
});

const app = useTestApp(() => ({
  TRACKER_ALLOWED_HOSTS: `127.0.0.1:${new URL(jira.url).port}`,
  WEBHOOK_ALLOWED_HOSTS: `127.0.0.1:${receiver.port}`,
  WEBHOOK_RETRY_SCHEDULE: '100ms,200ms',
}));

let t: Team;
let connectionId: string;
beforeAll(async () => {
  t = await team(app);
  const jiraSec = jiraCloudConnection(jira, JIRA_TOKEN, { webhook_secret: TRACKER_WEBHOOK_SECRET });
  connectionId = (await createTrackerConnection(app, t.admin, jiraSec)).id;
});

async function subscribe(path: string, events: string[]) {
  const created = await app.api('POST', '/webhooks', {
    token: t.admin.token,
    body: { url: `${receiver.url}${path}`, events, secret: SIGNING_SECRET },
  });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  expect(created.body.events).toEqual(events);
}

/** The verified messages a receiver path got, in arrival order. */
const messagesAt = (path: string) =>
  receiver.at(path).map(
    (request) =>
      verifier.verify(request.body, {
        'webhook-id': request.headers['webhook-id'] as string,
        'webhook-timestamp': request.headers['webhook-timestamp'] as string,
        'webhook-signature': request.headers['webhook-signature'] as string,
      }) as { type: string; data: Record<string, any> },
  );

const waitFor = (path: string, done: (messages: ReturnType<typeof messagesAt>) => boolean) =>
  until(async () => {
    const messages = messagesAt(path);
    return done(messages) ? messages : undefined;
  });

describe('tracker events for webhook subscribers', () => {
  it('delivers created, status changes, fixed and reopened with remediation and tracker status, and no credential', async () => {
    await subscribe('/tracker', ['tracker.issue_created', 'tracker.issue_status_changed', 'tracker.issue_fixed', 'tracker.issue_reopened']);
    await subscribe('/fixed-only', ['tracker.issue_fixed']);
    const { id: techniqueId } = await technique(app);
    const test = await createTest(app, t.red_lead, techniqueId, { name: 'Kerberoasting' });
    await advance(app, t, test.id, 'rejected');

    const created = await app.api('POST', '/tracker/issues', {
      token: t.red_lead.token,
      body: { subject_type: 'test', subject_id: test.id },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const key = created.body.issue_key as string;
    const issue = {
      issue_id: created.body.id,
      connection_id: connectionId,
      subject_type: 'test',
      subject_id: test.id,
      test_id: test.id,
      issue_key: key,
      issue_url: `${jira.url}/browse/${key}`,
    };
    // Filed (tracker status `open` until read), then read back at once: the issue is `To Do` in Jira.
    const filed = await waitFor('/tracker', (messages) => messages.length === 3);
    expect(filed).toEqual(
      expect.arrayContaining([
        { type: 'tracker.issue_created', timestamp: expect.any(String), data: { ...issue, tracker_status: 'open' } },
        {
          type: 'tracker.issue_status_changed',
          timestamp: expect.any(String),
          data: { ...issue, tracker_status: 'open', from: 'pending', to: 'open', remediation_status: 'pending' },
        },
        {
          type: 'tracker.issue_status_changed',
          timestamp: expect.any(String),
          data: { ...issue, tracker_status: 'To Do', from: 'open', to: 'open', remediation_status: 'pending' },
        },
      ]),
    );

    jira.setStatus(key, 'In Progress', 'indeterminate');
    await app.api('POST', `/tracker/issues/${created.body.id}/sync`, { token: t.red_lead.token });
    const working = await waitFor('/tracker', (messages) => messages.length === 4);
    expect(working.find(({ data }) => data.tracker_status === 'In Progress')?.data).toEqual({
      ...issue,
      tracker_status: 'In Progress',
      from: 'open',
      to: 'open',
      remediation_status: 'in_progress',
    });

    jira.setStatus(key, 'Done', 'done');
    const fixed = await app.api('POST', `/tracker/issues/${created.body.id}/sync`, { token: t.red_lead.token });
    const retestId = fixed.body.retest_id as string;
    expect(retestId).toEqual(expect.any(String));
    const closed = await waitFor('/tracker', (messages) => messages.length === 6);
    expect(closed.slice(4).map(({ type, data }) => ({ type, data }))).toEqual(
      expect.arrayContaining([
        {
          type: 'tracker.issue_status_changed',
          data: { ...issue, tracker_status: 'Done', from: 'open', to: 'fixed', remediation_status: 'completed' },
        },
        { type: 'tracker.issue_fixed', data: { ...issue, tracker_status: 'Done', retest_id: retestId } },
      ]),
    );
    const fixedOnly = await waitFor('/fixed-only', (messages) => messages.length === 1);
    expect(fixedOnly.map(({ type }) => type)).toEqual(['tracker.issue_fixed']);

    await advance(app, t, retestId, 'rejected');
    // Two deliveries of one commit: they may arrive in either order.
    const reopened = await waitFor(
      '/tracker',
      (messages) =>
        messages.some(({ type }) => type === 'tracker.issue_reopened') &&
        messages.some(({ type, data }) => type === 'tracker.issue_status_changed' && data.to === 'reopened'),
    );
    expect(reopened.find(({ type }) => type === 'tracker.issue_reopened')!.data).toEqual({
      ...issue,
      tracker_status: 'Done',
      reason: 'retest_failed',
      retest_id: retestId,
    });
    expect(reopened.find(({ type, data }) => type === 'tracker.issue_status_changed' && data.to === 'reopened')!.data).toMatchObject({
      from: 'fixed',
      remediation_status: 'in_progress',
    });

    const bodies = receiver.received.map((request) => request.body).join('\n');
    for (const secret of [JIRA_TOKEN, TRACKER_WEBHOOK_SECRET, SIGNING_SECRET, 'lead@example.com'])
      expect(bodies.includes(secret), `a delivery holds ${secret}`).toBe(false);
  });

  it('offers the tracker events in the catalogue a webhook subscribes from', async () => {
    const listed = await app.graphql('{ webhookEvents }', {}, t.admin.token);
    expect(listed.data.webhookEvents).toEqual(
      expect.arrayContaining(['tracker.issue_created', 'tracker.issue_status_changed', 'tracker.issue_fixed', 'tracker.issue_reopened']),
    );
  });
});
