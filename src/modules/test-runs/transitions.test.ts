import { beforeAll, describe, expect, it } from 'vitest';
import type { TestState } from '../../generated/prisma/enums.ts';
import { TEST_STATES, TRANSITIONS, type Transition } from './state-machine.ts';
import { useTestApp } from '../../../test/helpers/app.ts';
import { advance, createTest, statusOf, team, technique, type Team } from '../../../test/helpers/test-runs.ts';

let t: Team;
let techniqueId: string;
/** One test parked in each state (set directly: here the machine's refusals are under test, not the path). */
const parked = new Map<TestState, string>();

const app = useTestApp();

beforeAll(async () => {
  t = await team(app);
  techniqueId = (await technique(app)).id;
  for (const state of TEST_STATES) {
    const { id } = await createTest(app, t.admin, techniqueId);
    await app.services.prisma.test.update({ where: { id }, data: { state } });
    parked.set(state, id);
  }
});

/** The spec's transition table, written out independently of the code's table. */
const SPEC_VALID_TRANSITIONS: Record<TestState, TestState[]> = {
  draft: ['red_executing'],
  red_executing: ['blue_evaluating'],
  blue_evaluating: ['in_review'],
  in_review: ['rejected', 'validated'],
  rejected: ['draft'],
  validated: [],
};

const BODIES: Record<string, unknown> = {
  'validate-red': { red_validation_status: 'approved' },
  'validate-blue': { blue_validation_status: 'rejected' },
  validate: { result: 'detected' },
};
const SPEC_TARGETS: Record<string, TestState> = {
  'start-execution': 'red_executing',
  'submit-red': 'blue_evaluating',
  'submit-blue': 'in_review',
  'validate-red': 'validated',
  'validate-blue': 'rejected',
  validate: 'validated',
  reject: 'rejected',
  reopen: 'draft',
};

const illegal: [TestState, Transition][] = TEST_STATES.flatMap((state) =>
  TRANSITIONS.filter((row) => row.from !== state).map((row) => [state, row] as [TestState, Transition]),
);

describe('INVALID_TRANSITION for every (state, action) pair the table does not allow', () => {
  it('the table covers the spec: every state, every endpoint, legal pairs as specified', () => {
    expect(illegal).toHaveLength(TEST_STATES.length * TRANSITIONS.length - TRANSITIONS.length);
    expect(TRANSITIONS.map((row) => `${row.from} ${row.path}`).sort()).toEqual([
      'blue_evaluating submit-blue',
      'draft start-execution',
      'in_review reject',
      'in_review validate',
      'in_review validate-blue',
      'in_review validate-red',
      'red_executing submit-red',
      'rejected reopen',
    ]);
  });

  it.each(illegal.map(([state, row]) => [state, row.path, row] as const))(
    '%s + %s → 400 with current, target and valid transitions',
    async (state, action, row) => {
      const id = parked.get(state)!;
      const before = await app.services.prisma.test.findUniqueOrThrow({ where: { id } });
      const response = await app.api('POST', `/tests/${id}/${action}`, { token: t.admin.token, body: BODIES[action] ?? {} });
      expect(response.status).toBe(400);
      expect(response.body).toEqual({
        detail: {
          message: expect.any(String),
          code: 'INVALID_TRANSITION',
          current_state: state,
          target_state: SPEC_TARGETS[action],
          valid_transitions: SPEC_VALID_TRANSITIONS[state],
        },
        code: 'INVALID_TRANSITION',
      });
      const { message } = response.body.detail;
      expect(message).toContain(state);
      expect(message).toContain(SPEC_TARGETS[action]);
      for (const valid of SPEC_VALID_TRANSITIONS[state]) expect(message).toContain(valid);
      expect(row.roles).toContain('admin');
      const after = await app.services.prisma.test.findUniqueOrThrow({ where: { id } });
      expect(after).toEqual(before);
    },
  );

  it('GraphQL carries the same fields in extensions', async () => {
    const result = await app.graphql(
      'mutation ($id: UUID!) { reopenTest(id: $id) { id } }',
      { id: parked.get('validated') },
      t.admin.token,
    );
    expect(result.errors?.[0]).toMatchObject({
      message: expect.stringContaining('validated'),
      extensions: { code: 'INVALID_TRANSITION', status: 400, current_state: 'validated', target_state: 'draft', valid_transitions: [] },
    });
  });

  it('role refusals come before state refusals: a technician may not validate in any state', async () => {
    for (const state of ['in_review', 'draft'] as const) {
      const response = await app.api('POST', `/tests/${parked.get(state)}/validate-red`, {
        token: t.red_tech.token,
        body: { red_validation_status: 'approved' },
      });
      expect(response).toMatchObject({ status: 403, body: { code: 'FORBIDDEN' } });
    }
  });
});

