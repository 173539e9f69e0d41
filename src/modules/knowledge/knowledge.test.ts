import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from '../../../test/helpers/app.ts';
import { team, technique, type Team } from '../../../test/helpers/test-runs.ts';

const app = useTestApp();
let t: Team;

beforeAll(async () => {
  t = await team(app);
});

const LESSON = { what_happened: 'Nothing fired.', root_cause: 'No rule.' };

async function created(path: string, body: Record<string, unknown>) {
  const response = await app.api('POST', path, { token: t.admin.token, body });
  expect(response.status, JSON.stringify(response.body)).toBe(201);
  return response.body as Record<string, any>;
}

describe('knowledge statistics', () => {
  it('count playbooks by type and lessons by severity, every value present, zeros included', async () => {
    const empty = await app.api('GET', '/knowledge/stats', { token: t.viewer.token });
    expect(empty).toMatchObject({
      status: 200,
      body: {
        playbooks: { total: 0, by_type: { execution: 0, detection: 0, response: 0, hunting: 0, remediation: 0 } },
        lessons: { total: 0, by_severity: { informational: 0, low: 0, medium: 0, high: 0, critical: 0 } },
      },
    });

    const { id: techniqueId } = await technique(app);
    for (const type of ['detection', 'detection', 'detection', 'hunting', 'execution']) {
      await created('/knowledge/playbooks', { technique_id: techniqueId, type, title: `A ${type} playbook` });
    }
    for (const severity of ['high', 'high', 'critical', undefined]) {
      await created('/knowledge/lessons', { ...LESSON, technique_id: techniqueId, severity });
    }
    const deleted = await created('/knowledge/playbooks', { technique_id: techniqueId, type: 'response', title: 'Gone' });
    await app.api('DELETE', `/knowledge/playbooks/${deleted.id}`, { token: t.admin.token });

    const stats = await app.api('GET', '/knowledge/stats', { token: t.red_tech.token });
    expect(stats.body).toEqual({
      playbooks: { total: 5, by_type: { execution: 1, detection: 3, response: 0, hunting: 1, remediation: 0 } },
      lessons: { total: 4, by_severity: { informational: 0, low: 0, medium: 1, high: 2, critical: 1 } },
    });
    const graphql = await app.graphql(
      '{ knowledgeStats { playbooks { total byType { detection response } } lessons { bySeverity { high } } } }',
      {},
      t.viewer.token,
    );
    expect(graphql.data.knowledgeStats).toEqual({
      playbooks: { total: 5, byType: { detection: 3, response: 0 } },
      lessons: { bySeverity: { high: 2 } },
    });
  });
});

describe("a technique's detail", () => {
  it('lists its playbooks (by type, then title) and lessons (newest first), over REST and GraphQL alike', async () => {
    const subject = await technique(app);
    const elsewhere = await technique(app);
    const hunt = await created('/knowledge/playbooks', { technique_id: subject.id, type: 'hunting', title: 'Hunt', tags: ['x'] });
    const detectB = await created('/knowledge/playbooks', { technique_id: subject.id, type: 'detection', title: 'B rule' });
    const detectA = await created('/knowledge/playbooks', { technique_id: subject.id, type: 'detection', title: 'A rule' });
    await created('/knowledge/playbooks', { technique_id: elsewhere.id, type: 'detection', title: 'Not this one' });
    const older = await created('/knowledge/lessons', { ...LESSON, technique_id: subject.id, severity: 'low' });
    const newer = await created('/knowledge/lessons', { ...LESSON, technique_id: subject.id, severity: 'critical' });

    const rest = await app.api('GET', `/techniques/${subject.ttpId}`, { token: t.viewer.token });
    expect(rest.status).toBe(200);
    expect(rest.body.playbooks.map((playbook: any) => playbook.id)).toEqual([detectA.id, detectB.id, hunt.id]);
    expect(rest.body.playbooks[2]).toEqual({
      id: hunt.id,
      type: 'hunting',
      title: 'Hunt',
      tags: ['x'],
      version: 1,
      updated_at: hunt.updated_at,
    });
    expect(rest.body.lessons.map((lesson: any) => [lesson.id, lesson.severity])).toEqual([
      [newer.id, 'critical'],
      [older.id, 'low'],
    ]);

    const graphql = await app.graphql(
      `query ($ttpId: String!) { technique(ttpId: $ttpId) {
        playbooks(limit: 2) { id type title } second: playbooks(offset: 2) { id } lessons { id severity }
      } }`,
      { ttpId: subject.ttpId },
      t.viewer.token,
    );
    expect(graphql.data.technique.playbooks.map((playbook: any) => playbook.id)).toEqual([detectA.id, detectB.id]);
    expect(graphql.data.technique.second).toEqual([{ id: hunt.id }]);
    expect(graphql.data.technique.lessons).toEqual(rest.body.lessons.map(({ id, severity }: any) => ({ id, severity })));

    const tooMany = await app.graphql(`{ technique(ttpId: "${subject.ttpId}") { playbooks(limit: 201) { id } } }`, {}, t.viewer.token);
    expect(tooMany.errors?.[0].extensions).toMatchObject({ code: 'VALIDATION_ERROR', field: 'limit' });
  });
});
