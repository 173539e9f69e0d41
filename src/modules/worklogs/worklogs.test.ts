import { randomUUID } from 'node:crypto';
import { getNamedType, isInterfaceType, isObjectType } from 'graphql';
import { beforeAll, describe, expect, it } from 'vitest';
import { schema } from '../../graphql/schema.ts';
import { useTestApp } from '../../../test/helpers/app.ts';
import { campaign, createTest, team, technique, type Member, type Team } from '../../../test/helpers/test-runs.ts';

const app = useTestApp();
let t: Team;

beforeAll(async () => {
  t = await team(app);
});

const today = () => new Date().toISOString().slice(0, 10);
const daysAgo = (days: number) => new Date(Date.now() - days * 86_400_000).toISOString().slice(0, 10);

async function log(who: Member, body: Record<string, unknown>) {
  const response = await app.api('POST', '/worklogs', { token: who.token, body: { date: today(), description: 'Work', ...body } });
  expect(response.status, JSON.stringify(response.body)).toBe(201);
  return response.body as Record<string, any>;
}

describe('worklogs: own entries', () => {
  it('anyone logs time of their own; the entry shows and is audited', async () => {
    const entry = await log(t.viewer, { minutes: 45, date: daysAgo(1), description: 'Read the report' });
    expect(entry).toMatchObject({ user_id: t.viewer.id, minutes: 45, date: daysAgo(1), description: 'Read the report', test_id: null });
    expect(await app.api('GET', `/worklogs/${entry.id}`, { token: t.viewer.token })).toMatchObject({ status: 200, body: entry });
    const audit = await app.services.prisma.auditLog.findFirst({ where: { action: 'create_worklog', entityId: entry.id } });
    expect(audit).toMatchObject({ userId: t.viewer.id, details: { minutes: 45, date: daysAgo(1) } });
  });

  it('time on a test counts for its campaign unless another is given', async () => {
    const run = await campaign(app, t.red_lead);
    const { id: techniqueId } = await technique(app);
    const test = await createTest(app, t.red_lead, techniqueId);
    await app.services.prisma.test.update({ where: { id: test.id }, data: { campaignId: run.id } });
    expect(await log(t.red_tech, { minutes: 30, test_id: test.id })).toMatchObject({ test_id: test.id, campaign_id: run.id });
    expect(await log(t.red_tech, { minutes: 30, test_id: test.id, campaign_id: null })).toMatchObject({ campaign_id: null });
  });

  it('invalid input answers 400 naming the field', async () => {
    const post = (body: Record<string, unknown>) => app.api('POST', '/worklogs', { token: t.blue_tech.token, body });
    const valid = { minutes: 30, date: today(), description: 'Triage' };
    for (const [field, value] of [
      ['minutes', 0],
      ['minutes', 1441],
      ['minutes', 1.5],
      ['date', '2026-02-30'],
      ['date', '12/01/2026'],
      ['date', daysAgo(-3)],
      ['description', ' '],
      ['test_id', randomUUID()],
      ['campaign_id', randomUUID()],
    ] as const) {
      expect(await post({ ...valid, [field]: value }), `${field}: ${value}`).toMatchObject({
        status: 400,
        body: { code: 'VALIDATION_ERROR', field },
      });
    }
    const { minutes: _minutes, ...noMinutes } = valid;
    expect(await post(noMinutes)).toMatchObject({ status: 400, body: { field: 'minutes' } });
    expect(await post({ ...valid, minutes: 1440 })).toMatchObject({ status: 201 });
  });

  it('the owner changes and deletes an entry', async () => {
    const entry = await log(t.blue_lead, { minutes: 10 });
    const changed = await app.api('PATCH', `/worklogs/${entry.id}`, {
      token: t.blue_lead.token,
      body: { minutes: 20, description: 'More' },
    });
    expect(changed).toMatchObject({ status: 200, body: { minutes: 20, description: 'More' } });
    expect(await app.api('PATCH', `/worklogs/${entry.id}`, { token: t.blue_lead.token, body: { minutes: 0 } })).toMatchObject({
      status: 400,
      body: { field: 'minutes' },
    });
    expect((await app.api('DELETE', `/worklogs/${entry.id}`, { token: t.blue_lead.token })).status).toBe(204);
    expect(await app.api('GET', `/worklogs/${entry.id}`, { token: t.blue_lead.token })).toMatchObject({ status: 404 });
  });
});

