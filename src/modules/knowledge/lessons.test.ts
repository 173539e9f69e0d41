import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from '../../../test/helpers/app.ts';
import { campaign, createTest, technique, useTeam } from '../../../test/helpers/test-runs.ts';

const app = useTestApp();
const t = useTeam(app);
let techniqueId: string;

beforeAll(async () => {
  techniqueId = (await technique(app)).id;
});

const LESSON = {
  what_happened: 'The encoded command ran without an alert.',
  root_cause: 'Script block logging was off on the workstation image.',
  recommendations: 'Enable script block logging in the base image.',
};

const post = (body: Record<string, unknown>, token = t.blue_lead.token) => app.api('POST', '/knowledge/lessons', { token, body });

describe('lessons learned: creation', () => {
  it('records a lesson with what happened, the root cause and recommendations', async () => {
    const created = await post({ ...LESSON, technique_id: techniqueId, severity: 'high', title: 'No alert on encoded PowerShell' });
    expect(created).toMatchObject({
      status: 201,
      body: { ...LESSON, technique_id: techniqueId, severity: 'high', title: 'No alert on encoded PowerShell', test_id: null },
    });
    expect(created.body.created_by).toBe(t.blue_lead.id);
    const read = await app.api('GET', `/knowledge/lessons/${created.body.id}`, { token: t.viewer.token });
    expect(read).toMatchObject({ status: 200, body: created.body });
    const audit = await app.services.prisma.auditLog.findFirst({ where: { action: 'create_lesson', entityId: created.body.id } });
    expect(audit).toMatchObject({ userId: t.blue_lead.id, details: { severity: 'high', technique_id: techniqueId } });
  });

  it('is refused without what_happened or root_cause: 400 VALIDATION_ERROR naming the field', async () => {
    const { what_happened: _what, ...noWhat } = LESSON;
    const { root_cause: _cause, ...noCause } = LESSON;
    expect(await post({ ...noWhat, technique_id: techniqueId })).toMatchObject({
      status: 400,
      body: { code: 'VALIDATION_ERROR', field: 'what_happened' },
    });
    expect(await post({ ...noCause, technique_id: techniqueId })).toMatchObject({
      status: 400,
      body: { code: 'VALIDATION_ERROR', field: 'root_cause' },
    });
    expect(await post({ ...LESSON, root_cause: ' \n ', technique_id: techniqueId })).toMatchObject({
      status: 400,
      body: { field: 'root_cause', detail: 'root_cause: must not be empty' },
    });
    expect(await post({ ...LESSON, what_happened: null, technique_id: techniqueId })).toMatchObject({
      status: 400,
      body: { field: 'what_happened' },
    });
    expect(await app.services.prisma.lessonLearned.count({ where: { rootCause: ' \n ' } })).toBe(0);
  });

  it('needs a technique: given, or that of the test it comes from, which also lends its campaign', async () => {
    expect(await post(LESSON)).toMatchObject({ status: 400, body: { field: 'technique_id' } });
    expect(await post({ ...LESSON, technique_id: randomUUID() })).toMatchObject({ status: 400, body: { field: 'technique_id' } });
    expect(await post({ ...LESSON, technique_id: techniqueId, severity: 'severe' })).toMatchObject({
      status: 400,
      body: { field: 'severity' },
    });

    const run = await campaign(app, t.red_lead);
    const test = await createTest(app, t.red_lead, techniqueId);
    await app.services.prisma.test.update({ where: { id: test.id }, data: { campaignId: run.id } });
    const fromTest = await post({ ...LESSON, test_id: test.id });
    expect(fromTest).toMatchObject({
      status: 201,
      body: { technique_id: techniqueId, test_id: test.id, campaign_id: run.id, severity: 'medium', title: LESSON.what_happened },
    });
    const otherTechnique = await technique(app);
    expect(await post({ ...LESSON, test_id: test.id, technique_id: otherTechnique.id })).toMatchObject({
      status: 400,
      body: { field: 'technique_id' },
    });
    expect(await post({ ...LESSON, test_id: randomUUID() })).toMatchObject({ status: 400, body: { field: 'test_id' } });
    expect(await post({ ...LESSON, technique_id: techniqueId, campaign_id: randomUUID() })).toMatchObject({
      status: 400,
      body: { field: 'campaign_id' },
    });
  });
});