describe('validation decisions', () => {
  it('deciding a side twice answers 409 ALREADY_VALIDATED; a decided test refuses further validation as an invalid transition', async () => {
    const { id } = await createTest(app, t.red_lead, techniqueId);
    await advance(app, t, id, 'in_review');
    await app.api('POST', `/tests/${id}/validate-red`, { token: t.red_lead.token, body: { red_validation_status: 'approved' } });
    const twice = await app.api('POST', `/tests/${id}/validate-red`, { token: t.admin.token, body: { red_validation_status: 'rejected' } });
    expect(twice).toMatchObject({ status: 409, body: { code: 'ALREADY_VALIDATED', side: 'red', validation_status: 'approved' } });
    expect((await app.services.prisma.test.findUniqueOrThrow({ where: { id } })).redValidationStatus).toBe('approved');
    await app.api('POST', `/tests/${id}/validate-blue`, { token: t.blue_lead.token, body: { blue_validation_status: 'approved' } });
    const late = await app.api('POST', `/tests/${id}/validate-blue`, {
      token: t.blue_lead.token,
      body: { blue_validation_status: 'approved' },
    });
    expect(late).toMatchObject({ status: 400, body: { code: 'INVALID_TRANSITION', detail: { current_state: 'validated' } } });
  });

  it('refuses a missing or unknown decision, naming the field', async () => {
    const id = parked.get('in_review')!;
    expect(await app.api('POST', `/tests/${id}/validate-red`, { token: t.red_lead.token, body: {} })).toMatchObject({
      status: 400,
      body: { field: 'red_validation_status' },
    });
    expect(
      await app.api('POST', `/tests/${id}/validate-blue`, { token: t.blue_lead.token, body: { blue_validation_status: 'maybe' } }),
    ).toMatchObject({ status: 400, body: { code: 'VALIDATION_ERROR' } });
    expect(await app.api('POST', `/tests/${id}/validate`, { token: t.blue_lead.token, body: { result: 'seen' } })).toMatchObject({
      status: 400,
      body: { code: 'VALIDATION_ERROR' },
    });
  });

  it('submit-blue needs a detection result first', async () => {
    const { id } = await createTest(app, t.red_lead, techniqueId);
    await advance(app, t, id, 'blue_evaluating');
    const refused = await app.api('POST', `/tests/${id}/submit-blue`, { token: t.blue_tech.token });
    expect(refused).toMatchObject({ status: 400, body: { code: 'INCOMPLETE_TEST', missing_fields: ['detection_result'] } });
  });
});

