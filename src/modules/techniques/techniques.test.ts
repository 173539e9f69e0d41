import { getNamedType, isLeafType, type GraphQLObjectType } from 'graphql';
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from '../../../test/helpers/app.ts';
import { schema } from '../../graphql/schema.ts';

/** Every leaf field of a technique but its ttp id, which each probe below selects beside the one asked. */
const LEAF_FIELDS = Object.values((schema.getType('Technique') as GraphQLObjectType).getFields())
  .filter((field) => isLeafType(getNamedType(field.type)) && field.name !== 'ttpId')
  .map((field) => field.name);

let admin: string;

const app = useTestApp();

beforeAll(async () => {
  admin = await app.tokenFor('admin');
});

describe('techniques', () => {
  it('an admin creates a custom technique, and the change is audited in the same transaction', async () => {
    const created = await app.api('POST', '/techniques', {
      token: admin,
      body: { ttp_id: 'T9001', name: 'Custom one', tactic: 'Execution', platforms: ['Windows', 'Linux'] },
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      ttp_id: 'T9001',
      name: 'Custom one',
      tactic: 'Execution',
      status_global: 'not_evaluated',
      is_custom: true,
    });
    const audit = await app.services.prisma.auditLog.findFirst({ where: { action: 'create_technique', entityId: created.body.id } });
    expect(audit).toMatchObject({ entityType: 'technique', details: { ttp_id: 'T9001', name: 'Custom one' } });
  });

  it('a duplicate ttp_id answers 409 and a missing name names the field', async () => {
    const duplicate = await app.api('POST', '/techniques', { token: admin, body: { ttp_id: 'T9001', name: 'Again' } });
    expect(duplicate).toMatchObject({ status: 409, body: { code: 'CONFLICT' } });
    const missing = await app.api('POST', '/techniques', { token: admin, body: { ttp_id: 'T9002' } });
    expect(missing.status).toBe(400);
    expect(missing.body).toMatchObject({ code: 'VALIDATION_ERROR', field: 'name' });
    const unknown = await app.api('POST', '/techniques', { token: admin, body: { ttp_id: 'T9002', name: 'x', colour: 'red' } });
    expect(unknown.body).toMatchObject({ code: 'VALIDATION_ERROR', field: 'colour' });
  });

  it('filters by tactic, status, review flag, platform and search; GraphQL gives the same answer', async () => {
    await app.api('POST', '/techniques', {
      token: admin,
      body: { ttp_id: 'T9003', name: 'Second', tactic: 'Persistence', platforms: ['macOS'] },
    });
    await app.api('PATCH', '/techniques/T9003', { token: admin, body: { review_required: true, status_global: 'partial' } });
    const viewer = await app.tokenFor('viewer');
    const byTactic = await app.api('GET', '/techniques?tactic=persistence', { token: viewer });
    expect(byTactic.body.map((t: any) => t.ttp_id)).toEqual(['T9003']);
    expect((await app.api('GET', '/techniques?status=partial', { token: viewer })).body).toHaveLength(1);
    expect((await app.api('GET', '/techniques?coverage_status=not_evaluated', { token: viewer })).body.map((t: any) => t.ttp_id)).toEqual([
      'T9001',
    ]);
    expect((await app.api('GET', '/techniques?review_required=true', { token: viewer })).body.map((t: any) => t.ttp_id)).toEqual(['T9003']);
    expect((await app.api('GET', '/techniques?platform=Linux', { token: viewer })).body.map((t: any) => t.ttp_id)).toEqual(['T9001']);
    expect((await app.api('GET', '/techniques?search=second', { token: viewer })).body.map((t: any) => t.ttp_id)).toEqual(['T9003']);
    const graphql = await app.graphql('{ techniques(filter: { reviewRequired: true }) { ttpId statusGlobal } }', {}, viewer);
    expect(graphql.data).toEqual({ techniques: [{ ttpId: 'T9003', statusGlobal: 'partial' }] });
  });

  it('a lead marks a technique reviewed; a technician may not', async () => {
    const lead = await app.tokenFor('blue_lead');
    const reviewed = await app.api('PATCH', '/techniques/T9003/review', { token: lead });
    expect(reviewed).toMatchObject({ status: 200, body: { review_required: false } });
    expect((await app.api('PATCH', '/techniques/T9003/review', { token: await app.tokenFor('red_tech') })).status).toBe(403);
  });

  it('unknown techniques answer 404 and bad query values 400', async () => {
    const viewer = await app.tokenFor('viewer');
    expect(await app.api('GET', '/techniques/T0000', { token: viewer })).toMatchObject({ status: 404, body: { code: 'NOT_FOUND' } });
    expect(await app.api('GET', '/techniques?status=great', { token: viewer })).toMatchObject({ status: 400, body: { field: 'status' } });
  });
});

