import { randomUUID } from 'node:crypto';
import type { EventEmitter } from 'node:events';
import { setTimeout as sleep } from 'node:timers/promises';
import { createClient } from 'graphql-ws';
import { describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import type { EventOf } from '../../events/types.ts';
import { createPath, template, usePathCatalog, validLayer } from '../../../test/helpers/attack-paths.ts';
import { useTestApp } from '../../../test/helpers/app.ts';
import { countQueries } from '../../../test/helpers/queries.ts';
import { type Member, useTeam } from '../../../test/helpers/test-runs.ts';

const app = useTestApp();
const t = useTeam(app);
const ids = usePathCatalog(app);

/** The five-step path of the end-to-end run: initial access to exfiltration. */
const FIVE_STEPS = [
  { technique: 'T1566', expected_outcome: 'detected' },
  { technique: 'T1059.001', expected_outcome: 'blocked' },
  { technique: 'T1003', expected_outcome: 'detected' },
  { technique: 'T1021', expected_outcome: 'detected' },
  { technique: 'T1041', expected_outcome: 'blocked' },
];

const START = '2026-03-02T09:00:00.000Z';

async function newExecution(who: Member = t.red_tech, steps: object[] = FIVE_STEPS) {
  const path = await createPath(app, t.red_lead, { name: `Path ${randomUUID().slice(0, 6)}`, steps });
  const response = await app.api('POST', `/attack-paths/${path.id}/executions`, { token: who.token, body: { notes: 'Q1 exercise' } });
  expect(response.status, JSON.stringify(response.body)).toBe(201);
  return { path, execution: response.body as Record<string, any> };
}

const act = (id: string, action: string, who: Member, body?: unknown) =>
  app.api('POST', `/executions/${id}/${action}`, { token: who.token, body });

const record = (id: string, stepId: string, who: Member, body: unknown) =>
  app.api('POST', `/executions/${id}/steps/${stepId}`, { token: who.token, body });

async function started(who: Member = t.red_tech) {
  const { path, execution } = await newExecution(who);
  expect(await act(execution.id, 'start', who, { started_at: START })).toMatchObject({ status: 200, body: { status: 'running' } });
  return { path, execution };
}

describe('an attack path executed end to end', () => {
  it('five steps with mixed outcomes: the summary gives the first detection, the time to detect and the unnoticed steps', async () => {
    const states: EventOf<'attack_path_execution.state_changed'>['payload'][] = [];
    const off = app.services.bus.on('attack_path_execution.state_changed', (event) => void states.push(event.payload));

    const { path, execution } = await newExecution(t.red_tech);
    expect(execution).toMatchObject({
      attack_path_id: path.id,
      attack_path_name: path.name,
      status: 'pending',
      valid_transitions: ['running', 'aborted'],
      notes: 'Q1 exercise',
      created_by: t.red_tech.id,
      started_at: null,
      summary: null,
    });
    expect(execution.steps.map((step: any) => [step.position, step.ttp_id, step.expected_outcome, step.outcome])).toEqual([
      [1, 'T1566', 'detected', null],
      [2, 'T1059.001', 'blocked', null],
      [3, 'T1003', 'detected', null],
      [4, 'T1021', 'detected', null],
      [5, 'T1041', 'blocked', null],
    ]);
    expect(execution.steps.map((step: any) => step.source_step_id)).toEqual(path.steps.map((step: any) => step.id));

    const begun = await act(execution.id, 'start', t.blue_tech, { started_at: START });
    expect(begun).toMatchObject({
      status: 200,
      body: { status: 'running', started_at: START, valid_transitions: ['completed', 'aborted'] },
    });

    // Hand-computed: the only detection is step 3 at 09:12:45, 765 s after the 09:00:00 start; steps 1 and 2 went unnoticed.
    const [s1, s2, s3, s4, s5] = execution.steps;
    const outcomes: [any, Member, object][] = [
      [s1, t.red_tech, { outcome: 'succeeded', occurred_at: '2026-03-02T09:02:00Z', notes: 'Macro ran' }],
      [s2, t.red_tech, { outcome: 'not_detected', occurred_at: '2026-03-02T09:05:30Z' }],
      [s3, t.blue_tech, { outcome: 'detected', occurred_at: '2026-03-02T09:12:45Z', notes: 'EDR alert on LSASS access' }],
      [s4, t.blue_lead, { outcome: 'blocked', occurred_at: '2026-03-02T09:20:00Z' }],
      [s5, t.red_lead, { outcome: 'skipped', occurred_at: '2026-03-02T09:21:00Z', notes: 'Stopped after the block' }],
    ];
    for (const [step, who, body] of outcomes) {
      // The fourth step is named by its path step, the others by their execution step.
      const sid = step.position === 4 ? step.source_step_id : step.id;
      const recorded = await record(execution.id, sid, who, body);
      expect(recorded.status, JSON.stringify(recorded.body)).toBe(200);
    }
    const running = await app.api('GET', `/executions/${execution.id}`, { token: t.viewer.token });
    expect(running.body.summary).toBeNull();
    expect(running.body.steps[2]).toMatchObject({
      outcome: 'detected',
      outcome_notes: 'EDR alert on LSASS access',
      occurred_at: '2026-03-02T09:12:45.000Z',
      recorded_by: t.blue_tech.id,
    });

    const completed = await act(execution.id, 'complete', t.red_tech);
    expect(completed).toMatchObject({ status: 200, body: { status: 'completed', valid_transitions: [] } });
    expect(completed.body.completed_at).toEqual(expect.any(String));
    const reference = (step: any, outcome: string, at: string) => ({
      id: step.id,
      position: step.position,
      ttp_id: step.ttp_id,
      technique_name: step.technique_name,
      outcome,
      occurred_at: at,
    });
    expect(completed.body.summary).toEqual({
      total_steps: 5,
      counts: { succeeded: 1, blocked: 1, detected: 1, not_detected: 1, skipped: 1, unrecorded: 0 },
      first_detected_step: reference(s3, 'detected', '2026-03-02T09:12:45.000Z'),
      first_blocked_step: reference(s4, 'blocked', '2026-03-02T09:20:00.000Z'),
      time_to_detect_seconds: 765,
      unnoticed_steps: [reference(s1, 'succeeded', '2026-03-02T09:02:00.000Z'), reference(s2, 'not_detected', '2026-03-02T09:05:30.000Z')],
    });
    expect((await app.api('GET', `/executions/${execution.id}`, { token: t.viewer.token })).body).toEqual(completed.body);

    const graphql = await app.graphql(
      `query ($id: UUID!) { attackPathExecution(id: $id) { status summary {
        timeToDetectSeconds firstDetectedStep { position } firstBlockedStep { position } unnoticedSteps { position }
        counts { notDetected unrecorded } } } }`,
      { id: execution.id },
      t.viewer.token,
    );
    expect(graphql.data.attackPathExecution).toEqual({
      status: 'completed',
      summary: {
        timeToDetectSeconds: 765,
        firstDetectedStep: { position: 3 },
        firstBlockedStep: { position: 4 },
        unnoticedSteps: [{ position: 1 }, { position: 2 }],
        counts: { notDetected: 1, unrecorded: 0 },
      },
    });

    const listed = await app.api('GET', `/attack-paths/${path.id}/executions`, { token: t.viewer.token });
    expect(listed).toMatchObject({
      status: 200,
      body: { total: 1, items: [{ id: execution.id, summary: { time_to_detect_seconds: 765 } }] },
    });
    expect((await app.api('GET', `/attack-paths/${path.id}`, { token: t.viewer.token })).body.execution_count).toBe(1);

    off();
    expect(states).toEqual([
      { executionId: execution.id, attackPathId: path.id, from: 'pending', to: 'running' },
      { executionId: execution.id, attackPathId: path.id, from: 'running', to: 'completed' },
    ]);
    const audit = await app.services.prisma.auditLog.findMany({
      where: { entityType: 'attack_path_execution', entityId: execution.id },
      orderBy: { timestamp: 'asc' },
    });
    expect(audit.map((entry) => entry.action)).toEqual([
      'create_attack_path_execution',
      'start_attack_path_execution',
      ...Array(5).fill('record_attack_path_step_outcome'),
      'complete_attack_path_execution',
    ]);
    expect(audit[1].details).toMatchObject({ from_state: 'pending', to_state: 'running', started_at: START });
    expect(audit[4].details).toMatchObject({ position: 3, ttp_id: 'T1003', outcome: 'detected', previous_outcome: null });
  });

  it('the first detection is the earliest detected step in time (equal times: the earlier step); unrecorded steps are counted', async () => {
    const { execution } = await started();
    const [, s2, s3, s4] = execution.steps;
    expect((await record(execution.id, s2.id, t.blue_tech, { outcome: 'detected', occurred_at: '2026-03-02T09:10:00Z' })).status).toBe(200);
    expect((await record(execution.id, s4.id, t.blue_tech, { outcome: 'detected', occurred_at: '2026-03-02T09:05:00Z' })).status).toBe(200);
    expect((await record(execution.id, s3.id, t.blue_tech, { outcome: 'detected', occurred_at: '2026-03-02T09:05:00Z' })).status).toBe(200);
    // Recording a step again corrects it; the audit log keeps the earlier outcome.
    const corrected = await record(execution.id, s2.id, t.blue_tech, { outcome: 'not_detected', occurred_at: '2026-03-02T09:10:00Z' });
    expect(corrected.body.steps[1]).toMatchObject({ outcome: 'not_detected' });
    const summary = (await act(execution.id, 'complete', t.blue_tech)).body.summary;
    expect(summary).toMatchObject({
      counts: { succeeded: 0, blocked: 0, detected: 2, not_detected: 1, skipped: 0, unrecorded: 2 },
      first_detected_step: { position: 3 },
      first_blocked_step: null,
      time_to_detect_seconds: 300,
      unnoticed_steps: [{ position: 2 }],
    });
    const correction = await app.services.prisma.auditLog.findFirst({
      where: {
        action: 'record_attack_path_step_outcome',
        entityId: execution.id,
        details: { path: ['previous_outcome'], equals: 'detected' },
      },
    });
    expect(correction?.details).toMatchObject({ position: 2, outcome: 'not_detected' });
  });

  it('without a detection there is no time to detect; started_at defaults to now', async () => {
    const { execution } = await newExecution(t.blue_tech, [{ technique: 'T1566' }]);
    const begun = await act(execution.id, 'start', t.blue_tech);
    expect(Math.abs(Date.parse(begun.body.started_at) - Date.now())).toBeLessThan(10_000);
    expect((await record(execution.id, execution.steps[0].id, t.blue_tech, { outcome: 'succeeded' })).status).toBe(200);
    const summary = (await act(execution.id, 'complete', t.blue_tech)).body.summary;
    expect(summary).toMatchObject({ first_detected_step: null, time_to_detect_seconds: null, unnoticed_steps: [{ position: 1 }] });
  });

  it("editing the path later changes neither a running execution's steps nor its recordings", async () => {
    const { path, execution } = await started();
    const first = path.steps[0].id;
    await app.api('DELETE', `/attack-paths/${path.id}/steps/${first}`, { token: t.red_tech.token });
    await app.api('POST', `/attack-paths/${path.id}/steps`, { token: t.red_tech.token, body: { technique: 'T1059', position: 1 } });
    await app.api('PATCH', `/attack-paths/${path.id}`, { token: t.red_tech.token, body: { name: 'Renamed' } });
    const now = (await app.api('GET', `/executions/${execution.id}`, { token: t.viewer.token })).body;
    expect(now.attack_path_name).toBe(execution.attack_path_name);
    expect(now.steps.map((step: any) => [step.id, step.position, step.ttp_id])).toEqual(
      execution.steps.map((step: any) => [step.id, step.position, step.ttp_id]),
    );
    expect(now.steps[0].source_step_id).toBeNull();
    expect(await record(execution.id, now.steps[0].id, t.red_tech, { outcome: 'succeeded', occurred_at: START })).toMatchObject({
      status: 200,
    });
    // A second execution copies the path as it is now.
    const next = await app.api('POST', `/attack-paths/${path.id}/executions`, { token: t.red_tech.token });
    expect(next.body.steps.map((step: any) => step.ttp_id)).toEqual(['T1059', 'T1059.001', 'T1003', 'T1021', 'T1041']);
  });

  it('deleting the path keeps its executions, with their copies of the steps and the name', async () => {
    const { path, execution } = await started();
    expect(await app.api('DELETE', `/attack-paths/${path.id}`, { token: t.red_lead.token })).toMatchObject({ status: 204 });
    const kept = await app.api('GET', `/executions/${execution.id}`, { token: t.viewer.token });
    expect(kept).toMatchObject({ status: 200, body: { attack_path_id: null, attack_path_name: path.name, status: 'running' } });
    expect(kept.body.steps).toHaveLength(5);
    expect(kept.body.steps.every((step: any) => step.source_step_id === null)).toBe(true);
    expect((await act(execution.id, 'complete', t.red_tech)).body.summary.counts.unrecorded).toBe(5);
    const audit = await app.services.prisma.auditLog.findFirst({ where: { action: 'delete_attack_path', entityId: path.id } });
    expect(audit?.details).toMatchObject({ kept_execution_ids: [execution.id] });
    expect(await app.api('GET', `/attack-paths/${path.id}/executions`, { token: t.viewer.token })).toMatchObject({ status: 404 });
  });

  it('a path without steps cannot be executed', async () => {
    const path = await createPath(app, t.red_tech, { name: 'Empty' });
    expect(await app.api('POST', `/attack-paths/${path.id}/executions`, { token: t.red_tech.token })).toMatchObject({
      status: 400,
      body: { code: 'EMPTY_ATTACK_PATH' },
    });
    expect(await app.api('POST', `/attack-paths/${randomUUID()}/executions`, { token: t.red_tech.token })).toMatchObject({ status: 404 });
  });
});

describe('execution transitions', () => {
  const invalid = (current: string, target: string, action: string, valid: string[]) => ({
    status: 400,
    body: {
      code: 'INVALID_TRANSITION',
      detail: {
        message:
          `Invalid transition: ${action} cannot move an attack path execution from ${current} to ${target}. ` +
          `Valid transitions from ${current}: ${valid.length ? valid.join(', ') : 'none'}`,
        code: 'INVALID_TRANSITION',
        current_state: current,
        target_state: target,
        valid_transitions: valid,
      },
    },
  });

  it('illegal transitions answer INVALID_TRANSITION with the exact body', async () => {
    const { execution } = await newExecution();
    const answer = await act(execution.id, 'complete', t.red_tech);
    expect(answer).toMatchObject(invalid('pending', 'completed', 'complete', ['running', 'aborted']));
    expect(answer.body).toEqual(invalid('pending', 'completed', 'complete', ['running', 'aborted']).body);

    expect((await act(execution.id, 'start', t.red_tech)).status).toBe(200);
    expect(await act(execution.id, 'start', t.red_tech)).toMatchObject(invalid('running', 'running', 'start', ['completed', 'aborted']));
    expect((await act(execution.id, 'complete', t.red_tech)).status).toBe(200);
    for (const [action, target] of [
      ['start', 'running'],
      ['complete', 'completed'],
      ['abort', 'aborted'],
    ]) {
      const refused = await act(execution.id, action, t.admin);
      expect(refused.body).toEqual(invalid('completed', target, action, []).body);
    }

    const other = await newExecution();
    expect((await act(other.execution.id, 'abort', t.blue_lead)).status).toBe(200);
    expect(await act(other.execution.id, 'start', t.red_tech)).toMatchObject(invalid('aborted', 'running', 'start', []));
    const status = await app.services.prisma.attackPathExecution.findUniqueOrThrow({ where: { id: execution.id } });
    expect(status.status).toBe('completed');
  });

  it('only leads and admins abort, from pending or running, with an optional reason', async () => {
    const { execution } = await started();
    expect(await act(execution.id, 'abort', t.red_tech)).toMatchObject({ status: 403 });
    expect(await act(execution.id, 'abort', t.blue_tech)).toMatchObject({ status: 403 });
    const aborted = await act(execution.id, 'abort', t.red_lead, { reason: 'Production incident' });
    expect(aborted).toMatchObject({ status: 200, body: { status: 'aborted', abort_reason: 'Production incident', summary: null } });
    expect(aborted.body.aborted_at).toEqual(expect.any(String));
    const audit = await app.services.prisma.auditLog.findFirst({
      where: { action: 'abort_attack_path_execution', entityId: execution.id },
    });
    expect(audit?.details).toMatchObject({ from_state: 'running', to_state: 'aborted', reason: 'Production incident' });
  });

  it('two simultaneous completions: one succeeds, the other gets INVALID_TRANSITION', async () => {
    const { execution } = await started();
    const answers = await Promise.all([act(execution.id, 'complete', t.red_tech), act(execution.id, 'complete', t.blue_tech)]);
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 400]);
    expect(answers.find((answer) => answer.status === 400)?.body.detail).toMatchObject({ current_state: 'completed' });
  });

  it('recording a step outcome is refused on a pending, completed or aborted execution', async () => {
    const refusal = (current: string) => ({
      status: 400,
      body: {
        code: 'EDIT_NOT_ALLOWED',
        detail: `Recording a step outcome is allowed only in running; the execution is ${current}`,
        current_state: current,
        allowed_states: ['running'],
      },
    });
    const { execution } = await newExecution();
    const step = execution.steps[0].id;
    const body = { outcome: 'detected' };
    expect(await record(execution.id, step, t.blue_tech, body)).toMatchObject(refusal('pending'));
    await act(execution.id, 'start', t.blue_tech);
    await act(execution.id, 'complete', t.blue_tech);
    expect(await record(execution.id, step, t.blue_tech, body)).toMatchObject(refusal('completed'));
    const other = await newExecution();
    await act(other.execution.id, 'abort', t.admin);
    expect(await record(other.execution.id, other.execution.steps[0].id, t.blue_tech, body)).toMatchObject(refusal('aborted'));
    const recorded = await app.services.prisma.attackPathExecutionStep.count({
      where: { executionId: execution.id, outcome: { not: null } },
    });
    expect(recorded).toBe(0);
  });

  it('refuses an outcome before the start or in the future, unknown outcomes and steps, and a future start', async () => {
    const future = new Date(Date.now() + 3_600_000).toISOString();
    const { execution } = await newExecution();
    expect(await act(execution.id, 'start', t.red_tech, { started_at: future })).toMatchObject({
      status: 400,
      body: { field: 'started_at' },
    });
    expect(await act(execution.id, 'start', t.red_tech, { started_at: 'soon' })).toMatchObject({
      status: 400,
      body: { field: 'started_at' },
    });
    await act(execution.id, 'start', t.red_tech, { started_at: START });
    const step = execution.steps[0].id;
    expect(await record(execution.id, step, t.red_tech, { outcome: 'detected', occurred_at: '2026-03-02T08:59:59.999Z' })).toMatchObject({
      status: 400,
      body: { code: 'VALIDATION_ERROR', field: 'occurred_at', detail: /not be before the execution started \(2026-03-02T09:00:00.000Z\)/ },
    });
    expect(await record(execution.id, step, t.red_tech, { outcome: 'detected', occurred_at: future })).toMatchObject({
      status: 400,
      body: { field: 'occurred_at' },
    });
    expect(await record(execution.id, step, t.red_tech, { outcome: 'pwned' })).toMatchObject({ status: 400, body: { field: 'outcome' } });
    expect(await record(execution.id, step, t.red_tech, {})).toMatchObject({ status: 400, body: { field: 'outcome' } });
    const other = await newExecution();
    expect(await record(execution.id, other.execution.steps[0].id, t.red_tech, { outcome: 'detected' })).toMatchObject({ status: 404 });
    expect(await record(randomUUID(), step, t.red_tech, { outcome: 'detected' })).toMatchObject({ status: 404 });
    expect(await record(execution.id, 'not-a-uuid', t.red_tech, { outcome: 'detected' })).toMatchObject({
      status: 400,
      body: { field: 'sid' },
    });
  });
});