describe('edit rules', () => {
  const SPEC_EDIT_STATES: Record<string, { path: string; who: keyof Team; body: Record<string, unknown>; states: TestState[] }> = {
    general: { path: '', who: 'blue_lead', body: { name: 'Renamed' }, states: ['draft', 'rejected'] },
    red: { path: '/red', who: 'red_tech', body: { red_summary: 'Ran it' }, states: ['draft', 'red_executing'] },
    blue: { path: '/blue', who: 'blue_tech', body: { blue_summary: 'Saw it' }, states: ['blue_evaluating'] },
    remediation: {
      path: '/remediation',
      who: 'red_lead',
      body: { remediation_status: 'pending' },
      states: ['in_review', 'rejected', 'validated'],
    },
  };
  const pairs = Object.entries(SPEC_EDIT_STATES).flatMap(([kind, rule]) => TEST_STATES.map((state) => [kind, state, rule] as const));

  it.each(pairs)('%s update in %s', async (_kind, state, rule) => {
    const id = parked.get(state)!;
    const response = await app.api('PATCH', `/tests/${id}${rule.path}`, { token: t[rule.who].token, body: rule.body });
    if (rule.states.includes(state)) {
      expect(response.status, JSON.stringify(response.body)).toBe(200);
      expect(response.body).toMatchObject(rule.body);
    } else {
      expect(response.status).toBe(400);
      expect(response.body).toEqual({
        detail: expect.stringContaining(`the test is in ${state}`),
        code: 'EDIT_NOT_ALLOWED',
        current_state: state,
        allowed_states: rule.states,
      });
    }
  });

  it('general update accepts title and objective, moves the test to another technique and validates references', async () => {
    const { id } = await createTest(app, t.red_lead, techniqueId);
    const other = await technique(app);
    const changed = await app.api('PATCH', `/tests/${id}`, {
      token: t.red_lead.token,
      body: { title: 'New title', objective: 'New objective', platform: 'linux', assigned_to: t.red_tech.id, technique_id: other.id },
    });
    expect(changed.body).toMatchObject({
      name: 'New title',
      description: 'New objective',
      platform: 'linux',
      assigned_to: t.red_tech.id,
      technique_id: other.id,
      technique: { id: other.id },
    });
    expect(
      await app.api('PATCH', `/tests/${id}`, { token: t.red_lead.token, body: { technique_id: '00000000-0000-4000-8000-000000000000' } }),
    ).toMatchObject({ status: 400, body: { field: 'technique_id' } });
    expect(await app.api('PATCH', `/tests/${id}`, { token: t.red_lead.token, body: { name: '' } })).toMatchObject({
      status: 400,
      body: { field: 'name' },
    });
    expect(await app.api('PATCH', `/tests/${id}`, { token: t.red_lead.token, body: { colour: 'red' } })).toMatchObject({
      status: 400,
      body: { field: 'colour' },
    });
    expect((await app.api('PATCH', `/tests/${id}`, { token: t.red_tech.token, body: { name: 'x' } })).status).toBe(403);
    // Unassigning with null; an unchanged edit records nothing.
    const before = (await app.api('GET', `/tests/${id}/timeline`, { token: t.viewer.token })).body.length;
    expect((await app.api('PATCH', `/tests/${id}`, { token: t.red_lead.token, body: { assigned_to: null } })).body.assigned_to).toBeNull();
    const same = await app.api('PATCH', `/tests/${id}`, { token: t.red_lead.token, body: { assigned_to: null, name: 'New title' } });
    expect((await app.api('GET', `/tests/${id}/timeline`, { token: t.viewer.token })).body.length).toBe(before + 1);
    expect(same.body.version).toBe(2);
  });

  it('classification is set by admins only, in any state, and null clears it', async () => {
    const id = parked.get('validated')!;
    const set = await app.api('PATCH', `/tests/${id}/classification`, {
      token: t.admin.token,
      body: { data_classification: 'restricted' },
    });
    expect(set.body).toMatchObject({ data_classification: 'restricted' });
    expect(
      (await app.api('PATCH', `/tests/${id}/classification`, { token: t.red_lead.token, body: { data_classification: 'public' } })).status,
    ).toBe(403);
    expect(await app.api('PATCH', `/tests/${id}/classification`, { token: t.admin.token, body: {} })).toMatchObject({
      status: 400,
      body: { field: 'data_classification' },
    });
    expect(
      (await app.api('PATCH', `/tests/${id}/classification`, { token: t.admin.token, body: { data_classification: null } })).body
        .data_classification,
    ).toBeNull();
    const audit = await app.services.prisma.auditLog.findFirstOrThrow({
      where: { entityId: id, action: 'classify_test' },
      orderBy: { timestamp: 'asc' },
    });
    expect(audit.details).toEqual({ fields: ['data_classification'], changes: { data_classification: 'restricted' } });
  });

  it('remediation refuses an unknown assignee and an unknown status', async () => {
    const id = parked.get('rejected')!;
    expect(
      await app.api('PATCH', `/tests/${id}/remediation`, {
        token: t.blue_lead.token,
        body: { remediation_assignee: '00000000-0000-4000-8000-000000000000' },
      }),
    ).toMatchObject({
      status: 400,
      body: { field: 'remediation_assignee' },
    });
    expect(
      await app.api('PATCH', `/tests/${id}/remediation`, { token: t.blue_lead.token, body: { remediation_status: 'done' } }),
    ).toMatchObject({ status: 400 });
  });
});

