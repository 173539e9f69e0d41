import { randomUUID } from 'node:crypto';
import {
  isEnumType,
  isInputObjectType,
  isListType,
  isNonNullType,
  parse,
  typeFromAST,
  type GraphQLInputType,
  type GraphQLScalarType,
  type OperationDefinitionNode,
} from 'graphql';
import { describe, expect, it } from 'vitest';
import type { EventOf } from '../../events/types.ts';
import { schema } from '../../graphql/schema.ts';
import { createPath, storedOrder, template, usePathCatalog, validLayer } from '../../../test/helpers/attack-paths.ts';
import { useTestApp } from '../../../test/helpers/app.ts';
import { countQueries } from '../../../test/helpers/queries.ts';
import { useTeam } from '../../../test/helpers/test-runs.ts';
import { attackPathsRoutes } from './routes.ts';

const app = useTestApp();
const t = useTeam(app);
const ids = usePathCatalog(app);

const ttps = (path: any) => path.steps.map((step: any) => `${step.position}:${step.technique.ttp_id}`);

describe('creating and reading attack paths', () => {
  it('creates a path from a sequence of techniques named by ttp id or uuid, numbered 1..n, audited, with an event', async () => {
    const powershell = await template(app, 'T1059.001');
    const events: EventOf<'attack_path.changed'>[] = [];
    const off = app.services.bus.on('attack_path.changed', (event) => void events.push(event));
    const created = await createPath(app, t.red_tech, {
      name: 'Phish to PowerShell',
      description: 'Initial access, then a script',
      steps: [
        { technique: 't1566' },
        { technique: ids['T1059.001'], test_template_id: powershell.id, expected_outcome: 'blocked', notes: 'AMSI should stop it' },
        { technique: 'T1003', expected_outcome: 'not_detected' },
      ],
    });
    off();
    expect(created).toMatchObject({
      name: 'Phish to PowerShell',
      description: 'Initial access, then a script',
      created_by: t.red_tech.id,
      version: 0,
      step_count: 3,
      execution_count: 0,
    });
    expect(ttps(created)).toEqual(['1:T1566', '2:T1059.001', '3:T1003']);
    expect(created.steps[1]).toMatchObject({
      technique_id: ids['T1059.001'],
      technique: { id: ids['T1059.001'], ttp_id: 'T1059.001', name: 'PowerShell' },
      test_template_id: powershell.id,
      test_template: { id: powershell.id, name: 'Exercise T1059.001' },
      expected_outcome: 'blocked',
      notes: 'AMSI should stop it',
    });
    expect(created.steps[0]).toMatchObject({ expected_outcome: 'detected', test_template_id: null, notes: null });
    const audit = await app.services.prisma.auditLog.findFirst({ where: { action: 'create_attack_path', entityId: created.id } });
    expect(audit).toMatchObject({
      userId: t.red_tech.id,
      details: { name: 'Phish to PowerShell', techniques: ['T1566', 'T1059.001', 'T1003'] },
    });
    expect(events.map((event) => event.payload)).toEqual([{ attackPathId: created.id, change: 'created' }]);

    expect((await app.api('GET', `/attack-paths/${created.id}`, { token: t.viewer.token })).body).toEqual(created);
    const graphql = await app.graphql(
      'query ($id: UUID!) { attackPath(id: $id) { name stepCount steps { position expectedOutcome technique { ttpId } } } }',
      { id: created.id },
      t.viewer.token,
    );
    expect(graphql.data.attackPath).toEqual({
      name: 'Phish to PowerShell',
      stepCount: 3,
      steps: [
        { position: 1, expectedOutcome: 'detected', technique: { ttpId: 'T1566' } },
        { position: 2, expectedOutcome: 'blocked', technique: { ttpId: 'T1059.001' } },
        { position: 3, expectedOutcome: 'not_detected', technique: { ttpId: 'T1003' } },
      ],
    });
  });

  it('lists paths newest first with their step counts, searchable, paginated', async () => {
    const first = await createPath(app, t.blue_tech, { name: 'Listing alpha', steps: [{ technique: 'T1021' }] });
    const second = await createPath(app, t.blue_lead, { name: 'Listing beta', description: 'lateral' });
    const listed = await app.api('GET', '/attack-paths?search=listing', { token: t.viewer.token });
    expect(listed).toMatchObject({ status: 200, body: { total: 2, offset: 0, limit: 50 } });
    expect(listed.body.items.map((path: any) => [path.id, path.step_count])).toEqual([
      [second.id, 0],
      [first.id, 1],
    ]);
    expect(listed.body.items[0].steps).toBeUndefined();
    expect((await app.api('GET', '/attack-paths?search=LATERAL&limit=1', { token: t.viewer.token })).body.items[0].id).toBe(second.id);
    expect(await app.api('GET', '/attack-paths?limit=201', { token: t.viewer.token })).toMatchObject({
      status: 400,
      body: { code: 'VALIDATION_ERROR', field: 'limit' },
    });
  });

  it('the list costs the same number of queries for one path as for ten', async () => {
    for (let index = 0; index < 10; index++) {
      await createPath(app, t.red_lead, { name: `Counted ${index}`, steps: [{ technique: 'T1566' }, { technique: 'T1041' }] });
    }
    const one = await countQueries(() => app.api('GET', '/attack-paths?limit=1', { token: t.viewer.token }));
    const ten = await countQueries(() => app.api('GET', '/attack-paths?limit=10', { token: t.viewer.token }));
    expect(ten).toBe(one);
  });

  it('invalid input answers 400 naming the field, and nothing is written', async () => {
    const inactive = await template(app, 'T1003', { isActive: false });
    const post = (body: unknown) => app.api('POST', '/attack-paths', { token: t.red_lead.token, body });
    const before = await app.services.prisma.attackPath.count();
    const cases: [unknown, string, RegExp?][] = [
      [{ steps: [] }, 'name'],
      [{ name: '   ' }, 'name'],
      [{ name: 'x', steps: [{ technique: 'T1566' }, { technique: 'T9999' }] }, 'steps.1.technique', /names no technique/],
      [{ name: 'x', steps: [{ technique: randomUUID() }] }, 'steps.0.technique'],
      [{ name: 'x', steps: [{ technique: 'T1099' }] }, 'steps.0.technique', /revoked/],
      [{ name: 'x', steps: [{ technique: '' }] }, 'steps.0.technique'],
      [{ name: 'x', steps: [{ technique: 'T1566', expected_outcome: 'ignored' }] }, 'steps.0.expected_outcome'],
      [{ name: 'x', steps: [{ technique: 'T1566', test_template_id: randomUUID() }] }, 'steps.0.test_template_id', /no test template/],
      [{ name: 'x', steps: [{ technique: 'T1566', test_template_id: inactive.id }] }, 'steps.0.test_template_id', /inactive/],
      [{ name: 'x', steps: [{ technique: 'T1566', test_template_id: 'nope' }] }, 'steps.0.test_template_id'],
      [{ name: 'x', steps: Array.from({ length: 101 }, () => ({ technique: 'T1566' })) }, 'steps'],
    ];
    for (const [body, field, detail] of cases) {
      const response = await post(body);
      expect(response, JSON.stringify(body).slice(0, 100)).toMatchObject({ status: 400, body: { code: 'VALIDATION_ERROR', field } });
      if (detail) expect(response.body.detail).toMatch(detail);
    }
    expect(await app.services.prisma.attackPath.count()).toBe(before);
  });

  it('updates name and description; only a real change is written, audited and raises the version', async () => {
    const path = await createPath(app, t.red_tech, { name: 'Before' });
    const patch = (body: unknown) => app.api('PATCH', `/attack-paths/${path.id}`, { token: t.blue_tech.token, body });
    expect(await patch({ name: 'After', description: 'Changed' })).toMatchObject({
      status: 200,
      body: { name: 'After', description: 'Changed', version: 1 },
    });
    expect(await patch({ name: 'After' })).toMatchObject({ status: 200, body: { version: 1 } });
    expect(await patch({ name: '' })).toMatchObject({ status: 400, body: { field: 'name' } });
    const audits = await app.services.prisma.auditLog.findMany({ where: { action: 'update_attack_path', entityId: path.id } });
    expect(audits.map((audit) => audit.details)).toEqual([
      { fields: ['name', 'description'], changes: { name: 'After', description: 'Changed' } },
    ]);
    expect(await app.api('PATCH', `/attack-paths/${randomUUID()}`, { token: t.blue_tech.token, body: { name: 'x' } })).toMatchObject({
      status: 404,
      body: { code: 'NOT_FOUND' },
    });
  });

  it('only leads and admins delete a path (403 for technicians)', async () => {
    const path = await createPath(app, t.red_tech, { name: 'Short-lived', steps: [{ technique: 'T1566' }] });
    expect(await app.api('DELETE', `/attack-paths/${path.id}`, { token: t.red_tech.token })).toMatchObject({ status: 403 });
    expect(await app.api('DELETE', `/attack-paths/${path.id}`, { token: t.blue_lead.token })).toMatchObject({ status: 204 });
    expect(await app.api('GET', `/attack-paths/${path.id}`, { token: t.viewer.token })).toMatchObject({ status: 404 });
    expect(await app.services.prisma.attackPathStep.count({ where: { pathId: path.id } })).toBe(0);
    const audit = await app.services.prisma.auditLog.findFirst({ where: { action: 'delete_attack_path', entityId: path.id } });
    expect(audit).toMatchObject({ userId: t.blue_lead.id, details: { name: 'Short-lived', steps: 1, kept_execution_ids: [] } });
  });
});