describe('tests from an execution', () => {
  it('creates the tests of executions over the same techniques in opposite orders at once, without a deadlock', async () => {
    const templates = await Promise.all(['T1566', 'T1003', 'T1021', 'T1041'].map((ttp) => template(app, ttp, { name: `Run ${ttp}` })));
    const steps = templates.map((one, index) => ({ technique: ['T1566', 'T1003', 'T1021', 'T1041'][index], test_template_id: one.id }));
    const executions = await Promise.all(
      [steps, [...steps].reverse(), steps, [...steps].reverse()].map((order) => newExecution(t.red_tech, order)),
    );
    const answers = await Promise.all(
      executions.map(({ execution }) => app.api('POST', `/executions/${execution.id}/create-tests`, { token: t.red_lead.token })),
    );
    for (const answer of answers) {
      expect(answer.status, JSON.stringify(answer.body)).toBe(201);
      expect(answer.body.created).toHaveLength(4);
    }
  });

  it("creates a draft test per step from the step's template, skips and reports the others, and does it once", async () => {
    const phishing = await template(app, 'T1566', { name: 'Send a macro document' });
    const dumping = await template(app, 'T1003', { name: 'Dump LSASS' });
    const { execution } = await newExecution(t.red_tech, [
      { technique: 'T1566', test_template_id: phishing.id },
      { technique: 'T1059' },
      { technique: 'T1003', test_template_id: dumping.id },
    ]);
    await app.services.prisma.testTemplate.update({ where: { id: dumping.id }, data: { isActive: false } });

    expect(await app.api('POST', `/executions/${execution.id}/create-tests`, { token: t.red_tech.token })).toMatchObject({ status: 403 });
    const created = await app.api('POST', `/executions/${execution.id}/create-tests`, { token: t.red_lead.token });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const [first, second, third] = execution.steps;
    const testId = created.body.created[0].test_id;
    expect(created.body).toMatchObject({
      created: [{ step_id: first.id, position: 1, ttp_id: 'T1566', test_id: expect.any(String) }],
      skipped: [
        { step_id: second.id, position: 2, ttp_id: 'T1059', reason: 'no_template', test_id: null },
        { step_id: third.id, position: 3, ttp_id: 'T1003', reason: 'template_inactive', test_id: null },
      ],
    });
    expect(created.body.execution.steps[0].test_id).toBe(testId);

    const test = await app.api('GET', `/tests/${testId}`, { token: t.viewer.token });
    expect(test.body).toMatchObject({
      name: 'Send a macro document',
      state: 'draft',
      technique_id: ids.T1566,
      created_by: t.red_lead.id,
      procedure_text: 'Invoke-Thing -Target host-1',
    });
    const audit = await app.services.prisma.auditLog.findFirst({ where: { action: 'create_test', entityId: testId } });
    expect(audit?.details).toMatchObject({ template_id: phishing.id, attack_path_execution_id: execution.id, attack_path_step: 1 });

    const again = await app.api('POST', `/executions/${execution.id}/create-tests`, { token: t.admin.token });
    expect(again.body.created).toEqual([]);
    expect(again.body.skipped[0]).toMatchObject({ position: 1, reason: 'already_created', test_id: testId });
    expect(await app.services.prisma.test.count({ where: { templateId: phishing.id } })).toBe(1);
    expect(
      await app.services.prisma.auditLog.count({ where: { action: 'create_attack_path_execution_tests', entityId: execution.id } }),
    ).toBe(1);
  });

  it('an aborted execution creates no tests', async () => {
    const { execution } = await newExecution();
    await act(execution.id, 'abort', t.admin);
    expect(await app.api('POST', `/executions/${execution.id}/create-tests`, { token: t.admin.token })).toMatchObject({
      status: 400,
      body: { code: 'EDIT_NOT_ALLOWED', current_state: 'aborted', allowed_states: ['pending', 'running', 'completed'] },
    });
  });
});

