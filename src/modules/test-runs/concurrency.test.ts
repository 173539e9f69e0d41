import { beforeAll, describe, expect, it } from 'vitest';
import type { EventOf } from '../../events/types.ts';
import type { ValidationStatus } from '../../generated/prisma/enums.ts';
import { dualValidationOutcome } from './state-machine.ts';
import { type ApiResponse, useTestApp } from '../../../test/helpers/app.ts';
import { createTest, notified, statusOf, team, technique, type Team } from '../../../test/helpers/test-runs.ts';

let t: Team;
let techniqueId: string;
const stateChanges: EventOf<'test.state_changed'>['payload'][] = [];
const validatedEvents: string[] = [];
const ROUNDS = 20;

const app = useTestApp();

beforeAll(async () => {
  t = await team(app);
  techniqueId = (await technique(app)).id;
  app.services.bus.on('test.state_changed', (event) => void stateChanges.push(event.payload));
  app.services.bus.on('test.validated', (event) => void validatedEvents.push(event.payload.testId));
});

/** A test waiting in review (reached directly: the race under test starts here). */
async function inReview(extra: { redValidationStatus?: ValidationStatus } = {}) {
  const { id } = await createTest(app, t.red_lead, techniqueId);
  await app.services.prisma.test.update({ where: { id }, data: { state: 'in_review', detectionResult: 'detected', ...extra } });
  return id;
}

const timeline = (testId: string) => app.services.prisma.testEvent.findMany({ where: { testId }, orderBy: { at: 'asc' } });
const count = <T>(items: T[], accept: (item: T) => boolean) => items.filter(accept).length;
const eventsOf = async (testId: string) => {
  await new Promise((resolve) => setTimeout(resolve, 20)); // events are published right after the commit
  return stateChanges.filter((change) => change.testId === testId).map((change) => `${change.from}→${change.to}`);
};