describe('step order', () => {
  it('stays 1..n after adding at the end, inserting, removing and reordering', async () => {
    const path = await createPath(app, t.red_tech, {
      name: 'Ordering',
      steps: [{ technique: 'T1566' }, { technique: 'T1059' }, { technique: 'T1003' }],
    });
    const add = (body: unknown) => app.api('POST', `/attack-paths/${path.id}/steps`, { token: t.blue_tech.token, body });

    const appended = await add({ technique: 'T1041', expected_outcome: 'blocked' });
    expect(appended).toMatchObject({ status: 201, body: { step_count: 4, version: 1 } });
    expect(ttps(appended.body)).toEqual(['1:T1566', '2:T1059', '3:T1003', '4:T1041']);

    const inserted = await add({ technique: 'T1021', position: 2 });
    expect(ttps(inserted.body)).toEqual(['1:T1566', '2:T1021', '3:T1059', '4:T1003', '5:T1041']);
    const first = await add({ technique: 'T1059.001', position: 1 });
    expect(ttps(first.body)).toEqual(['1:T1059.001', '2:T1566', '3:T1021', '4:T1059', '5:T1003', '6:T1041']);

    const stepOf = (body: any, ttpId: string) => body.steps.find((step: any) => step.technique.ttp_id === ttpId).id;
    const removed = await app.api('DELETE', `/attack-paths/${path.id}/steps/${stepOf(first.body, 'T1021')}`, { token: t.red_tech.token });
    expect(removed).toMatchObject({ status: 200, body: { step_count: 5 } });
    expect(ttps(removed.body)).toEqual(['1:T1059.001', '2:T1566', '3:T1059', '4:T1003', '5:T1041']);
    const last = await app.api('DELETE', `/attack-paths/${path.id}/steps/${stepOf(removed.body, 'T1041')}`, { token: t.red_tech.token });
    expect(ttps(last.body)).toEqual(['1:T1059.001', '2:T1566', '3:T1059', '4:T1003']);

    const order = ['T1003', 'T1566', 'T1059.001', 'T1059'].map((ttpId) => stepOf(last.body, ttpId));
    const reordered = await app.api('PUT', `/attack-paths/${path.id}/steps/order`, { token: t.blue_lead.token, body: { step_ids: order } });
    expect(reordered).toMatchObject({ status: 200 });
    expect(ttps(reordered.body)).toEqual(['1:T1003', '2:T1566', '3:T1059.001', '4:T1059']);
    expect(reordered.body.steps.map((step: any) => step.id)).toEqual(order);
    expect(await storedOrder(app, path.id)).toEqual(['1:T1003', '2:T1566', '3:T1059.001', '4:T1059']);
    const again = await app.api('PUT', `/attack-paths/${path.id}/steps/order`, { token: t.blue_lead.token, body: { step_ids: order } });
    expect(again.body.version).toBe(reordered.body.version);

    const actions = await app.services.prisma.auditLog.findMany({
      where: { entityType: 'attack_path', entityId: path.id },
      orderBy: { timestamp: 'asc' },
      select: { action: true, details: true },
    });
    expect(actions.map((entry) => entry.action)).toEqual([
      'create_attack_path',
      'add_attack_path_step',
      'add_attack_path_step',
      'add_attack_path_step',
      'remove_attack_path_step',
      'remove_attack_path_step',
      'reorder_attack_path_steps',
    ]);
    expect(actions[2].details).toMatchObject({ position: 2, ttp_id: 'T1021', expected_outcome: 'detected' });
    expect(actions[4].details).toMatchObject({ position: 3, ttp_id: 'T1021' });
  });

  it('refuses a position outside 1..n+1, a foreign or missing step, and a reorder that is not a permutation', async () => {
    const path = await createPath(app, t.red_tech, { name: 'Strict', steps: [{ technique: 'T1566' }, { technique: 'T1059' }] });
    const other = await createPath(app, t.red_tech, { name: 'Other', steps: [{ technique: 'T1003' }] });
    const add = (body: unknown) => app.api('POST', `/attack-paths/${path.id}/steps`, { token: t.red_tech.token, body });
    expect(await add({ technique: 'T1041', position: 0 })).toMatchObject({ status: 400, body: { field: 'position' } });
    expect(await add({ technique: 'T1041', position: 4 })).toMatchObject({
      status: 400,
      body: { field: 'position', detail: /between 1 and 3/ },
    });
    expect(await add({ technique: 'T1041', position: 1.5 })).toMatchObject({ status: 400, body: { field: 'position' } });
    expect(await add({ technique: 'nothing' })).toMatchObject({ status: 400, body: { field: 'technique' } });
    expect(await add({})).toMatchObject({ status: 400, body: { field: 'technique' } });
    expect(
      await app.api('POST', `/attack-paths/${randomUUID()}/steps`, { token: t.red_tech.token, body: { technique: 'T1041' } }),
    ).toMatchObject({ status: 404 });
    const otherStep = other.steps[0].id;
    expect(await app.api('DELETE', `/attack-paths/${path.id}/steps/${otherStep}`, { token: t.red_tech.token })).toMatchObject({
      status: 404,
    });

    const [a, b] = path.steps.map((step: any) => step.id);
    const reorder = (stepIds: unknown) =>
      app.api('PUT', `/attack-paths/${path.id}/steps/order`, { token: t.red_tech.token, body: { step_ids: stepIds } });
    for (const stepIds of [[a], [a, a], [a, b, otherStep], [a, otherStep], []]) {
      expect(await reorder(stepIds)).toMatchObject({ status: 400, body: { code: 'VALIDATION_ERROR', field: 'step_ids' } });
    }
    expect(await reorder(['x'])).toMatchObject({ status: 400, body: { field: 'step_ids.0' } });
    expect(await storedOrder(app, path.id)).toEqual(['1:T1566', '2:T1059']);
  });

  it('stays 1..n under concurrent adds, appends and inserts mixed, and concurrent removes', async () => {
    const path = await createPath(app, t.red_tech, { name: 'Contended', steps: [{ technique: 'T1566' }] });
    const technique = (index: number) => ['T1059', 'T1003', 'T1021', 'T1041'][index % 4];
    const adds = await Promise.all(
      Array.from({ length: 12 }, (_, index) =>
        app.api('POST', `/attack-paths/${path.id}/steps`, {
          token: t.red_tech.token,
          body: { technique: technique(index), ...(index % 3 === 0 ? { position: 1 } : {}) },
        }),
      ),
    );
    expect(adds.map((response) => response.status)).toEqual(Array(12).fill(201));
    const positions = (await storedOrder(app, path.id)).map((entry) => Number(entry.split(':')[0]));
    expect(positions).toEqual(Array.from({ length: 13 }, (_, index) => index + 1));
    const stored = await app.services.prisma.attackPath.findUniqueOrThrow({ where: { id: path.id } });
    expect(stored.version).toBe(12);

    const steps = await app.services.prisma.attackPathStep.findMany({ where: { pathId: path.id }, select: { id: true } });
    const removals = await Promise.all(
      steps.slice(0, 5).map((step) => app.api('DELETE', `/attack-paths/${path.id}/steps/${step.id}`, { token: t.blue_tech.token })),
    );
    expect(removals.map((response) => response.status)).toEqual(Array(5).fill(200));
    const left = (await storedOrder(app, path.id)).map((entry) => Number(entry.split(':')[0]));
    expect(left).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
  });

  it('refuses a step beyond the hundredth', async () => {
    const path = await createPath(app, t.red_tech, { name: 'Long', steps: Array.from({ length: 100 }, () => ({ technique: 'T1059' })) });
    expect(path.step_count).toBe(100);
    expect(
      await app.api('POST', `/attack-paths/${path.id}/steps`, { token: t.red_tech.token, body: { technique: 'T1003' } }),
    ).toMatchObject({ status: 400, body: { code: 'TOO_MANY_STEPS', max_steps: 100 } });
  });
});