describe('worklogs: a user never sees another user’s entries unless admin', () => {
  let alice: Member;
  let bob: Member;
  let admin: Member;
  let run: { id: string; name: string };
  let bobs: Record<string, any>;

  beforeAll(async () => {
    const member = async (role: 'red_lead' | 'blue_lead' | 'admin') => {
      const user = await app.createUser({ role });
      return { ...user, token: await app.login(user.username) };
    };
    [alice, bob, admin] = await Promise.all([member('red_lead'), member('blue_lead'), member('admin')]);
    run = await campaign(app, alice);
    await log(alice, { minutes: 60, date: daysAgo(2), campaign_id: run.id, description: 'Alice on the campaign' });
    await log(alice, { minutes: 15, date: daysAgo(1), description: 'Alice elsewhere' });
    bobs = await log(bob, { minutes: 120, date: daysAgo(1), campaign_id: run.id, description: 'Bob on the campaign' });
  });

  const mine = (body: { items: any[] }, who: Member) => body.items.every((item) => item.user_id === who.id);

  it('over REST: lists, summaries, reads, changes and deletions keep to the own entries', async () => {
    const list = await app.api('GET', '/worklogs', { token: alice.token });
    expect(list.status).toBe(200);
    expect(list.body).toMatchObject({ total: 2, total_minutes: 75, offset: 0, limit: 50 });
    expect(list.body.items.map((item: any) => item.description)).toEqual(['Alice elsewhere', 'Alice on the campaign']);
    expect(mine(list.body, alice)).toBe(true);
    expect((await app.api('GET', `/worklogs?campaign_id=${run.id}`, { token: alice.token })).body).toMatchObject({ total: 1 });

    expect(await app.api('GET', `/worklogs?user_id=${bob.id}`, { token: alice.token })).toMatchObject({
      status: 403,
      body: { code: 'FORBIDDEN' },
    });
    expect((await app.api('GET', `/worklogs?user_id=${alice.id}`, { token: alice.token })).body.total).toBe(2);
    for (const [method, body] of [['GET'], ['PATCH', { minutes: 1 }], ['DELETE']] as const) {
      expect(await app.api(method, `/worklogs/${bobs.id}`, { token: alice.token, body }), method).toMatchObject({
        status: 404,
        body: { code: 'NOT_FOUND' },
      });
    }
    expect(await app.services.prisma.worklog.findUnique({ where: { id: bobs.id } })).toMatchObject({ minutes: 120 });

    const summary = await app.api('GET', '/worklogs/summary', { token: alice.token });
    expect(summary.body).toEqual({
      total_minutes: 75,
      entries: 2,
      by_user: [{ user_id: alice.id, username: alice.username, display_name: null, minutes: 75, entries: 2 }],
      by_campaign: [
        { campaign_id: run.id, campaign_name: run.name, minutes: 60, entries: 1 },
        { campaign_id: null, campaign_name: null, minutes: 15, entries: 1 },
      ],
    });
  });

  it('admins read, filter, summarise and change everyone’s entries', async () => {
    const byBob = await app.api('GET', `/worklogs?user_id=${bob.id}`, { token: admin.token });
    expect(byBob.body).toMatchObject({ total: 1, total_minutes: 120 });
    expect(await app.api('GET', `/worklogs/${bobs.id}`, { token: admin.token })).toMatchObject({ status: 200, body: { id: bobs.id } });
    const summary = await app.api('GET', `/worklogs/summary?campaign_id=${run.id}&from=${daysAgo(2)}&to=${today()}`, {
      token: admin.token,
    });
    expect(summary.body).toMatchObject({
      total_minutes: 180,
      entries: 2,
      by_user: [
        { user_id: bob.id, minutes: 120, entries: 1 },
        { user_id: alice.id, minutes: 60, entries: 1 },
      ],
      by_campaign: [{ campaign_id: run.id, minutes: 180, entries: 2 }],
    });
    const day = await app.api('GET', `/worklogs/summary?user_id=${alice.id}&from=${daysAgo(1)}&to=${daysAgo(1)}`, { token: admin.token });
    expect(day.body).toMatchObject({ total_minutes: 15, entries: 1 });
    expect(await app.api('GET', `/worklogs?from=${today()}&to=${daysAgo(1)}`, { token: admin.token })).toMatchObject({
      status: 400,
      body: { field: 'to' },
    });
    const changed = await app.api('PATCH', `/worklogs/${bobs.id}`, { token: admin.token, body: { minutes: 90 } });
    expect(changed).toMatchObject({ status: 200, body: { minutes: 90, user_id: bob.id } });
    const audit = await app.services.prisma.auditLog.findFirst({ where: { action: 'update_worklog', entityId: bobs.id } });
    expect(audit).toMatchObject({ userId: admin.id, details: { owner_id: bob.id, minutes: 90 } });
  });

  it('over GraphQL: the root fields keep to the own entries', async () => {
    const query = `{ worklogs { total items { id userId user { username } } } worklogSummary { totalMinutes byUser { userId } } }`;
    const asAlice = await app.graphql(query, {}, alice.token);
    expect(asAlice.data.worklogs.total).toBe(2);
    expect(asAlice.data.worklogs.items.every((item: any) => item.userId === alice.id && item.user.username === alice.username)).toBe(true);
    expect(asAlice.data.worklogSummary).toEqual({ totalMinutes: 75, byUser: [{ userId: alice.id }] });
    const one = `query ($id: UUID!) { worklog(id: $id) { id minutes } }`;
    expect((await app.graphql(one, { id: bobs.id }, alice.token)).errors?.[0].extensions?.code).toBe('NOT_FOUND');
    const others = await app.graphql(`{ worklogs(filter: { userId: "${bob.id}" }) { total } }`, {}, alice.token);
    expect(others.errors?.[0].extensions?.code).toBe('FORBIDDEN');
    const change = await app.graphql(`mutation { updateWorklog(id: "${bobs.id}", input: { minutes: 1 }) { id } }`, {}, alice.token);
    expect(change.errors?.[0].extensions?.code).toBe('NOT_FOUND');

    expect((await app.graphql(one, { id: bobs.id }, admin.token)).data.worklog).toMatchObject({ id: bobs.id });
    const asAdmin = await app.graphql(query, {}, admin.token);
    expect(asAdmin.data.worklogSummary.byUser.map((row: any) => row.userId)).toEqual(expect.arrayContaining([alice.id, bob.id]));
  });

  it('no other GraphQL field reaches worklogs: not from users, tests, campaigns or anything else', () => {
    const WORKLOG_TYPES = ['Worklog', 'WorklogPage', 'WorklogSummary', 'WorklogUserTotal', 'WorklogCampaignTotal'];
    const holders = Object.values(schema.getTypeMap())
      .filter((type) => !type.name.startsWith('__'))
      .flatMap((type) =>
        (isObjectType(type) || isInterfaceType(type) ? Object.values(type.getFields()) : [])
          .filter((field) => WORKLOG_TYPES.includes(getNamedType(field.type).name))
          .map((field) => `${type.name}.${field.name}`),
      );
    expect(holders.sort()).toEqual(
      [
        'Mutation.createWorklog',
        'Mutation.deleteWorklog',
        'Mutation.updateWorklog',
        'Query.worklog',
        'Query.worklogSummary',
        'Query.worklogs',
        'WorklogPage.items',
        'WorklogSummary.byCampaign',
        'WorklogSummary.byUser',
      ].sort(),
    );
  });
});