describe('timers', () => {
  const stored = (id: string) => app.services.prisma.test.findUniqueOrThrow({ where: { id } });
  const backdate = (id: string, ms: number) =>
    app.services.prisma.test.update({ where: { id }, data: { timerStartedAt: new Date(Date.now() - ms) } });

  it('starts with execution, pauses and resumes idempotently without double counting, and stops at review', async () => {
    const { id } = await createTest(app, t.red_lead, techniqueId);
    const started = await app.api('POST', `/tests/${id}/start-execution`, { token: t.red_tech.token });
    expect(started.body).toMatchObject({ timer_running: true, timer_started_at: expect.any(String), elapsed_seconds: 0 });

    await backdate(id, 600_000);
    const running = await app.api('GET', `/tests/${id}`, { token: t.viewer.token });
    expect(running.body.elapsed_seconds).toBeGreaterThanOrEqual(600);
    expect(running.body.elapsed_seconds).toBeLessThan(630);

    const paused = await app.api('POST', `/tests/${id}/pause-timer`, { token: t.blue_tech.token });
    expect(paused.body).toMatchObject({ timer_running: false, timer_started_at: null });
    const afterPause = await stored(id);
    expect(Number(afterPause.elapsedMs)).toBeGreaterThanOrEqual(600_000);
    expect(Number(afterPause.elapsedMs)).toBeLessThan(630_000);

    const pausedAgain = await app.api('POST', `/tests/${id}/pause-timer`, { token: t.red_tech.token });
    expect(pausedAgain.status).toBe(200);
    expect(await stored(id)).toEqual(afterPause);

    await app.api('POST', `/tests/${id}/resume-timer`, { token: t.red_tech.token });
    const resumed = await stored(id);
    expect(resumed.timerStartedAt).not.toBeNull();
    expect(resumed.elapsedMs).toBe(afterPause.elapsedMs);
    await app.api('POST', `/tests/${id}/resume-timer`, { token: t.red_lead.token });
    expect(await stored(id)).toEqual(resumed);

    await backdate(id, 60_000);
    await app.api('POST', `/tests/${id}/submit-red`, { token: t.red_tech.token });
    expect((await stored(id)).timerStartedAt).not.toBeNull();
    await app.api('PATCH', `/tests/${id}/blue`, { token: t.blue_tech.token, body: { detection_result: 'not_detected' } });
    const submitted = await app.api('POST', `/tests/${id}/submit-blue`, { token: t.blue_tech.token });
    expect(submitted.body.timer_running).toBe(false);
    const final = await stored(id);
    expect(Number(final.elapsedMs) - Number(afterPause.elapsedMs)).toBeGreaterThanOrEqual(60_000);
    expect(Number(final.elapsedMs) - Number(afterPause.elapsedMs)).toBeLessThan(90_000);
    expect(submitted.body.elapsed_seconds).toBe(Math.floor(Number(final.elapsedMs) / 1000));

    expect(await app.api('POST', `/tests/${id}/resume-timer`, { token: t.red_tech.token })).toMatchObject({
      status: 400,
      body: { code: 'TIMER_NOT_ALLOWED', current_state: 'in_review', allowed_states: ['red_executing', 'blue_evaluating'] },
    });
    expect((await app.api('POST', `/tests/${id}/pause-timer`, { token: t.red_tech.token })).status).toBe(200);
    expect((await app.api('POST', `/tests/${id}/pause-timer`, { token: t.viewer.token })).status).toBe(403);

    const kinds = (await app.api('GET', `/tests/${id}/timeline`, { token: t.viewer.token })).body.map((entry: any) => entry.kind);
    expect(kinds.filter((kind: string) => kind.startsWith('timer_'))).toEqual(['timer_paused', 'timer_resumed']);
  });

  it('a timer paused during red execution starts again when the blue team takes over', async () => {
    const { id } = await createTest(app, t.red_lead, techniqueId);
    await advance(app, t, id, 'red_executing');
    await app.api('POST', `/tests/${id}/pause-timer`, { token: t.red_tech.token });
    const submitted = await app.api('POST', `/tests/${id}/submit-red`, { token: t.red_tech.token });
    expect(submitted.body.timer_running).toBe(true);
  });
});

describe('technique coverage', () => {
  it('follows the latest validated test; in_progress while only unfinished tests exist; not_evaluated with drafts only', async () => {
    const events: unknown[] = [];
    const off = app.services.bus.on('coverage.changed', (event) => void events.push(event.payload));
    const { id: target } = await technique(app);
    const first = await createTest(app, t.red_lead, target);
    expect(await statusOf(app, target)).toBe('not_evaluated');
    await advance(app, t, first.id, 'validated');
    expect(await statusOf(app, target)).toBe('validated');

    const second = await createTest(app, t.red_lead, target);
    await advance(app, t, second.id, 'blue_evaluating');
    expect(await statusOf(app, target)).toBe('validated');
    await app.api('PATCH', `/tests/${second.id}/blue`, { token: t.blue_tech.token, body: { detection_result: 'partially_detected' } });
    await app.api('POST', `/tests/${second.id}/submit-blue`, { token: t.blue_tech.token });
    await app.api('POST', `/tests/${second.id}/validate`, { token: t.admin.token });
    expect(await statusOf(app, target)).toBe('partial');

    const third = await createTest(app, t.red_lead, target);
    await advance(app, t, third.id, 'in_review');
    await app.api('POST', `/tests/${third.id}/validate`, { token: t.admin.token, body: { result: 'not_detected' } });
    expect(await statusOf(app, target)).toBe('not_covered');
    off();
    expect(events).toEqual([
      { techniqueIds: [target], reason: 'test_red_executing' },
      { techniqueIds: [target], reason: 'test_validated' },
      { techniqueIds: [target], reason: 'test_validated' },
      { techniqueIds: [target], reason: 'test_validated' },
    ]);
  });

  it('moving a rejected test to another technique recomputes both', async () => {
    const [from, to] = [await technique(app), await technique(app)];
    const { id } = await createTest(app, t.red_lead, from.id);
    await advance(app, t, id, 'rejected');
    expect(await statusOf(app, from.id)).toBe('in_progress');
    await app.api('PATCH', `/tests/${id}`, { token: t.red_lead.token, body: { technique_id: to.id } });
    expect([await statusOf(app, from.id), await statusOf(app, to.id)]).toEqual(['not_evaluated', 'in_progress']);
  });
});