describe('who may change attack paths', () => {
  /** Every mutation row of this module's route table, with its path filled with real ids. */
  const mutations = attackPathsRoutes.filter((route) => route.method !== 'GET');

  it('covers every write of the module (the spec lists ten, the reorder and create-tests come on top)', () => {
    expect(mutations.map((route) => `${route.method} ${route.path}`).sort()).toEqual(
      [
        'POST /attack-paths',
        'PATCH /attack-paths/:id',
        'DELETE /attack-paths/:id',
        'POST /attack-paths/:id/steps',
        'DELETE /attack-paths/:id/steps/:sid',
        'PUT /attack-paths/:id/steps/order',
        'POST /attack-paths/:id/executions',
        'POST /executions/:id/start',
        'POST /executions/:id/complete',
        'POST /executions/:id/abort',
        'POST /executions/:id/steps/:sid',
        'POST /executions/:id/create-tests',
      ].sort(),
    );
  });

  it.each(mutations.map((route) => [`${route.method} ${route.path}`, route] as const))(
    'a viewer gets 403 on %s, and nothing changes',
    async (_key, route) => {
      const path = await createPath(app, t.red_tech, { name: 'Guarded', steps: [{ technique: 'T1566' }] });
      const execution = await app.api('POST', `/attack-paths/${path.id}/executions`, { token: t.red_tech.token });
      const onExecution = route.path.startsWith('/executions');
      const concrete = route.path
        .replace(':id', onExecution ? execution.body.id : path.id)
        .replace(':sid', onExecution ? execution.body.steps[0].id : path.steps[0].id);
      const body = { name: 'Hijacked', technique: 'T1003', step_ids: [path.steps[0].id], outcome: 'detected' };
      const auditsBefore = await app.services.prisma.auditLog.count();
      const response = await app.api(route.method, concrete, { token: t.viewer.token, body });
      expect(response).toMatchObject({ status: 403, body: { code: 'FORBIDDEN', detail: expect.any(String) } });
      expect(await app.services.prisma.auditLog.count()).toBe(auditsBefore);
    },
  );

  it.each(mutations.map((route) => [`${route.method} ${route.path}`, route] as const))(
    'a viewer gets FORBIDDEN from the GraphQL mutation behind %s',
    async (_key, route) => {
      const document = 'document' in route ? route.document : '';
      const result = await app.graphql(document, sampleVariables(document), t.viewer.token);
      expect(result.errors?.map((error) => error.extensions?.code)).toEqual(['FORBIDDEN']);
    },
  );
});

