import { z } from 'zod';
import type { Principal } from '../../auth/access.ts';
import type { Prisma } from '../../db/client.ts';
import { inTransaction, type UnitOfWork } from '../../db/unit-of-work.ts';
import { NotFoundError, ValidationError } from '../../errors.ts';
import { camelToSnake } from '../../naming.ts';
import { AttackStepOutcome } from '../../generated/prisma/enums.ts';
import type { AttackPathExecution } from '../../generated/prisma/client.ts';
import type { Services } from '../../services.ts';
import { isUuid, page, parseInput, assertUuid } from '../../validation.ts';
import { EmptyAttackPathError } from './errors.ts';
import { executionLifecycle, type ExecutionAction } from './state-machine.ts';
import { assertAttackPathId, lockAttackPath } from './store.ts';
import { lockAndRead } from '../../db/row-lock.ts';
import { pageOf } from '../../db/page-totals.ts';

export type ExecutionQuery = { select?: Prisma.AttackPathExecutionSelect; include?: Prisma.AttackPathExecutionInclude };

export const EXECUTION_PAGE = { defaultLimit: 50, maxLimit: 200 } as const;
const pageSchema = page(EXECUTION_PAGE.defaultLimit, EXECUTION_PAGE.maxLimit);

/** How far ahead of the server's clock a given time may lie (clients' clocks drift). */
export const CLOCK_SKEW_MS = 5 * 60_000;

const notes = z.string().trim().max(5_000, 'must be at most 5000 characters');
const notInFuture = (at: Date) => at.getTime() <= Date.now() + CLOCK_SKEW_MS;
const moment = z.date('must be an ISO 8601 date-time').refine(notInFuture, 'must not be in the future');

export const assertExecutionId = (id: string): void => assertUuid('Attack path execution', id);

export async function getExecution(services: Services, id: string, query: ExecutionQuery = {}) {
  assertExecutionId(id);
  const execution = await services.prisma.attackPathExecution.findUnique({ ...query, where: { id } });
  if (!execution) throw new NotFoundError('Attack path execution', id);
  return execution;
}

/** The executions of a path, newest first, one page at a time. */
export async function listExecutions(services: Services, pathId: string, paging: unknown, query: ExecutionQuery = {}) {
  const { offset, limit } = parseInput(pageSchema, paging);
  assertAttackPathId(pathId);
  if (!(await services.prisma.attackPath.findUnique({ where: { id: pathId }, select: { id: true } }))) {
    throw new NotFoundError('Attack path', pathId);
  }
  const where = { pathId };
  return pageOf({ offset, limit }, [
    services.prisma.attackPathExecution.findMany({
      ...query,
      where,
      orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
      skip: offset,
      take: limit,
    }),
    services.prisma.attackPathExecution.count({ where }),
  ]);
}

const createSchema = z.object({ notes: notes.nullish() });

/**
 * A pending execution of the path over a copy of its steps as they are now: later edits of the path do not
 * change it. Copying takes a share lock on the path, so it never sees a step change half done.
 */
export function createExecution(services: Services, principal: Principal, pathId: string, input: unknown, query: ExecutionQuery = {}) {
  const data = parseInput(createSchema, input ?? {});
  return inTransaction(services, principal, async (uow) => {
    const path = await lockAttackPath(uow, pathId, 'share');
    const steps = await uow.tx.attackPathStep.findMany({
      where: { pathId },
      orderBy: { position: 'asc' },
      include: { technique: { select: { ttpId: true, name: true } } },
    });
    if (!steps.length) throw new EmptyAttackPathError();
    const execution = await uow.tx.attackPathExecution.create({
      data: {
        pathId,
        pathName: path.name,
        notes: data.notes || null,
        createdById: principal.userId,
        steps: {
          createMany: {
            data: steps.map((step) => ({
              position: step.position,
              sourceStepId: step.id,
              techniqueId: step.techniqueId,
              ttpId: step.technique.ttpId,
              techniqueName: step.technique.name,
              templateId: step.templateId,
              expectedOutcome: step.expectedOutcome,
              notes: step.notes,
            })),
          },
        },
      },
    });
    await uow.audit({
      action: 'create_attack_path_execution',
      entityType: 'attack_path_execution',
      entityId: execution.id,
      details: { attack_path_id: pathId, path_name: path.name, path_version: path.version, steps: steps.length },
    });
    uow.emit('attack_path_execution.changed', { executionId: execution.id, attackPathId: pathId, change: 'created' });
    return uow.tx.attackPathExecution.findUniqueOrThrow({ ...query, where: { id: execution.id } });
  });
}