describe('reading executions', () => {
  it('tells each caller the transitions its role may take and whether it may record outcomes, by status', async () => {
    const { execution } = await newExecution();
    const mine = async (who: Member) =>
      (
        await app.graphql(
          'query ($id: UUID!) { attackPathExecution(id: $id) { myActions canRecordOutcomes } }',
          { id: execution.id },
          who.token,
        )
      ).data.attackPathExecution;
    expect(await mine(t.red_tech)).toEqual({ myActions: ['start'], canRecordOutcomes: false });
    expect(await mine(t.red_lead)).toEqual({ myActions: ['start', 'abort'], canRecordOutcomes: false });
    expect(await mine(t.viewer)).toEqual({ myActions: [], canRecordOutcomes: false });
    await act(execution.id, 'start', t.red_tech, { started_at: START });
    expect(await mine(t.blue_tech)).toEqual({ myActions: ['complete'], canRecordOutcomes: true });
    expect(await mine(t.admin)).toEqual({ myActions: ['complete', 'abort'], canRecordOutcomes: true });
    expect(await mine(t.viewer)).toEqual({ myActions: [], canRecordOutcomes: false });
    await act(execution.id, 'complete', t.red_tech);
    expect(await mine(t.admin)).toEqual({ myActions: [], canRecordOutcomes: false });
  });

  it('the execution list of a path costs the same number of queries for one execution as for six, summaries included', async () => {
    const path = await createPath(app, t.red_lead, { name: 'Listed runs', steps: FIVE_STEPS });
    const runs: string[] = [];
    for (let index = 0; index < 6; index++) {
      const run = (await app.api('POST', `/attack-paths/${path.id}/executions`, { token: t.red_tech.token })).body;
      await act(run.id, 'start', t.red_tech, { started_at: START });
      await record(run.id, run.steps[index % 5].id, t.blue_tech, { outcome: 'detected', occurred_at: `2026-03-02T09:0${index}:00Z` });
      await act(run.id, 'complete', t.red_tech);
      runs.push(run.id);
    }
    const listed = await app.api('GET', `/attack-paths/${path.id}/executions`, { token: t.viewer.token });
    expect(listed.body.total).toBe(6);
    expect(listed.body.items.map((item: any) => [item.id, item.summary.time_to_detect_seconds])).toEqual(
      runs.map((id, index) => [id, index * 60]).reverse(),
    );
    const one = await countQueries(() => app.api('GET', `/attack-paths/${path.id}/executions?limit=1`, { token: t.viewer.token }));
    const six = await countQueries(() => app.api('GET', `/attack-paths/${path.id}/executions?limit=6`, { token: t.viewer.token }));
    expect(six).toBe(one);
  });

  it('the Navigator layer of an execution colours techniques by recorded outcome, the step order in the comments', async () => {
    const { execution } = await started();
    const [s1, s2, s3] = execution.steps;
    await record(execution.id, s1.id, t.red_tech, { outcome: 'succeeded', occurred_at: '2026-03-02T09:01:00Z' });
    await record(execution.id, s2.id, t.red_tech, { outcome: 'blocked', occurred_at: '2026-03-02T09:02:00Z', notes: 'AMSI' });
    await record(execution.id, s3.id, t.blue_tech, { outcome: 'detected', occurred_at: '2026-03-02T09:03:00Z' });
    const response = await app.api('GET', `/executions/${execution.id}/navigator`, { token: t.viewer.token });
    expect(response.status).toBe(200);
    const layer = validLayer(response.body);
    expect(layer).toMatchObject({
      domain: 'enterprise-attack',
      versions: { layer: '4.5' },
      name: `Attack path execution: ${execution.attack_path_name}`,
    });
    expect(layer.metadata).toEqual(
      expect.arrayContaining([
        { name: 'source', value: 'attack_path_execution' },
        { name: 'execution_id', value: execution.id },
        { name: 'status', value: 'running' },
      ]),
    );
    expect(layer.techniques.map((entry: any) => [entry.techniqueID, entry.tactic, entry.score, entry.color, entry.comment])).toEqual([
      ['T1566', 'initial-access', 1, '#d73027', 'Step 1 of 5: succeeded (expected detected) at 2026-03-02T09:01:00.000Z'],
      ['T1059.001', 'execution', 2, '#1a9850', 'Step 2 of 5: blocked (expected blocked) at 2026-03-02T09:02:00.000Z: AMSI'],
      ['T1003', 'credential-access', 3, '#91cf60', 'Step 3 of 5: detected (expected detected) at 2026-03-02T09:03:00.000Z'],
      ['T1021', 'lateral-movement', 4, '#d9d9d9', 'Step 4 of 5: not recorded (expected detected)'],
      ['T1041', 'exfiltration', 5, '#d9d9d9', 'Step 5 of 5: not recorded (expected blocked)'],
    ]);
    expect(layer.legendItems.map((item: any) => item.label)).toEqual([
      'Succeeded',
      'Not detected',
      'Detected',
      'Blocked',
      'Skipped',
      'Not recorded',
    ]);
    expect(await app.api('GET', `/executions/${randomUUID()}/navigator`, { token: t.viewer.token })).toMatchObject({ status: 404 });
  });
});