/** Values of a document's variables that pass GraphQL validation, so that only authorisation can refuse the operation. */
function sampleVariables(document: string): Record<string, unknown> {
  const operation = parse(document).definitions[0] as OperationDefinitionNode;
  const sample = (type: GraphQLInputType): unknown => {
    if (isNonNullType(type)) return sample(type.ofType);
    if (isListType(type)) return [];
    if (isEnumType(type)) return type.getValues()[0].value;
    if (isInputObjectType(type)) {
      const required = Object.values(type.getFields()).filter((field) => isNonNullType(field.type));
      return Object.fromEntries(required.map((field) => [field.name, sample(field.type)]));
    }
    return (type as GraphQLScalarType).name === 'UUID' ? randomUUID() : 'T1003';
  };
  return Object.fromEntries(
    (operation.variableDefinitions ?? []).map((definition) => [
      definition.variable.name.value,
      sample(typeFromAST(schema, definition.type as never) as GraphQLInputType),
    ]),
  );
}

describe('the Navigator layer of a path', () => {
  it('is a valid 4.5 layer: techniques coloured by expected outcome, the step order in the comments', async () => {
    const path = await createPath(app, t.red_tech, {
      name: 'Layered',
      steps: [
        { technique: 'T1566' },
        { technique: 'T1059.001', expected_outcome: 'blocked', notes: 'AMSI' },
        { technique: 'CUSTOM-7' },
        { technique: 'T1566', expected_outcome: 'not_detected' },
      ],
    });
    const response = await app.api('GET', `/attack-paths/${path.id}/navigator`, { token: t.viewer.token });
    expect(response.status).toBe(200);
    const layer = validLayer(response.body);
    expect(layer).toMatchObject({
      name: 'Attack path: Layered',
      domain: 'enterprise-attack',
      versions: { layer: '4.5', navigator: '5.2.0' },
      layout: { expandedSubtechniques: 'annotated' },
      gradient: { minValue: 1, maxValue: 4 },
    });
    expect(layer.metadata).toEqual(
      expect.arrayContaining([
        { name: 'source', value: 'attack_path' },
        { name: 'attack_path_id', value: path.id },
        { name: 'custom_techniques_left_out', value: '1' },
      ]),
    );
    expect(layer.techniques).toEqual([
      {
        techniqueID: 'T1566',
        tactic: 'initial-access',
        score: 1,
        color: '#fc8d59',
        comment: 'Step 1 of 4: expected detected; Step 4 of 4: expected not_detected',
        enabled: true,
        metadata: [
          { name: 'steps', value: '1, 4' },
          { name: 'outcome', value: 'not_detected' },
        ],
        showSubtechniques: false,
      },
      {
        techniqueID: 'T1059.001',
        tactic: 'execution',
        score: 2,
        color: '#1a9850',
        comment: 'Step 2 of 4: expected blocked (AMSI)',
        enabled: true,
        metadata: [
          { name: 'steps', value: '2' },
          { name: 'outcome', value: 'blocked' },
        ],
        showSubtechniques: false,
      },
    ]);
    expect(layer.legendItems.map((item: any) => item.label)).toEqual(['Not detected', 'Detected', 'Blocked']);
    const graphql = await app.graphql('query ($id: UUID!) { attackPathNavigatorLayer(id: $id) }', { id: path.id }, t.viewer.token);
    expect({ ...graphql.data.attackPathNavigatorLayer, metadata: [] }).toEqual({ ...layer, metadata: [] });
    expect(await app.api('GET', `/attack-paths/${randomUUID()}/navigator`, { token: t.viewer.token })).toMatchObject({ status: 404 });
  });
});
