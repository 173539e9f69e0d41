import { createHmac } from 'node:crypto';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useTestApp, type ApiResponse } from '../../../test/helpers/app.ts';
import { eventsSettled, until } from '../../../test/helpers/events.ts';
import { advance, createTest, team, technique, type Team } from '../../../test/helpers/test-runs.ts';
import { JIRA_ACCOUNT, JIRA_PROJECT, jiraCloudConnection } from '../../../test/helpers/tracker.ts';
import { startFakeGithub, startFakeJira, type FakeGithub, type FakeJira } from '../../../test/fixtures/tracker-servers.ts';

const JIRA_TOKEN = 'jira-api-token-7d1f0c4e9b2a';
const GITHUB_TOKEN = 'ghp_trackerTestToken0123456789abcdef';
const WEBHOOK_SECRET = 'tracker-webhook-secret-5e8a1b';
const SECRETS = [JIRA_TOKEN, GITHUB_TOKEN, WEBHOOK_SECRET];

let jira: FakeJira;
let github: FakeGithub;
let dataCenter: FakeJira;
beforeAll(async () => {
  jira = await startFakeJira(JIRA_ACCOUNT, JIRA_TOKEN, JIRA_PROJECT);
  github = await startFakeGithub(GITHUB_TOKEN, 'acme/detections');
  dataCenter = await startFakeJira('', JIRA_TOKEN, 'OPS', { dataCenter: true });
});
afterAll(async () => {
  await jira?.close();
  await github?.close();
  await dataCenter?.close();
});

const app = useTestApp(() => ({
  TRACKER_ALLOWED_HOSTS: [jira, github, dataCenter].map((fake) => `127.0.0.1:${new URL(fake.url).port}`).join(', '),
  TRACKER_MAX_RETRY_WAIT: '3s',
  TRACKER_TIMEOUT: '5s',
  TRACKER_SYNC_INTERVAL: '1h',
}));

/** Every channel a credential could leak through: HTTP answers, log lines (captured at trace level). */
const answers: string[] = [];
const logLines: string[] = [];
let t: Team;
beforeAll(async () => {
  t = await team(app);
  const log = app.services.log as unknown as Record<symbol, { write(line: string): boolean }>;
  const stream = log[pino.symbols.streamSym];
  stream.write = (line: string) => {
    logLines.push(line);
    return true;
  };
  app.services.log.level = 'trace';
});

async function call(method: string, path: string, token: string, body?: unknown): Promise<ApiResponse> {
  const response = await app.api(method, path, { token, body });
  answers.push(JSON.stringify(response.body));
  return response;
}

async function connection(body: Record<string, unknown>) {
  const response = await call('POST', '/tracker/connections', t.admin.token, body);
  expect(response.status, JSON.stringify(response.body)).toBe(201);
  return response.body;
}

async function rejectedTest() {
  const { id: techniqueId } = await technique(app);
  const test = await createTest(app, t.red_lead, techniqueId, { name: 'LSASS dump' });
  await advance(app, t, test.id, 'rejected');
  return test.id as string;
}

const testOf = async (id: string) => (await call('GET', `/tests/${id}`, t.red_lead.token)).body;

