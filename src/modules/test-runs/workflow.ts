import { z } from 'zod';
import type { Principal } from '../../auth/access.ts';
import type { Prisma } from '../../db/client.ts';
import { inTransaction, type UnitOfWork } from '../../db/unit-of-work.ts';
import { ForbiddenError } from '../../errors.ts';
import { DetectionResult, ValidationStatus } from '../../generated/prisma/enums.ts';
import type { Test, TestState } from '../../generated/prisma/client.ts';
import type { Services } from '../../services.ts';
import { parseInput } from '../../validation.ts';
import { recomputeCoverage } from './coverage.ts';
import { AlreadyValidatedError, IncompleteTestError } from './errors.ts';
import {
  dualValidationOutcome,
  sidesOf,
  targetOf,
  testLifecycle,
  type Side,
  type TestAction,
  type Transition,
  type TransitionInput,
} from './state-machine.ts';
import { lockTest, type TestQuery, type TimelineEntry } from './store.ts';
import { STATES } from './states.ts';
import { timerOnStateChange } from './timer.ts';

const notes = z.string().max(20_000, 'must be at most 20000 characters').nullish();

const INPUTS = {
  redValidation: z.object({ redValidationStatus: z.enum(ValidationStatus), redValidationNotes: notes }),
  blueValidation: z.object({ blueValidationStatus: z.enum(ValidationStatus), blueValidationNotes: notes }),
  legacyValidation: z.object({ result: z.enum(DetectionResult).nullish(), comments: notes }),
  legacyRejection: z.object({ comments: notes }),
} satisfies Record<TransitionInput, z.ZodType>;

/** A transition's body reduced to what the machine needs. */
interface Request {
  decision?: ValidationStatus;
  notes?: string | null;
  result?: DetectionResult | null;
}

function parseRequest(row: Transition, input: unknown): Request {
  if (!row.input) return {};
  const body = parseInput(INPUTS[row.input], input ?? {}) as Record<string, unknown>;
  switch (row.input) {
    case 'redValidation':
      return { decision: body.redValidationStatus as ValidationStatus, notes: body.redValidationNotes as string | null };
    case 'blueValidation':
      return { decision: body.blueValidationStatus as ValidationStatus, notes: body.blueValidationNotes as string | null };
    case 'legacyValidation':
      return { decision: 'approved', notes: body.comments as string | null, result: body.result as DetectionResult | null };
    case 'legacyRejection':
      return { decision: 'rejected', notes: body.comments as string | null };
  }
}

const CLEARED_VALIDATION = {
  redValidationStatus: null,
  redValidationNotes: null,
  redValidatedById: null,
  redValidatedAt: null,
  blueValidationStatus: null,
  blueValidationNotes: null,
  blueValidatedById: null,
  blueValidatedAt: null,
  decidedAt: null,
} as const;

const statusOf = (test: Test, side: Side) => (side === 'red' ? test.redValidationStatus : test.blueValidationStatus);

/** The sides this call decides; a side decided earlier in this review is refused (409). */
function decidingSides(row: Transition, principal: Principal, test: Test): Side[] {
  const validates = row.effects.validates!;
  if (validates !== 'own') {
    const status = statusOf(test, validates);
    if (status) throw new AlreadyValidatedError(validates, status);
    return [validates];
  }
  const own = sidesOf(principal.role);
  if (!own.length) throw new ForbiddenError('Only leads and admins decide a validation side');
  const pending = own.filter((side) => !statusOf(test, side));
  if (!pending.length) throw new AlreadyValidatedError(own[0], statusOf(test, own[0])!);
  return pending;
}

function validationColumns(side: Side, decision: ValidationStatus, notes: string | null | undefined, principal: Principal, now: Date) {
  return side === 'red'
    ? { redValidationStatus: decision, redValidationNotes: notes ?? null, redValidatedById: principal.userId, redValidatedAt: now }
    : { blueValidationStatus: decision, blueValidationNotes: notes ?? null, blueValidatedById: principal.userId, blueValidatedAt: now };
}

/**
 * Runs one row of the transition table in one transaction: lock the test, check the row against the state
 * it really is in now, then write the change, its timeline entries, the audit entry, notifications,
 * coverage and the domain events together.
 */
export function applyTransition(
  services: Services,
  principal: Principal,
  id: string,
  action: TestAction,
  input: unknown,
  query: TestQuery = {},
) {
  const row = testLifecycle.transition(action);
  const request = parseRequest(row, input);
  return inTransaction(services, principal, async (uow) => {
    const locked = await lockTest(uow, id);
    const { test, now } = locked;
    testLifecycle.assertFrom(row, test.state, targetOf(row, request.decision));

    const data: Prisma.TestUncheckedUpdateInput = { version: { increment: 1 } };
    const entries: TimelineEntry[] = [];
    const details: Record<string, Prisma.InputJsonValue | null> = { action: row.path };
    let next = row.to[0];

    const missing = (row.effects.requires ?? []).filter((field) => test[field] == null);
    if (missing.length) throw new IncompleteTestError(missing, row.path);
    if (row.effects.stamp) data[row.effects.stamp] = now;
    if (row.effects.validates) {
      const sides = decidingSides(row, principal, test);
      const decision = request.decision!;
      let after = test;
      for (const side of sides) {
        const columns = validationColumns(side, decision, request.notes, principal, now);
        Object.assign(data, columns);
        after = { ...after, ...columns };
        entries.push({ kind: 'validation_recorded', details: { side, status: decision, notes: request.notes ?? null } });
      }
      if (request.result) {
        data.detectionResult = request.result;
        details.detection_result = request.result;
      }
      details.sides = sides;
      details.decision = decision;
      next = dualValidationOutcome(after.redValidationStatus, after.blueValidationStatus);
    }
    if (row.effects.clearsValidation) Object.assign(data, CLEARED_VALIDATION);

    const timer = timerOnStateChange(test, next, now);
    Object.assign(data, timer.change);
    if (next !== test.state) {
      data.state = next;
      if (STATES[next].decided) data.decidedAt = now;
      entries.push({
        kind: 'state_changed',
        fromState: test.state,
        toState: next,
        details: { action: row.path, ...(timer.timer ? { timer: timer.timer } : {}) },
      });
    }

    const updated = await uow.tx.test.update({ where: { id }, data });
    await locked.record(...entries);
    await uow.audit({
      action: row.audit,
      entityType: 'test',
      entityId: id,
      details: { ...details, from_state: test.state, to_state: next },
    });
    if (next !== test.state) await stateChanged(uow, updated, test.state, next);
    else uow.emit('test.changed', { testId: id, campaignId: test.campaignId, change: row.action });
    return uow.tx.test.findUniqueOrThrow({ ...query, where: { id } });
  });
}

/** What follows a state change in the same transaction: its events (the entry notices consume them) and coverage. */
async function stateChanged(uow: UnitOfWork, test: Test, from: TestState, to: TestState): Promise<void> {
  const facts = { testId: test.id, techniqueId: test.techniqueId, campaignId: test.campaignId };
  uow.emit('test.state_changed', { ...facts, from, to });
  if (to === 'validated') uow.emit('test.validated', { ...facts, detectionResult: test.detectionResult });
  await recomputeCoverage(uow, test.techniqueId, `test_${to}`);
}