describe('catalog fields and filters', () => {
  const attackTechnique = (ttpId: string, data: Record<string, unknown> = {}) =>
    app.services.prisma.technique.create({ data: { ttpId, name: `Technique ${ttpId}`, stixId: `attack-pattern--${ttpId}`, ...data } });
  const list = async (query: string) =>
    (await app.api('GET', `/techniques?${query}`, { token: await app.tokenFor('viewer') })).body.map(
      (technique: any) => technique.ttp_id as string,
    );

  it('revoked and deprecated techniques are hidden from the list unless include_deprecated=true, and still readable by ttp id', async () => {
    await attackTechnique('T9100', { revoked: true });
    await attackTechnique('T9101', { deprecated: true });
    await attackTechnique('T9102');
    expect(await list('search=T910')).toEqual(['T9102']);
    expect(await list('search=T910&include_deprecated=true')).toEqual(['T9100', 'T9101', 'T9102']);
    const revoked = await app.api('GET', '/techniques/T9100', { token: await app.tokenFor('viewer') });
    expect(revoked.body).toMatchObject({
      ttp_id: 'T9100',
      revoked: true,
      deprecated: false,
      is_custom: false,
      stix_id: 'attack-pattern--T9100',
    });
  });

  it('the tactic filter matches any tactic of a technique by display name, short name or id; custom techniques get tactics from tactic', async () => {
    await app.services.prisma.tactic.createMany({
      data: [
        { externalId: 'TA0004', shortName: 'privilege-escalation', name: 'Privilege Escalation', matrixOrder: 6 },
        { externalId: 'TA0005', shortName: 'defense-evasion', name: 'Defense Evasion', matrixOrder: 7 },
      ],
    });
    await attackTechnique('T9200', {
      tactic: 'Privilege Escalation',
      tactics: ['privilege-escalation', 'defense-evasion'],
      platforms: ['Windows'],
    });
    for (const tactic of ['TA0005', 'ta0005', 'Defense%20Evasion', 'defense-evasion', 'DEFENSE%20EVASION']) {
      expect(await list(`tactic=${tactic}`)).toEqual(['T9200']);
    }
    expect(await list('tactic=Privilege%20Escalation')).toEqual(['T9200']);

    const created = await app.api('POST', '/techniques', {
      token: admin,
      body: { ttp_id: 'T9201', name: 'Custom evasion', tactic: 'privilege escalation' },
    });
    expect(created.body).toMatchObject({ tactic: 'Privilege Escalation', tactics: ['privilege-escalation'], is_custom: true });
    const moved = await app.api('PATCH', '/techniques/T9201', { token: admin, body: { tactic: 'TA0005' } });
    expect(moved.body).toMatchObject({ tactic: 'Defense Evasion', tactics: ['defense-evasion'] });
    expect(await list('tactic=defense-evasion')).toEqual(['T9200', 'T9201']);
    const unknown = await app.api('POST', '/techniques', {
      token: admin,
      body: { ttp_id: 'T9202', name: 'Elsewhere', tactic: 'Lateral Movement' },
    });
    expect(unknown.body).toMatchObject({ tactic: 'Lateral Movement', tactics: ['lateral-movement'] });
    expect(await list('tactic=lateral-movement')).toEqual(['T9202']);
    expect(await list('platform=WINDOWS')).toEqual(['T9001', 'T9200']);
  });

  it('GraphQL gives sub-techniques, the parent and the tactics in matrix order', async () => {
    await attackTechnique('T9300');
    await attackTechnique('T9300.002', { isSubtechnique: true, parentTtpId: 'T9300' });
    await attackTechnique('T9300.001', { isSubtechnique: true, parentTtpId: 'T9300' });
    await attackTechnique('T9300.003', { isSubtechnique: true, parentTtpId: 'T9300', revoked: true });
    const viewer = await app.tokenFor('viewer');
    const { data } = await app.graphql(
      '{ technique(ttpId: "T9300") { subTechniques { ttpId isSubtechnique parent { ttpId } } mitigations { description } } tactics { externalId } }',
      {},
      viewer,
    );
    expect(data).toEqual({
      technique: {
        subTechniques: [
          { ttpId: 'T9300.001', isSubtechnique: true, parent: { ttpId: 'T9300' } },
          { ttpId: 'T9300.002', isSubtechnique: true, parent: { ttpId: 'T9300' } },
        ],
        mitigations: [],
      },
      tactics: [{ externalId: 'TA0004' }, { externalId: 'TA0005' }],
    });
    const sub = await app.api('GET', '/techniques/T9300.001', { token: viewer });
    expect(sub.body).toMatchObject({ is_subtechnique: true, parent_ttp_id: 'T9300' });
  });

  it("the single read lists the technique's tests, oldest first, with their state", async () => {
    await app.api('POST', '/techniques', { token: admin, body: { ttp_id: 'T9400', name: 'Tested technique' } });
    const technique = await app.api('GET', '/techniques/T9400', { token: admin });
    expect(technique.body.tests).toEqual([]);
    const lead = await app.tokenFor('red_lead');
    const first = await app.api('POST', '/tests', { token: lead, body: { technique_id: technique.body.id, name: 'First run' } });
    const second = await app.api('POST', '/tests', { token: lead, body: { technique_id: technique.body.id, name: 'Second run' } });
    expect([first.status, second.status]).toEqual([201, 201]);
    await app.api('POST', `/tests/${first.body.id}/start-execution`, { token: lead });
    const read = await app.api('GET', '/techniques/T9400', { token: await app.tokenFor('viewer') });
    expect(read.body.tests.map((test: any) => [test.id, test.name, test.state])).toEqual([
      [first.body.id, 'First run', 'red_executing'],
      [second.body.id, 'Second run', 'draft'],
    ]);
    expect(read.body.status_global).toBe('in_progress');
  });

  it('search takes its text literally: LIKE wildcards match only themselves', async () => {
    await app.api('POST', '/techniques', { token: admin, body: { ttp_id: 'T9500', name: '100% coverage_check' } });
    const search = async (text: string) =>
      (await app.api('GET', `/techniques?search=${encodeURIComponent(text)}`, { token: admin })).body.map((t: any) => t.ttp_id);
    expect(await search('_')).toEqual(['T9500']);
    expect(await search('0%')).toEqual(['T9500']);
    expect(await search('%x')).toEqual([]);
  });

  it('a technique reads only the columns its selection names, listed or through a relation: each field asked alone equals the whole read', async () => {
    const common = {
      tactic: 'Execution',
      tactics: ['execution'],
      platforms: ['Linux'],
      description: 'Own columns',
      url: 'https://example.test/T9600',
    };
    await app.services.prisma.technique.create({
      data: { ttpId: 'T9600', name: 'Own columns', stixId: 'attack-pattern--t9600', ...common },
    });
    const sub = await app.services.prisma.technique.create({
      data: { ttpId: 'T9600.001', name: 'Own columns: sub', isSubtechnique: true, parentTtpId: 'T9600', attackVersion: '1.2', ...common },
    });
    const list = async (fields: string) => {
      const answer = await app.graphql(`{ techniques(filter: { search: "T9600" }) { ttpId ${fields} } }`, {}, admin);
      expect(answer.errors).toBeUndefined();
      return answer.data.techniques as Record<string, unknown>[];
    };
    const whole = await list(LEAF_FIELDS.join(' '));
    expect(whole.map((technique) => [technique.ttpId, technique.name, technique.attackVersion])).toEqual([
      ['T9600', 'Own columns', null],
      ['T9600.001', 'Own columns: sub', '1.2'],
    ]);
    expect(LEAF_FIELDS).toEqual(expect.arrayContaining(['id', 'name', 'description', 'statusGlobal', 'attackModified', 'updatedAt']));
    for (const field of LEAF_FIELDS) {
      expect(await list(field), field).toEqual(whole.map((technique) => ({ ttpId: technique.ttpId, [field]: technique[field] })));
    }
    expect(await list('parent { ttpId name }')).toEqual([
      { ttpId: 'T9600', parent: null },
      { ttpId: 'T9600.001', parent: { ttpId: 'T9600', name: 'Own columns' } },
    ]);
    expect(await list('subTechniques { ttpId }')).toEqual([
      { ttpId: 'T9600', subTechniques: [{ ttpId: 'T9600.001' }] },
      { ttpId: 'T9600.001', subTechniques: [] },
    ]);

    // Through a test: the relation's selection is the technique's own, parent and sub-techniques included.
    const created = await app.api('POST', '/tests', { token: admin, body: { name: 'own columns', technique_id: sub.id } });
    expect(created.status).toBe(201);
    const ofTest = async (fields: string) => {
      const answer = await app.graphql(
        `query ($id: UUID!) { test(id: $id) { technique { ttpId ${fields} } } }`,
        { id: created.body.id },
        admin,
      );
      expect(answer.errors).toBeUndefined();
      return (answer.data.test as { technique: Record<string, unknown> }).technique;
    };
    for (const field of LEAF_FIELDS) {
      expect(await ofTest(field), field).toEqual({ ttpId: 'T9600.001', [field]: whole[1][field] });
    }
    expect(await ofTest('parent { ttpId description }')).toEqual({
      ttpId: 'T9600.001',
      parent: { ttpId: 'T9600', description: 'Own columns' },
    });
    expect(await ofTest('subTechniques { ttpId }')).toEqual({ ttpId: 'T9600.001', subTechniques: [] });
  });
});