describe('concurrent transitions of one test end in exactly one consistent state', () => {
  it(`${ROUNDS} rounds of validate-red ‖ validate-blue: both decisions counted, or the loser refused — never lost`, async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const id = await inReview();
      const red: ValidationStatus = round % 3 === 2 ? 'rejected' : 'approved';
      const blue: ValidationStatus = round % 4 === 3 ? 'rejected' : 'approved';
      const [redResponse, blueResponse] = await Promise.all([
        app.api('POST', `/tests/${id}/validate-red`, { token: t.red_lead.token, body: { red_validation_status: red } }),
        app.api('POST', `/tests/${id}/validate-blue`, { token: t.blue_lead.token, body: { blue_validation_status: blue } }),
      ]);
      const test = await app.services.prisma.test.findUniqueOrThrow({ where: { id } });
      const label = `round ${round}: red ${red} ${redResponse.status}, blue ${blue} ${blueResponse.status}`;

      const sides: [ApiResponse, ValidationStatus, ValidationStatus | null][] = [
        [redResponse, red, test.redValidationStatus],
        [blueResponse, blue, test.blueValidationStatus],
      ];
      for (const [response, decision, stored] of sides) {
        if (response.status === 200) expect(stored, label).toBe(decision);
        else {
          // Only a side that arrived after the other side's rejection may be refused.
          expect(response.body, label).toMatchObject({ code: 'INVALID_TRANSITION', detail: { current_state: 'rejected' } });
          expect(stored, label).toBeNull();
        }
      }
      if (red === 'approved' && blue === 'approved') expect([redResponse.status, blueResponse.status], label).toEqual([200, 200]);
      expect(test.state, label).toBe(dualValidationOutcome(test.redValidationStatus, test.blueValidationStatus));
      expect(test.state, label).toBe(red === 'approved' && blue === 'approved' ? 'validated' : 'rejected');

      const entries = await timeline(id);
      const accepted = [redResponse, blueResponse].filter((response) => response.status === 200).length;
      expect(
        count(entries, (entry) => entry.kind === 'validation_recorded'),
        label,
      ).toBe(accepted);
      expect(
        entries.filter((entry) => entry.kind === 'state_changed').map((entry) => `${entry.fromState}→${entry.toState}`),
        label,
      ).toEqual([`in_review→${test.state}`]);
      expect(await eventsOf(id), label).toEqual([`in_review→${test.state}`]);
      expect(
        count(validatedEvents, (testId) => testId === id),
        label,
      ).toBe(test.state === 'validated' ? 1 : 0);
      expect(await notified(app, id, test.state === 'validated' ? 'test_validated' : 'test_rejected'), label).toEqual([t.red_lead.id]);
      expect(test.version, label).toBe(accepted);
    }
  });

  it(`${ROUNDS} rounds of validate-blue (rejecting) ‖ reopen: either both apply in order or the reopen is refused`, async () => {
    const outcomes = new Set<string>();
    for (let round = 0; round < ROUNDS; round++) {
      const id = await inReview({ redValidationStatus: 'approved' });
      const [validation, reopen] = await Promise.all([
        app.api('POST', `/tests/${id}/validate-blue`, { token: t.blue_lead.token, body: { blue_validation_status: 'rejected' } }),
        app.api('POST', `/tests/${id}/reopen`, { token: t.red_lead.token }),
      ]);
      const test = await app.services.prisma.test.findUniqueOrThrow({ where: { id } });
      const label = `round ${round}: validate ${validation.status}, reopen ${reopen.status}`;
      expect(validation.status, label).toBe(200);
      const transitions = (await timeline(id))
        .filter((entry) => entry.kind === 'state_changed')
        .map((entry) => `${entry.fromState}→${entry.toState}`);
      if (reopen.status === 200) {
        outcomes.add('reopened');
        expect(test, label).toMatchObject({
          state: 'draft',
          redValidationStatus: null,
          blueValidationStatus: null,
          blueValidatedById: null,
          decidedAt: null,
        });
        expect(transitions, label).toEqual(['in_review→rejected', 'rejected→draft']);
        expect(await eventsOf(id), label).toEqual(['in_review→rejected', 'rejected→draft']);
      } else {
        outcomes.add('refused');
        expect(reopen.body, label).toMatchObject({
          code: 'INVALID_TRANSITION',
          detail: { current_state: 'in_review', target_state: 'draft' },
        });
        expect(test, label).toMatchObject({ state: 'rejected', redValidationStatus: 'approved', blueValidationStatus: 'rejected' });
        expect(transitions, label).toEqual(['in_review→rejected']);
        expect(await eventsOf(id), label).toEqual(['in_review→rejected']);
      }
    }
    expect(outcomes.size).toBeGreaterThan(0);
  });

  it('eight leads approving the red side at once: one decision is recorded, the others get 409 ALREADY_VALIDATED', async () => {
    const leads = await Promise.all(
      Array.from({ length: 7 }, async () => {
        const user = await app.createUser({ role: 'red_lead' });
        return app.login(user.username);
      }),
    );
    const id = await inReview();
    const responses = await Promise.all(
      [...leads, t.admin.token].map((token) =>
        app.api('POST', `/tests/${id}/validate-red`, { token, body: { red_validation_status: 'approved' } }),
      ),
    );
    expect(responses.map((response) => response.status).sort()).toEqual([200, 409, 409, 409, 409, 409, 409, 409]);
    expect(responses.filter((response) => response.status === 409).every((response) => response.body.code === 'ALREADY_VALIDATED')).toBe(
      true,
    );
    const test = await app.services.prisma.test.findUniqueOrThrow({ where: { id } });
    expect(test).toMatchObject({ state: 'in_review', redValidationStatus: 'approved', blueValidationStatus: null, version: 1 });
    expect(count(await timeline(id), (entry) => entry.kind === 'validation_recorded')).toBe(1);
    expect(await app.services.prisma.auditLog.count({ where: { entityId: id, action: 'validate_test_red' } })).toBe(1);
  });

  it('two tests of one technique validated at the same moment leave the coverage of the later decision', async () => {
    for (let round = 0; round < 10; round++) {
      const target = (await technique(app)).id;
      const ids = await Promise.all(
        (['detected', 'not_detected'] as const).map(async (detectionResult) => {
          const { id } = await createTest(app, t.red_lead, target);
          await app.services.prisma.test.update({
            where: { id },
            data: { state: 'in_review', detectionResult, redValidationStatus: 'approved' },
          });
          return id;
        }),
      );
      const responses = await Promise.all(
        ids.map((id) =>
          app.api('POST', `/tests/${id}/validate-blue`, { token: t.blue_lead.token, body: { blue_validation_status: 'approved' } }),
        ),
      );
      expect(responses.map((response) => response.status)).toEqual([200, 200]);
      // Decisions in the same millisecond are ordered by creation, then id, as the coverage rule orders them.
      const [latest] = await app.services.prisma.test.findMany({
        where: { techniqueId: target },
        orderBy: [{ decidedAt: 'desc' }, { createdAt: 'desc' }, { id: 'desc' }],
      });
      expect(await statusOf(app, target), `round ${round}`).toBe(latest.detectionResult === 'detected' ? 'validated' : 'not_covered');
    }
  });

  it('concurrent pauses never count the same interval twice', async () => {
    const { id } = await createTest(app, t.red_lead, techniqueId);
    await app.api('POST', `/tests/${id}/start-execution`, { token: t.red_tech.token });
    await app.services.prisma.test.update({ where: { id }, data: { timerStartedAt: new Date(Date.now() - 300_000) } });
    const pauses = await Promise.all(
      Array.from({ length: 6 }, () => app.api('POST', `/tests/${id}/pause-timer`, { token: t.red_tech.token })),
    );
    expect(pauses.every((response) => response.status === 200)).toBe(true);
    const test = await app.services.prisma.test.findUniqueOrThrow({ where: { id } });
    expect(test.timerStartedAt).toBeNull();
    expect(Number(test.elapsedMs)).toBeGreaterThanOrEqual(300_000);
    expect(Number(test.elapsedMs)).toBeLessThan(330_000);
    expect(count(await timeline(id), (entry) => entry.kind === 'timer_paused')).toBe(1);
  });
});
