import { setTimeout as sleep } from 'node:timers/promises';
import type { EventEmitter } from 'node:events';
import { createClient, type Client } from 'graphql-ws';
import { beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { useTestApp } from '../../../test/helpers/app.ts';
import { countQueries } from '../../../test/helpers/queries.ts';
import { activeUserIds, campaign, createTest, notified, statusOf, team, technique, type Team } from '../../../test/helpers/test-runs.ts';

let t: Team;

const app = useTestApp();

beforeAll(async () => {
  t = await team(app);
});

function wsClient(token: string): Client {
  return createClient({
    url: `${app.url.replace(/^http/, 'ws')}/graphql`,
    webSocketImpl: WebSocket,
    connectionParams: { authorization: `Bearer ${token}` },
    retryAttempts: 0,
  });
}

const busListeners = () => (app.services.bus as unknown as { local: EventEmitter }).local.listenerCount('event');

interface Change {
  testId: string;
  campaignId: string | null;
  fromState: string;
  toState: string;
  actorId: string;
  test: { id: string; name: string };
}

const STATE_CHANGES = {
  field: 'testStateChanged',
  selection: 'testId campaignId fromState toState actorId occurredAt test { id name }',
};

/** Subscribes and collects a test subscription's events until `count` arrived; resolves once the server has set up the stream. */
async function collect<T = Change>(
  client: Client,
  variables: Record<string, unknown>,
  count: number,
  { field, selection } = STATE_CHANGES,
) {
  const before = busListeners();
  const iterator = client.iterate<Record<string, T>>({
    query: `subscription ($testId: UUID, $campaignId: UUID) {
      ${field}(testId: $testId, campaignId: $campaignId) { ${selection} }
    }`,
    variables,
  });
  const received: T[] = [];
  const done = (async () => {
    for await (const result of iterator) {
      expect(result.errors).toBeUndefined();
      received.push(result.data![field]!);
      if (received.length === count) break;
    }
    return received;
  })();
  done.catch(() => undefined);
  const deadline = Date.now() + 5_000;
  while (busListeners() <= before && Date.now() < deadline) await sleep(10);
  return {
    received: () =>
      Promise.race([done, sleep(10_000).then(() => Promise.reject(new Error(`only ${received.length} of ${count} changes arrived`)))]),
  };
}

const FIELDS = `id state version redValidationStatus blueValidationStatus detectionResult pendingValidationSides validTransitions elapsedSeconds timerRunning`;

async function mutate(token: string, mutation: string, variables: Record<string, unknown>) {
  const result = await app.graphql(mutation, variables, token);
  expect(result.errors, mutation).toBeUndefined();
  return Object.values(result.data as object)[0] as Record<string, any>;
}

describe('the test workflow over GraphQL', () => {
  it('runs the whole pipeline with mutations while a graphql-ws subscription receives every state change', async () => {
    const target = await technique(app);
    const client = wsClient(t.viewer.token);
    try {
      const created = await mutate(
        t.red_lead.token,
        `mutation ($input: CreateTestInput!) { createTest(input: $input) { ${FIELDS} name technique { ttpId } createdBy { username } } }`,
        {
          input: { techniqueId: target.id, name: 'Kerberoasting', platform: 'windows' },
        },
      );
      expect(created).toMatchObject({
        state: 'draft',
        name: 'Kerberoasting',
        technique: { ttpId: target.ttpId },
        createdBy: { username: t.red_lead.username },
      });
      const id = created.id as string;
      const subscription = await collect(client, { testId: id }, 4);

      const byId = { id };
      expect(
        await mutate(t.red_tech.token, `mutation ($id: UUID!) { startTestExecution(id: $id) { ${FIELDS} executionDate } }`, byId),
      ).toMatchObject({
        state: 'red_executing',
        timerRunning: true,
        executionDate: expect.any(String),
      });
      await mutate(
        t.red_tech.token,
        `mutation ($id: UUID!, $input: UpdateTestRedInput!) { updateTestRed(id: $id, input: $input) { ${FIELDS} } }`,
        {
          id,
          input: { procedureText: 'Rubeus kerberoast', toolUsed: 'Rubeus', attackSuccess: true, redSummary: 'Got hashes' },
        },
      );
      expect((await mutate(t.red_lead.token, `mutation ($id: UUID!) { submitTestRed(id: $id) { ${FIELDS} } }`, byId)).state).toBe(
        'blue_evaluating',
      );
      await mutate(
        t.blue_tech.token,
        `mutation ($id: UUID!, $input: UpdateTestBlueInput!) { updateTestBlue(id: $id, input: $input) { ${FIELDS} } }`,
        {
          id,
          input: { detectionResult: 'partially_detected', blueSummary: 'One of two alerts' },
        },
      );
      expect(await mutate(t.blue_lead.token, `mutation ($id: UUID!) { submitTestBlue(id: $id) { ${FIELDS} } }`, byId)).toMatchObject({
        state: 'in_review',
        pendingValidationSides: ['red', 'blue'],
        validTransitions: ['rejected', 'validated'],
        timerRunning: false,
      });
      expect(
        await mutate(
          t.blue_lead.token,
          `mutation ($id: UUID!, $input: ValidateTestBlueInput!) { validateTestBlue(id: $id, input: $input) { ${FIELDS} } }`,
          {
            id,
            input: { blueValidationStatus: 'approved', blueValidationNotes: 'Partial is accurate' },
          },
        ),
      ).toMatchObject({ state: 'in_review', blueValidationStatus: 'approved', pendingValidationSides: ['red'] });
      expect(
        await mutate(
          t.red_lead.token,
          `mutation ($id: UUID!, $input: ValidateTestRedInput!) { validateTestRed(id: $id, input: $input) { ${FIELDS} decidedAt } }`,
          {
            id,
            input: { redValidationStatus: 'approved' },
          },
        ),
      ).toMatchObject({ state: 'validated', redValidationStatus: 'approved', decidedAt: expect.any(String), version: 7 });

      const changes = await subscription.received();
      expect(changes.map((change) => [change.fromState, change.toState])).toEqual([
        ['draft', 'red_executing'],
        ['red_executing', 'blue_evaluating'],
        ['blue_evaluating', 'in_review'],
        ['in_review', 'validated'],
      ]);
      expect(changes.map((change) => change.actorId)).toEqual([t.red_tech.id, t.red_lead.id, t.blue_lead.id, t.red_lead.id]);
      expect(changes.every((change) => change.testId === id && change.test.id === id && change.test.name === 'Kerberoasting')).toBe(true);

      expect(await statusOf(app, target.id)).toBe('partial');
      expect(await notified(app, id, 'test_execution_started')).toEqual([t.red_lead.id]);
      expect(await notified(app, id, 'test_ready_for_blue')).toEqual(await activeUserIds(app, ['blue_tech']));
      expect(await notified(app, id, 'test_ready_for_review')).toEqual(await activeUserIds(app, ['red_lead', 'blue_lead']));
      expect(await notified(app, id, 'test_validated')).toEqual([t.red_lead.id]);

      const timeline = await app.graphql(
        `query ($id: UUID!) { testTimeline(testId: $id) { kind fromState toState actorName } }`,
        { id },
        t.viewer.token,
      );
      expect(timeline.data.testTimeline.map((entry: any) => entry.kind)).toEqual([
        'created',
        'state_changed',
        'red_updated',
        'state_changed',
        'blue_updated',
        'state_changed',
        'validation_recorded',
        'validation_recorded',
        'state_changed',
      ]);
      const retest = await mutate(
        t.blue_lead.token,
        `mutation ($id: UUID!) { createRetest(id: $id) { id retestOfId lineageId state } }`,
        byId,
      );
      expect(retest).toMatchObject({ retestOfId: id, lineageId: id, state: 'draft' });
      const chain = await app.graphql(`query ($id: UUID!) { retestChain(testId: $id) { id } }`, { id: retest.id }, t.viewer.token);
      expect(chain.data.retestChain.map((test: any) => test.id)).toEqual([id, retest.id]);
    } finally {
      await client.dispose();
    }
  });

  it("a subscription filtered by campaign hears only that campaign's tests", async () => {
    const target = await technique(app);
    const { id: campaignId } = await campaign(app, t.admin);
    const outside = await createTest(app, t.red_lead, target.id);
    const inside = await createTest(app, t.red_lead, target.id, { campaign_id: campaignId });
    const client = wsClient(t.blue_tech.token);
    try {
      const subscription = await collect(client, { campaignId }, 1);
      await app.api('POST', `/tests/${outside.id}/start-execution`, { token: t.red_tech.token });
      await app.api('POST', `/tests/${inside.id}/start-execution`, { token: t.red_tech.token });
      const [change] = await subscription.received();
      expect(change).toMatchObject({ testId: inside.id, campaignId, fromState: 'draft', toState: 'red_executing' });
    } finally {
      await client.dispose();
    }
  });

  it('testChanged hears the edits of a test that are not state changes, from the test alone or its campaign', async () => {
    const target = await technique(app);
    const { id: campaignId } = await campaign(app, t.admin);
    const other = await createTest(app, t.red_lead, target.id);
    const test = await createTest(app, t.red_lead, target.id, { campaign_id: campaignId });
    const client = wsClient(t.viewer.token);
    try {
      const edits = {
        field: 'testChanged',
        selection: 'testId campaignId change actorId occurredAt test { id name assignedTo { username } }',
      };
      const byTest = await collect<any>(client, { testId: test.id }, 3, edits);
      const byCampaign = await collect<any>(client, { campaignId }, 3, edits);
      await app.api('PATCH', `/tests/${other.id}`, { token: t.red_lead.token, body: { name: 'Not this one' } });
      await mutate(t.red_lead.token, 'mutation ($id: UUID!, $input: UpdateTestInput!) { updateTest(id: $id, input: $input) { id } }', {
        id: test.id,
        input: { assignedTo: t.red_tech.id },
      });
      // A state change is testStateChanged's, not this stream's.
      await app.api('POST', `/tests/${test.id}/start-execution`, { token: t.red_tech.token });
      await app.api('PATCH', `/tests/${test.id}/red`, { token: t.red_tech.token, body: { tool_used: 'Rubeus' } });
      await app.api('POST', `/tests/${test.id}/pause-timer`, { token: t.red_tech.token });
      for (const subscription of [byTest, byCampaign]) {
        const changes = await subscription.received();
        expect(changes.map(({ change }: any) => change)).toEqual(['updated', 'red_updated', 'timer_paused']);
        for (const change of changes) expect(change).toMatchObject({ testId: test.id, campaignId, test: { id: test.id } });
        expect(changes[0]).toMatchObject({ actorId: t.red_lead.id, test: { assignedTo: { username: t.red_tech.username } } });
        expect(changes[2].actorId).toBe(t.red_tech.id);
      }
    } finally {
      await client.dispose();
    }
  });

  it('mutations refuse the roles the spec leaves out, and errors carry the domain code', async () => {
    const target = await technique(app);
    const { id } = await createTest(app, t.red_lead, target.id);
    const refused = await app.graphql(`mutation ($id: UUID!) { startTestExecution(id: $id) { id } }`, { id }, t.blue_tech.token);
    expect(refused.errors?.[0].extensions).toMatchObject({ code: 'FORBIDDEN', status: 403 });
    const edit = await app.graphql(
      `mutation ($id: UUID!) { updateTestBlue(id: $id, input: { blueSummary: "x" }) { id } }`,
      { id },
      t.blue_tech.token,
    );
    expect(edit.errors?.[0].extensions).toEqual({
      code: 'EDIT_NOT_ALLOWED',
      status: 400,
      current_state: 'draft',
      allowed_states: ['blue_evaluating'],
    });
  });
});

describe('reading tests over GraphQL', () => {
  it('lists with filters and relations without one query per test', async () => {
    const target = await technique(app);
    for (let index = 0; index < 12; index++) {
      await createTest(app, [t.red_lead, t.blue_lead, t.admin][index % 3], target.id, {
        assigned_to: [t.red_tech.id, t.blue_tech.id][index % 2],
        platform: 'linux',
      });
    }
    const document = `query ($filter: TestFilter, $limit: Int) { tests(filter: $filter, limit: $limit) {
      total items { id technique { ttpId tests { id } } createdBy { username } assignedTo { username } remediationAssignee { id } }
    } }`;
    const listed = async (limit: number) => {
      let result: any;
      const statements = await countQueries(
        async () =>
          (result = await app.graphql(document, { filter: { techniqueId: target.id, platform: 'LINUX' }, limit }, t.viewer.token)),
      );
      expect(result.errors).toBeUndefined();
      return { page: result.data.tests, statements };
    };
    const small = await listed(3);
    const large = await listed(12);
    expect(small.page.total).toBe(12);
    expect(large.page.items).toHaveLength(12);
    expect(large.page.items[0]).toMatchObject({
      technique: { ttpId: target.ttpId },
      createdBy: { username: expect.any(String) },
      assignedTo: { username: expect.any(String) },
    });
    expect(large.page.items[0].technique.tests).toHaveLength(12);
    expect(large.statements).toBe(small.statements);
  });

  it("Technique.tests lists a technique's tests oldest first", async () => {
    const target = await technique(app);
    const first = await createTest(app, t.red_lead, target.id);
    const second = await createTest(app, t.red_lead, target.id);
    const result = await app.graphql(
      `query ($ttpId: String!) { technique(ttpId: $ttpId) { tests { id state } } }`,
      { ttpId: target.ttpId },
      t.viewer.token,
    );
    expect(result.data.technique.tests).toEqual([
      { id: first.id, state: 'draft' },
      { id: second.id, state: 'draft' },
    ]);
  });
});