describe('lessons learned: changes', () => {
  it('a change keeps what happened and the root cause non-empty; test and campaign can be detached', async () => {
    const run = await campaign(app, t.red_lead);
    const { body: lesson } = await post({ ...LESSON, technique_id: techniqueId, campaign_id: run.id });
    const patch = (body: unknown, token = t.red_lead.token) => app.api('PATCH', `/knowledge/lessons/${lesson.id}`, { token, body });
    expect(await patch({ severity: 'critical', recommendations: 'Alert on 4104.' })).toMatchObject({
      status: 200,
      body: { severity: 'critical', recommendations: 'Alert on 4104.', campaign_id: run.id },
    });
    expect(await patch({ campaign_id: null })).toMatchObject({ status: 200, body: { campaign_id: null } });
    expect(await patch({ what_happened: '' })).toMatchObject({ status: 400, body: { field: 'what_happened' } });
    expect(await patch({ root_cause: null })).toMatchObject({ status: 400, body: { field: 'root_cause' } });
    expect(await patch({ severity: 'low' }, t.blue_tech.token)).toMatchObject({ status: 403 });
    expect(await app.services.prisma.auditLog.count({ where: { action: 'update_lesson', entityId: lesson.id } })).toBe(2);

    expect((await app.api('DELETE', `/knowledge/lessons/${lesson.id}`, { token: t.admin.token })).status).toBe(204);
    expect(await app.api('GET', `/knowledge/lessons/${lesson.id}`, { token: t.viewer.token })).toMatchObject({ status: 404 });
    expect(await app.api('DELETE', `/knowledge/lessons/${lesson.id}`, { token: t.admin.token })).toMatchObject({ status: 404 });
  });
});

describe('lessons learned: listing', () => {
  let subject: { id: string; ttpId: string };
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    subject = await technique(app);
    const make = async (key: string, body: Record<string, unknown>) =>
      (ids[key] = (await post({ ...LESSON, technique_id: subject.id, ...body })).body.id);
    await make('low', { severity: 'low', title: 'Slow triage', root_cause: 'The lateral movement alert went to an unwatched queue.' });
    await make('high', { severity: 'high', title: 'Missed lateral movement' });
    await make('critical', { severity: 'critical', title: 'Domain admin reached', what_happened: 'Lateral movement went unseen.' });
  });

  const list = async (query: string) => {
    const response = await app.api('GET', `/knowledge/lessons?${query}`, { token: t.viewer.token });
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    return (response.body.items as any[]).map((item) => Object.entries(ids).find(([, id]) => id === item.id)?.[0] ?? item.id);
  };

  it('filters by severity and technique (uuid or ttp id), newest first', async () => {
    expect(await list(`technique=${subject.id}`)).toEqual(['critical', 'high', 'low']);
    expect(await list(`technique=${subject.ttpId}&severity=high`)).toEqual(['high']);
    expect(await list('technique=T0000')).toEqual([]);
    expect(await app.api('GET', '/knowledge/lessons?severity=urgent', { token: t.viewer.token })).toMatchObject({
      status: 400,
      body: { field: 'severity' },
    });
  });

  it('searches title, what happened, root cause and recommendations, title matches first', async () => {
    expect(await list(`technique=${subject.id}&search=${encodeURIComponent('lateral movements')}`)).toEqual(['high', 'critical', 'low']);
    expect(await list(`search=unwatched`)).toEqual(['low']);
    expect(await list(`search=lateral&severity=critical`)).toEqual(['critical']);
  });
});