describe('executions over GraphQL', () => {
  const busListeners = () => (app.services.bus as unknown as { local: EventEmitter }).local.listenerCount('event');

  async function mutate(token: string, document: string, variables: Record<string, unknown>) {
    const result = await app.graphql(document, variables, token);
    expect(result.errors, document).toBeUndefined();
    return Object.values(result.data as object)[0] as Record<string, any>;
  }

  it('runs an execution with mutations while graphql-ws subscriptions receive every status change and step outcome', async () => {
    const path = await mutate(
      t.red_tech.token,
      'mutation ($input: CreateAttackPathInput!) { createAttackPath(input: $input) { id steps { id } } }',
      { input: { name: 'Over GraphQL', steps: [{ technique: 'T1566' }, { technique: 'T1003', expectedOutcome: 'blocked' }] } },
    );
    const execution = await mutate(
      t.blue_tech.token,
      'mutation ($id: UUID!) { createAttackPathExecution(attackPathId: $id) { id status steps { id sourceStepId } } }',
      { id: path.id },
    );
    const client = createClient({
      url: `${app.url.replace(/^http/, 'ws')}/graphql`,
      webSocketImpl: WebSocket,
      connectionParams: { authorization: `Bearer ${t.viewer.token}` },
      retryAttempts: 0,
    });
    try {
      const before = busListeners();
      const received: any[] = [];
      const iterator = client.iterate<{ attackPathExecutionStateChanged: any }>({
        query: `subscription ($id: UUID) { attackPathExecutionStateChanged(attackPathId: $id) {
          executionId attackPathId fromStatus toStatus actorId execution { id } } }`,
        variables: { id: path.id },
      });
      const done = (async () => {
        for await (const result of iterator) {
          received.push(result.data!.attackPathExecutionStateChanged);
          if (received.length === 2) break;
        }
      })();
      // Beside it, the changes that are not status changes (a step's outcome).
      const edits: any[] = [];
      const editIterator = client.iterate<{ attackPathExecutionChanged: any }>({
        query: `subscription ($id: UUID) { attackPathExecutionChanged(attackPathId: $id) {
          executionId attackPathId change actorId execution { id } } }`,
        variables: { id: path.id },
      });
      const editsDone = (async () => {
        for await (const result of editIterator) {
          edits.push(result.data!.attackPathExecutionChanged);
          if (edits.length === 1) break;
        }
      })();
      const deadline = Date.now() + 5_000;
      while (busListeners() <= before + 1 && Date.now() < deadline) await sleep(10);

      const byId = { id: execution.id };
      expect(
        await mutate(
          t.blue_tech.token,
          'mutation ($id: UUID!, $input: StartAttackPathExecutionInput) { startAttackPathExecution(id: $id, input: $input) { status startedAt } }',
          {
            ...byId,
            input: { startedAt: START },
          },
        ),
      ).toEqual({ status: 'running', startedAt: START });
      const recorded = await mutate(
        t.blue_tech.token,
        `mutation ($id: UUID!, $step: UUID!, $input: RecordAttackStepOutcomeInput!) {
          recordAttackPathStepOutcome(id: $id, stepId: $step, input: $input) { steps { position outcome occurredAt recordedBy { username } } } }`,
        { ...byId, step: path.steps[1].id, input: { outcome: 'detected', occurredAt: '2026-03-02T09:01:30Z' } },
      );
      expect(recorded.steps[1]).toEqual({
        position: 2,
        outcome: 'detected',
        occurredAt: '2026-03-02T09:01:30.000Z',
        recordedBy: { username: t.blue_tech.username },
      });
      const completed = await mutate(
        t.red_lead.token,
        'mutation ($id: UUID!) { completeAttackPathExecution(id: $id) { status summary { timeToDetectSeconds firstDetectedStep { position } } } }',
        byId,
      );
      expect(completed).toEqual({ status: 'completed', summary: { timeToDetectSeconds: 90, firstDetectedStep: { position: 2 } } });
      await Promise.race([done, sleep(10_000).then(() => Promise.reject(new Error(`only ${received.length} changes arrived`)))]);
      expect(received).toEqual([
        {
          executionId: execution.id,
          attackPathId: path.id,
          fromStatus: 'pending',
          toStatus: 'running',
          actorId: t.blue_tech.id,
          execution: { id: execution.id },
        },
        {
          executionId: execution.id,
          attackPathId: path.id,
          fromStatus: 'running',
          toStatus: 'completed',
          actorId: t.red_lead.id,
          execution: { id: execution.id },
        },
      ]);
      await Promise.race([editsDone, sleep(10_000).then(() => Promise.reject(new Error('the step outcome did not arrive')))]);
      expect(edits).toEqual([
        {
          executionId: execution.id,
          attackPathId: path.id,
          change: 'step_recorded',
          actorId: t.blue_tech.id,
          execution: { id: execution.id },
        },
      ]);
    } finally {
      await client.dispose();
    }
  });
});
