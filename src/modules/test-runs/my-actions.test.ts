import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from '../../../test/helpers/app.ts';
import { advance, createTest, team, technique, type Team } from '../../../test/helpers/test-runs.ts';
import { TRANSITIONS } from './state-machine.ts';

let t: Team;
const app = useTestApp();

beforeAll(async () => {
  t = await team(app);
});

const myActions = async (token: string, id: string) =>
  (await app.graphql<{ test: { myActions: string[] } }>('query ($id: UUID!) { test(id: $id) { myActions } }', { id }, token)).data!.test
    .myActions;

describe("Test.myActions: the transitions the caller's role may take now", () => {
  it('follows the transition table per role and state, offers no legacy action, and is empty for viewers', async () => {
    const { id: techniqueId } = await technique(app);
    const draft = await createTest(app, t.red_lead, techniqueId);
    const inReview = await createTest(app, t.red_lead, techniqueId);
    await advance(app, t, inReview.id, 'in_review');
    for (const [test, state] of [
      [draft, 'draft'],
      [inReview, 'in_review'],
    ] as const) {
      for (const member of Object.values(t)) {
        const expected = TRANSITIONS.filter((row) => row.from === state && !row.legacy && row.roles.includes(member.role)).map(
          (row) => row.action,
        );
        expect(await myActions(member.token, test.id), `${member.role} on ${state}`).toEqual(expected);
      }
    }
    expect(await myActions(t.red_tech.token, draft.id)).toEqual(['start_execution']);
    expect(await myActions(t.blue_tech.token, draft.id)).toEqual([]);
    expect(await myActions(t.viewer.token, inReview.id)).toEqual([]);
    expect(await myActions(t.admin.token, inReview.id)).toEqual(['validate_red', 'validate_blue']);
  });
});

const mine = async (token: string, id: string) =>
  (
    await app.graphql<{ test: { myEdits: string[]; myEvidenceTeams: string[] } }>(
      'query ($id: UUID!) { test(id: $id) { myEdits myEvidenceTeams } }',
      { id },
      token,
    )
  ).data!.test;

describe("Test.myEdits and Test.myEvidenceTeams: what the caller's role may change now", () => {
  it('offer the red team red edits and red evidence while executing; while evaluating, blue edits to the blue team and evidence to each team as itself; nothing to viewers', async () => {
    const { id: techniqueId } = await technique(app);
    const test = await createTest(app, t.red_lead, techniqueId);
    await advance(app, t, test.id, 'red_executing');
    expect(await mine(t.red_tech.token, test.id)).toEqual({ myEdits: ['red'], myEvidenceTeams: ['red'] });
    expect(await mine(t.blue_tech.token, test.id)).toEqual({ myEdits: [], myEvidenceTeams: [] });
    expect(await mine(t.admin.token, test.id)).toEqual({ myEdits: ['red', 'classification'], myEvidenceTeams: ['red'] });
    const evaluating = await createTest(app, t.red_lead, techniqueId);
    await advance(app, t, evaluating.id, 'blue_evaluating');
    expect(await mine(t.red_tech.token, evaluating.id)).toEqual({ myEdits: [], myEvidenceTeams: ['red'] });
    expect(await mine(t.blue_tech.token, evaluating.id)).toEqual({ myEdits: ['blue'], myEvidenceTeams: ['blue'] });
    expect(await mine(t.viewer.token, evaluating.id)).toEqual({ myEdits: [], myEvidenceTeams: [] });
    const refused = await app.api('PATCH', `/tests/${evaluating.id}/red`, { token: t.red_tech.token, body: { red_summary: 'late' } });
    expect(refused.body).toMatchObject({ code: 'EDIT_NOT_ALLOWED' });
  });
});