/** Locks the execution row and re-reads it: its transitions and recordings run one after the other. */
export async function lockExecution(uow: UnitOfWork, id: string): Promise<AttackPathExecution> {
  return lockAndRead(uow.tx, 'attack_path_executions', 'Attack path execution', id, () =>
    uow.tx.attackPathExecution.findUnique({ where: { id } }),
  );
}

const transitionInputs = {
  start: z.object({ startedAt: moment.nullish() }),
  complete: z.object({}),
  abort: z.object({ reason: notes.nullish() }),
} satisfies Record<ExecutionAction, z.ZodType>;

/**
 * Runs one row of the execution transition table in one transaction: lock the execution, check the row
 * against its status, then write the change, its audit entry and its event.
 */
export function applyExecutionTransition(
  services: Services,
  principal: Principal,
  id: string,
  action: ExecutionAction,
  input: unknown,
  query: ExecutionQuery = {},
) {
  const row = executionLifecycle.transition(action);
  const data: { startedAt?: Date | null; reason?: string | null } = parseInput(transitionInputs[action], input ?? {});
  return inTransaction(services, principal, async (uow) => {
    const before = await lockExecution(uow, id);
    executionLifecycle.assertFrom(row, before.status);
    const at = data.startedAt ?? new Date();
    await uow.tx.attackPathExecution.update({
      where: { id },
      data: { status: row.to, [row.stamp]: at, ...(data.reason ? { abortReason: data.reason } : {}), version: { increment: 1 } },
    });
    await uow.audit({
      action: row.audit,
      entityType: 'attack_path_execution',
      entityId: id,
      details: {
        action: row.path,
        from_state: before.status,
        to_state: row.to,
        [camelToSnake(row.stamp)]: at.toISOString(),
        ...(data.reason ? { reason: data.reason } : {}),
      },
    });
    uow.emit('attack_path_execution.state_changed', { executionId: id, attackPathId: before.pathId, from: before.status, to: row.to });
    return uow.tx.attackPathExecution.findUniqueOrThrow({ ...query, where: { id } });
  });
}

const outcomeSchema = z.object({
  outcome: z.enum(AttackStepOutcome, 'must be succeeded, blocked, detected, not_detected or skipped'),
  notes: notes.nullish(),
  occurredAt: moment.nullish(),
});

export const RECORDING_STATES = executionLifecycle.statesWhere((rule) => rule.recordsOutcomes);

/**
 * Records what happened at a step (`stepId`: the execution step, or the path step it was copied from) while
 * the execution runs. Recording a step again replaces its outcome; the audit log keeps the earlier one.
 */
export function recordStepOutcome(
  services: Services,
  principal: Principal,
  id: string,
  stepId: string,
  input: unknown,
  query: ExecutionQuery = {},
) {
  const data = parseInput(outcomeSchema, input ?? {});
  return inTransaction(services, principal, async (uow) => {
    const execution = await lockExecution(uow, id);
    executionLifecycle.assertIn('EDIT_NOT_ALLOWED', 'Recording a step outcome', execution.status, RECORDING_STATES);
    const step = isUuid(stepId)
      ? await uow.tx.attackPathExecutionStep.findFirst({ where: { executionId: id, OR: [{ id: stepId }, { sourceStepId: stepId }] } })
      : null;
    if (!step) throw new NotFoundError(`Step ${stepId} of attack path execution`, id);
    const now = new Date();
    const occurredAt = data.occurredAt ?? now;
    if (execution.startedAt && occurredAt < execution.startedAt) {
      throw new ValidationError('occurredAt', `must not be before the execution started (${execution.startedAt.toISOString()})`);
    }
    await uow.tx.attackPathExecutionStep.update({
      where: { id: step.id },
      data: { outcome: data.outcome, outcomeNotes: data.notes || null, occurredAt, recordedById: principal.userId, recordedAt: now },
    });
    await uow.tx.attackPathExecution.update({ where: { id }, data: { version: { increment: 1 } } });
    await uow.audit({
      action: 'record_attack_path_step_outcome',
      entityType: 'attack_path_execution',
      entityId: id,
      details: {
        step_id: step.id,
        position: step.position,
        ttp_id: step.ttpId,
        outcome: data.outcome,
        occurred_at: occurredAt.toISOString(),
        previous_outcome: step.outcome,
      },
    });
    uow.emit('attack_path_execution.changed', { executionId: id, attackPathId: execution.pathId, change: 'step_recorded' });
    return uow.tx.attackPathExecution.findUniqueOrThrow({ ...query, where: { id } });
  });
}