describe('Jira Cloud round trip', () => {
  let jiraConnection: Record<string, any>;
  beforeAll(async () => {
    jiraConnection = await connection(
      jiraCloudConnection(jira, JIRA_TOKEN, { webhook_secret: WEBHOOK_SECRET, field_mapping: { labels: ['purple-team'] } }),
    );
  });

  it('answers connections with the credential masked', async () => {
    expect(jiraConnection).toMatchObject({
      kind: 'jira_cloud',
      project: 'SEC',
      credential: '***',
      webhook_secret: '***',
      last_error: null,
    });
    const listed = await call('GET', '/tracker/connections', t.admin.token);
    expect(listed.body.map((row: any) => row.id)).toContain(jiraConnection.id);
    expect((await call('GET', '/tracker/connections', t.red_lead.token)).status).toBe(403);
  });

  it('files one issue per rejected test, closes it as fixed, retests, and reopens the same issue when the retest fails', async () => {
    const testId = await rejectedTest();
    const created = await call('POST', '/tracker/issues', t.red_lead.token, { subject_type: 'test', subject_id: testId });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(created.body).toMatchObject({ status: 'open', issue_key: 'SEC-1', issue_url: `${jira.url}/browse/SEC-1`, subject_id: testId });
    const filed = jira.issues.get('SEC-1')!;
    expect(filed.fields).toMatchObject({ project: { key: 'SEC' }, issuetype: { name: 'Task' } });
    expect(filed.fields.labels).toEqual(expect.arrayContaining(['violet', 'purple-team']));
    expect(JSON.stringify(filed.fields.description)).toContain(`/tests/${testId}`);

    const again = await call('POST', '/tracker/issues', t.blue_lead.token, { subject_type: 'test', subject_id: testId });
    expect(again.status).toBe(200);
    expect(again.body.id).toBe(created.body.id);
    expect(jira.issues.size).toBe(1);
    expect((await testOf(testId)).tracker_issue).toMatchObject({ id: created.body.id, status: 'open', issue_key: 'SEC-1' });
    expect((await testOf(testId)).remediation_status).toBe('pending');

    jira.setStatus('SEC-1', 'In Progress', 'indeterminate');
    expect((await call('POST', `/tracker/issues/${created.body.id}/sync`, t.blue_lead.token)).body).toMatchObject({
      status: 'open',
      tracker_status: 'In Progress',
    });
    expect((await testOf(testId)).remediation_status).toBe('in_progress');

    jira.setStatus('SEC-1', 'Done', 'done');
    const fixed = await call('POST', `/tracker/issues/${created.body.id}/sync`, t.blue_lead.token);
    expect(fixed.body).toMatchObject({ status: 'fixed', tracker_status: 'Done' });
    const retestId = fixed.body.retest_id as string;
    const retest = await app.services.prisma.test.findUniqueOrThrow({ where: { id: retestId } });
    expect(retest).toMatchObject({ retestOfId: testId, state: 'draft' });
    expect((await testOf(testId)).remediation_status).toBe('completed');
    await eventsSettled(app);
    const notices = await app.services.prisma.notification.findMany({ where: { event: 'tracker_issue_fixed', entityId: retestId } });
    expect(notices.map((row) => row.userId)).toContain(t.red_lead.id);

    await advance(app, t, retestId, 'rejected');
    const reopened = await until(async () => {
      const link = (await call('GET', `/tracker/issues/${created.body.id}`, t.red_lead.token)).body;
      return link.status === 'reopened' && link.tracker_status === 'To Do' ? link : undefined;
    });
    expect(reopened.reopened_at).not.toBeNull();
    expect(jira.issues.size).toBe(1);
    expect(filed.status.name).toBe('To Do');
    const commented = filed.comments.map((comment) => comment.body.content[0].content[0].text);
    expect(commented).toEqual([expect.stringContaining(`retest "LSASS dump" (${retestId}) failed: rejected in review`)]);
    expect((await testOf(testId)).remediation_status).toBe('in_progress');
  });

  it('waits out a 429 with Retry-After and shows a 401 on the connection in plain words, never as a 5xx', async () => {
    const testId = await rejectedTest();
    const created = await call('POST', '/tracker/issues', t.red_lead.token, { subject_type: 'test', subject_id: testId });
    jira.fail(/^GET \/rest\/api\/3\/issue\/SEC-/, 429, { 'retry-after': '1' });
    const started = Date.now();
    const synced = await call('POST', `/tracker/issues/${created.body.id}/sync`, t.red_lead.token);
    expect(Date.now() - started).toBeGreaterThanOrEqual(1000);
    expect(synced.body).toMatchObject({ status: 'open', last_error: null });

    jira.fail(/^GET \/rest\/api\/3\/issue\/SEC-/, 401);
    const refused = await call('POST', `/tracker/issues/${created.body.id}/sync`, t.red_lead.token);
    expect(refused.status).toBe(200);
    expect(refused.body.last_error).toBe('the tracker refused the credentials (401): check the user name and token');
    expect(refused.body.next_attempt_at).not.toBeNull();
    const shown = await call('GET', `/tracker/connections/${jiraConnection.id}`, t.admin.token);
    expect(shown.body).toMatchObject({
      last_error: 'the tracker refused the credentials (401): check the user name and token',
      consecutive_failures: 1,
    });
  });

  it('keeps an issue pending with the reason when the tracker cannot file it, and files it on the next sync', async () => {
    const testId = await rejectedTest();
    jira.fail(/^POST \/rest\/api\/3\/issue$/, 503);
    const pending = await call('POST', '/tracker/issues', t.red_lead.token, { subject_type: 'test', subject_id: testId });
    expect(pending.status).toBe(202);
    expect(pending.body).toMatchObject({ status: 'pending', issue_key: null, last_error: 'the tracker answered 503' });
    const filed = await call('POST', `/tracker/issues/${pending.body.id}/sync`, t.red_lead.token);
    expect(filed.body).toMatchObject({ status: 'open', last_error: null });
    expect(filed.body.issue_key).toMatch(/^SEC-\d+$/);
  });

  it('refuses a test without a remediation, and a caller without a lead role', async () => {
    const { id: techniqueId } = await technique(app);
    const test = await createTest(app, t.red_lead, techniqueId);
    const refused = await call('POST', '/tracker/issues', t.red_lead.token, { subject_type: 'test', subject_id: test.id });
    expect(refused).toMatchObject({ status: 400, body: { code: 'NO_REMEDIATION' } });
    expect((await call('POST', '/tracker/issues', t.red_tech.token, { subject_type: 'test', subject_id: test.id })).status).toBe(403);
  });
});

