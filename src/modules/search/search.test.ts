import { randomBytes } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from '../../../test/helpers/app.ts';
import { createTest, team, technique, type Team } from '../../../test/helpers/test-runs.ts';

const app = useTestApp();
let t: Team;

const SEARCH = `query ($query: String!, $limit: Int) {
  search(query: $query, limit: $limit) {
    techniques { ttpId name }
    tests { id name state ttpId }
    playbooks { id title ttpId }
  }
}`;

beforeAll(async () => {
  t = await team(app);
});

describe('search', () => {
  it('finds a technique by ttp id (the exact one first) and by name, a test and a playbook by their names, for every role', async () => {
    const word = `Zebra${randomBytes(3).toString('hex')}`;
    const parent = await app.services.prisma.technique.create({ data: { ttpId: 'T8801', name: `${word} parent`, tactic: 'Execution' } });
    await app.services.prisma.technique.create({ data: { ttpId: 'T8801.001', name: 'Child', tactic: 'Execution' } });
    await app.services.prisma.technique.create({ data: { ttpId: 'T8802', name: `Old ${word}`, tactic: 'Execution', revoked: true } });
    const test = await createTest(app, t.red_lead, parent.id, { name: `Run the ${word} loader` });
    const playbook = await app.api('POST', '/knowledge/playbooks', {
      token: t.admin.token,
      body: { technique_id: parent.id, type: 'detection', title: `Hunt ${word}` },
    });

    const byId = await app.graphql(SEARCH, { query: 't8801' }, t.viewer.token);
    expect(byId.errors).toBeUndefined();
    expect(byId.data.search.techniques.map((hit: any) => hit.ttpId)).toEqual(['T8801', 'T8801.001']);

    const byName = await app.graphql(SEARCH, { query: word.toLowerCase() }, t.blue_tech.token);
    expect(byName.data.search).toEqual({
      techniques: [{ ttpId: 'T8801', name: `${word} parent` }],
      tests: [{ id: test.id, name: `Run the ${word} loader`, state: 'draft', ttpId: 'T8801' }],
      playbooks: [{ id: playbook.body.id, title: `Hunt ${word}`, ttpId: 'T8801' }],
    });
  });

  it('takes the text literally: % and _ match only themselves', async () => {
    const { id } = await technique(app);
    await createTest(app, t.red_lead, id, { name: '100%_done' });
    const wildcard = await app.graphql(SEARCH, { query: '%' }, t.viewer.token);
    expect(wildcard.data.search.tests.map((hit: any) => hit.name)).toEqual(['100%_done']);
    const underscore = await app.graphql(SEARCH, { query: '0%_d' }, t.viewer.token);
    expect(underscore.data.search.tests).toHaveLength(1);
  });

  it('returns at most the limit per kind', async () => {
    const { id } = await technique(app);
    const word = `Many${randomBytes(3).toString('hex')}`;
    for (let i = 0; i < 4; i++) await createTest(app, t.red_lead, id, { name: `${word} ${i}` });
    const limited = await app.graphql(SEARCH, { query: word, limit: 3 }, t.viewer.token);
    expect(limited.data.search.tests.map((hit: any) => hit.name)).toEqual([`${word} 3`, `${word} 2`, `${word} 1`]);
  });

  it('refuses an empty or too long text and a limit beyond the maximum, and anyone signed out', async () => {
    for (const [variables, field] of [
      [{ query: '   ' }, 'query'],
      [{ query: 'x'.repeat(101) }, 'query'],
      [{ query: 'x', limit: 21 }, 'limit'],
      [{ query: 'x', limit: 0 }, 'limit'],
    ] as const) {
      const refused = await app.graphql(SEARCH, variables, t.viewer.token);
      expect(refused.errors?.[0].extensions).toMatchObject({ code: 'VALIDATION_ERROR', field });
    }
    const anonymous = await app.graphql(SEARCH, { query: 'x' });
    expect(anonymous.errors?.[0].extensions.code).toBe('NOT_AUTHENTICATED');
  });
});
