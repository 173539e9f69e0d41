import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from '../../../test/helpers/app.ts';
import { team, technique, type Team } from '../../../test/helpers/test-runs.ts';
import { createTrackerConnection, JIRA_ACCOUNT, JIRA_PROJECT, jiraCloudConnection } from '../../../test/helpers/tracker.ts';
import { startFakeJira, type FakeJira } from '../../../test/fixtures/tracker-servers.ts';

const JIRA_TOKEN = 'jira-api-token-revalidation-4c2e';

let jira: FakeJira;
beforeAll(async () => {
  jira = await startFakeJira(JIRA_ACCOUNT, JIRA_TOKEN, JIRA_PROJECT);
});
afterAll(() => jira?.close());

const app = useTestApp(() => ({
  TRACKER_ALLOWED_HOSTS: `127.0.0.1:${new URL(jira.url).port}`,
  PUBLIC_URL: 'https://violet.example',
}));

let t: Team;
beforeAll(async () => {
  t = await team(app);
  await createTrackerConnection(app, t.admin, jiraCloudConnection(jira, JIRA_TOKEN));
});

/** A technique in the revalidation queue because its validation expired, owned on the red side by a user known to Jira. */
async function queuedTechnique() {
  const tech = await technique(app);
  await app.services.prisma.user.update({ where: { id: t.red_lead.id }, data: { trackerAccountId: 'jira-red-lead' } });
  await app.services.prisma.ownershipAssignment.create({ data: { techniqueId: tech.id, ownerId: t.red_lead.id, responsibility: 'red' } });
  const entry = await app.services.prisma.revalidationEntry.create({
    data: {
      techniqueId: tech.id,
      reason: 'validation_expired',
      detail: 'The latest validation expired on 2026-11-01',
      riskScore: 45,
      since: new Date('2026-11-01T00:00:00Z'),
    },
  });
  return { tech, entry };
}

describe('a revalidation-queue entry as the subject of a tracker issue', () => {
  it('files one issue naming the technique, the reason and the links back, and answers the same link on a second call', async () => {
    const { tech, entry } = await queuedTechnique();
    const created = await app.api('POST', '/tracker/issues', {
      token: t.blue_lead.token,
      body: { subject_type: 'revalidation', subject_id: entry.id },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(created.body).toMatchObject({ subject_type: 'revalidation', subject_id: entry.id, status: 'open' });

    const filed = jira.issues.get(created.body.issue_key)!;
    expect(filed.fields.summary).toBe(`Revalidate ${tech.ttpId} ${tech.name}: its validation expired`);
    expect(filed.fields.labels).toEqual(['violet', tech.ttpId, 'revalidation', 'validation_expired', 'risk:high']);
    expect(filed.fields.priority).toEqual({ name: 'High' });
    expect(filed.fields.assignee).toEqual({ accountId: 'jira-red-lead' });
    const description = JSON.stringify(filed.fields.description);
    expect(description).toContain('The latest validation expired on 2026-11-01 (since 2026-11-01)');
    expect(description).toContain('https://violet.example/revalidation');
    expect(description).toContain(`https://violet.example/techniques/${tech.ttpId}`);

    const again = await app.graphql(
      'mutation ($input: CreateTrackerIssueInput!) { createTrackerIssue(input: $input) { created issue { id subjectType } } }',
      { input: { subjectType: 'revalidation', subjectId: entry.id } },
      t.red_lead.token,
    );
    expect(again.data.createTrackerIssue).toEqual({ created: false, issue: { id: created.body.id, subjectType: 'revalidation' } });
    expect(jira.issues.size).toBe(1);
  });

  it('answers 404 for an entry that is not in the queue, and 403 to a technician', async () => {
    const missing = await app.api('POST', '/tracker/issues', {
      token: t.red_lead.token,
      body: { subject_type: 'revalidation', subject_id: '5f0c9a8e-3b1d-4c7e-9a2f-6d8b1e0c4a37' },
    });
    expect(missing).toMatchObject({ status: 404, body: { code: 'NOT_FOUND' } });
    const { entry } = await queuedTechnique();
    const refused = await app.api('POST', '/tracker/issues', {
      token: t.red_tech.token,
      body: { subject_type: 'revalidation', subject_id: entry.id },
    });
    expect(refused.status).toBe(403);
  });

  it('keeps a pending issue waiting, without blaming the connection, when its entry left the queue before filing', async () => {
    const { entry } = await queuedTechnique();
    jira.fail(/^POST \/rest\/api\/3\/issue$/, 503);
    const pending = await app.api('POST', '/tracker/issues', {
      token: t.red_lead.token,
      body: { subject_type: 'revalidation', subject_id: entry.id },
    });
    expect(pending).toMatchObject({ status: 202, body: { status: 'pending', last_error: 'the tracker answered 503' } });
    await app.services.prisma.revalidationEntry.delete({ where: { id: entry.id } });
    const before = await app.services.prisma.trackerConnection.findFirstOrThrow({ where: { name: 'Jira SEC' } });
    const synced = await app.api('POST', `/tracker/issues/${pending.body.id}/sync`, { token: t.red_lead.token });
    expect(synced).toMatchObject({
      status: 200,
      body: { status: 'pending', issue_key: null, last_error: 'the revalidation entry left the queue before its issue was filed' },
    });
    expect(synced.body.next_attempt_at).not.toBeNull();
    const after = await app.services.prisma.trackerConnection.findFirstOrThrow({ where: { name: 'Jira SEC' } });
    expect(after).toMatchObject({ lastError: before.lastError, consecutiveFailures: before.consecutiveFailures });
  });

  it('closes the link as fixed without a retest when the issue is done', async () => {
    const { entry } = await queuedTechnique();
    const created = await app.api('POST', '/tracker/issues', {
      token: t.red_lead.token,
      body: { subject_type: 'revalidation', subject_id: entry.id },
    });
    jira.setStatus(created.body.issue_key, 'Done', 'done');
    const fixed = await app.api('POST', `/tracker/issues/${created.body.id}/sync`, { token: t.red_lead.token });
    expect(fixed.body).toMatchObject({ status: 'fixed', retest_id: null, tracker_status: 'Done' });
  });
});