describe('Jira Data Center (REST v2, personal access token)', () => {
  it('files, closes as fixed and reopens with a plain-text comment', async () => {
    try {
      await app.services.prisma.trackerConnection.updateMany({ data: { isActive: false } });
      await connection({ name: 'Jira DC', kind: 'jira_dc', base_url: dataCenter.url, project: 'OPS', credential: JIRA_TOKEN });
      const testId = await rejectedTest();
      const created = await call('POST', '/tracker/issues', t.red_lead.token, { subject_type: 'test', subject_id: testId });
      expect(created.body).toMatchObject({ status: 'open', issue_key: 'OPS-1' });
      expect(dataCenter.issues.get('OPS-1')!.fields.description).toContain(`/tests/${testId}`);
      dataCenter.setStatus('OPS-1', 'Done', 'done');
      const fixed = await call('POST', `/tracker/issues/${created.body.id}/sync`, t.red_lead.token);
      expect(fixed.body.status).toBe('fixed');
      await advance(app, t, fixed.body.retest_id, 'rejected');
      await until(() => (dataCenter.issues.get('OPS-1')!.comments.length ? true : undefined));
      expect(dataCenter.issues.get('OPS-1')!.comments[0].body).toContain('failed: rejected in review');
      expect(dataCenter.received.every((request) => request.path.startsWith('/rest/api/2/'))).toBe(true);
    } finally {
      await app.services.prisma.trackerConnection.deleteMany({ where: { name: 'Jira DC' } });
    }
  });

  it('refuses a base URL on a private address that TRACKER_ALLOWED_HOSTS does not list', async () => {
    const refused = await call('POST', '/tracker/connections', t.admin.token, {
      name: 'Internal',
      kind: 'jira_dc',
      base_url: 'http://10.1.2.3:8080',
      project: 'OPS',
      credential: JIRA_TOKEN,
    });
    expect(refused).toMatchObject({ status: 400, body: { code: 'VALIDATION_ERROR', field: 'base_url' } });
  });
});

describe('GitHub Issues round trip with inbound webhooks', () => {
  let githubConnection: Record<string, any>;
  beforeAll(async () => {
    // Issues go to the oldest active connection: the Jira one is switched off for this part.
    const others = await app.services.prisma.trackerConnection.updateMany({ data: { isActive: false } });
    expect(others.count).toBeGreaterThanOrEqual(0);
    githubConnection = await connection({
      name: 'GitHub detections',
      kind: 'github',
      base_url: github.url,
      project: 'acme/detections',
      credential: GITHUB_TOKEN,
      webhook_secret: WEBHOOK_SECRET,
    });
  });

  const sign = (body: string, secret = WEBHOOK_SECRET) => `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;
  const deliver = (body: string, signature: string | null) =>
    app.api('POST', `/tracker/webhooks/${githubConnection.id}`, {
      body,
      headers: { 'x-github-event': 'issues', ...(signature ? { 'x-hub-signature-256': signature } : {}) },
    });

  it('closes as fixed from a signed webhook, refuses a bad signature, and reopens the same issue after a failed retest', async () => {
    const testId = await rejectedTest();
    const created = await call('POST', '/tracker/issues', t.blue_lead.token, { subject_type: 'test', subject_id: testId });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const number = Number(created.body.issue_key);
    expect(github.issues.get(number)).toMatchObject({ state: 'open', labels: expect.arrayContaining(['violet']) });

    github.closeIssue(number, 'completed');
    const body = JSON.stringify({ action: 'closed', issue: { number, state: 'closed', state_reason: 'completed' } });
    const forged = await deliver(body, sign(body, 'not-the-secret-at-all'));
    expect(forged).toMatchObject({ status: 401, body: { code: 'TRACKER_SIGNATURE_INVALID' } });
    expect((await deliver(body, null)).status).toBe(401);
    expect((await call('GET', `/tracker/issues/${created.body.id}`, t.red_lead.token)).body.status).toBe('open');

    const accepted = await deliver(body, sign(body));
    expect(accepted).toMatchObject({ status: 202, body: { detail: 'Sync queued' } });
    const fixed = await until(async () => {
      const link = (await call('GET', `/tracker/issues/${created.body.id}`, t.red_lead.token)).body;
      return link.status === 'fixed' ? link : undefined;
    });
    expect(fixed.tracker_status).toBe('closed:completed');

    await advance(app, t, fixed.retest_id, 'rejected');
    await until(async () =>
      (await call('GET', `/tracker/issues/${created.body.id}`, t.red_lead.token)).body.tracker_status === 'open' ? true : undefined,
    );
    expect(github.issues.size).toBe(1);
    expect(github.issues.get(number)).toMatchObject({ state: 'open', state_reason: 'reopened' });
    expect(github.issues.get(number)!.comments[0]).toContain('failed: rejected in review');
  });

  it('maps closed as not planned to a remediation that is not applicable', async () => {
    const testId = await rejectedTest();
    const created = await call('POST', '/tracker/issues', t.red_lead.token, { subject_type: 'test', subject_id: testId });
    github.closeIssue(Number(created.body.issue_key), 'not_planned');
    const closed = await call('POST', `/tracker/issues/${created.body.id}/sync`, t.red_lead.token);
    expect(closed.body).toMatchObject({ status: 'wont_fix', retest_id: null });
    expect((await testOf(testId)).remediation_status).toBe('not_applicable');
  });
});

describe('credentials', () => {
  it('appear in no answer, log line, audit entry, event payload or stored error', async () => {
    await eventsSettled(app);
    const audit = await app.services.prisma.auditLog.findMany();
    const events = await app.services.prisma.outboxEvent.findMany();
    const links = await app.services.prisma.trackerLink.findMany();
    const connections = await app.services.prisma.trackerConnection.findMany();
    const notifications = await app.services.prisma.notification.findMany();
    const graphql = await app.graphql('{ trackerConnections { id credential webhookSecret lastError } }', {}, t.admin.token);
    expect(graphql.data.trackerConnections.length).toBe(2);
    expect(logLines.length).toBeGreaterThan(10);
    expect(audit.some((row) => row.action === 'create_tracker_connection')).toBe(true);
    const channels = {
      answers: answers.join('\n'),
      graphql: JSON.stringify(graphql),
      logs: logLines.join('\n'),
      audit: JSON.stringify(audit),
      events: JSON.stringify(events),
      notifications: JSON.stringify(notifications),
      errors: JSON.stringify([...links.map((link) => link.lastError), ...connections.map((row) => row.lastError)]),
      stored: JSON.stringify(connections.map(({ credentialSealed: _c, webhookSecretSealed: _w, ...row }) => row)),
    };
    for (const [channel, text] of Object.entries(channels)) {
      for (const secret of SECRETS) expect(text.includes(secret), `${channel} holds a secret`).toBe(false);
    }
    // The fakes did receive them: the check above looks at real traffic.
    expect(
      jira.received.some((request) =>
        request.headers.authorization?.includes(Buffer.from(`lead@example.com:${JIRA_TOKEN}`).toString('base64')),
      ),
    ).toBe(true);
  });
});
