import { z } from 'zod';
import type { Principal } from '../../auth/access.ts';
import type { Prisma } from '../../db/client.ts';
import { containsText } from '../../db/search.ts';
import { inTransaction, type UnitOfWork } from '../../db/unit-of-work.ts';
import { NotFoundError, ValidationError } from '../../errors.ts';
import { camelToSnake } from '../../naming.ts';
import type { Services } from '../../services.ts';
import { isUuid, page, parseInput, trimmed, uuid } from '../../validation.ts';
import { TooManyStepsError } from './errors.ts';
import {
  assertAttackPathId,
  lockAttackPath,
  MAX_STEPS,
  renumberSteps,
  stepIdsOf,
  stepRows,
  stepSchema,
  type AttackPathQuery,
} from './store.ts';
import { pageOf } from '../../db/page-totals.ts';

export const ATTACK_PATH_PAGE = { defaultLimit: 50, maxLimit: 200 } as const;
const pageSchema = page(ATTACK_PATH_PAGE.defaultLimit, ATTACK_PATH_PAGE.maxLimit);

const name = trimmed(300);
const description = z.string().max(20_000, 'must be at most 20000 characters');

const filterSchema = z.object({ search: z.string().trim().max(200, 'must be at most 200 characters').nullish() });

/** Attack paths, newest first, one page at a time; `search` matches name or description. */
export async function listAttackPaths(services: Services, filter: unknown, paging: unknown, query: AttackPathQuery = {}) {
  const { search } = parseInput(filterSchema, filter ?? {});
  const { offset, limit } = parseInput(pageSchema, paging);
  const where: Prisma.AttackPathWhereInput = search ? { OR: [{ name: containsText(search) }, { description: containsText(search) }] } : {};
  return pageOf({ offset, limit }, [
    services.prisma.attackPath.findMany({ ...query, where, orderBy: [{ createdAt: 'desc' }, { id: 'desc' }], skip: offset, take: limit }),
    services.prisma.attackPath.count({ where }),
  ]);
}

export async function getAttackPath(services: Services, id: string, query: AttackPathQuery = {}) {
  assertAttackPathId(id);
  const path = await services.prisma.attackPath.findUnique({ ...query, where: { id } });
  if (!path) throw new NotFoundError('Attack path', id);
  return path;
}

const createSchema = z.object({
  name,
  description: description.nullish(),
  steps: z.array(stepSchema).max(MAX_STEPS, `must have at most ${MAX_STEPS} steps`).nullish(),
});

/** Creates a path with its initial sequence of steps (positions 1..n in the order given). */
export function createAttackPath(services: Services, principal: Principal, input: unknown, query: AttackPathQuery = {}) {
  const data = parseInput(createSchema, input);
  return inTransaction(services, principal, async (uow) => {
    const path = await uow.tx.attackPath.create({
      data: { name: data.name, description: data.description ?? '', createdById: principal.userId },
    });
    const rows = await stepRows(uow.tx, path.id, data.steps ?? [], 1, (index, field) => `steps.${index}.${field}`);
    if (rows.length) await uow.tx.attackPathStep.createMany({ data: rows.map(({ ttpId: _ttpId, ...row }) => row) });
    await uow.audit({
      action: 'create_attack_path',
      entityType: 'attack_path',
      entityId: path.id,
      details: { name: path.name, techniques: rows.map((row) => row.ttpId) },
    });
    uow.emit('attack_path.changed', { attackPathId: path.id, change: 'created' });
    return uow.tx.attackPath.findUniqueOrThrow({ ...query, where: { id: path.id } });
  });
}

const updateSchema = z.object({ name, description }).partial();

/** Changes name or description; only what really changes is written and recorded. */
export function updateAttackPath(services: Services, principal: Principal, id: string, input: unknown, query: AttackPathQuery = {}) {
  const changes = parseInput(updateSchema, input ?? {});
  return inTransaction(services, principal, async (uow) => {
    const before = await lockAttackPath(uow, id);
    const changed = Object.fromEntries(
      Object.entries(changes).filter(([key, value]) => value !== undefined && value !== before[key as keyof typeof before]),
    );
    if (Object.keys(changed).length) {
      await uow.tx.attackPath.update({ where: { id }, data: { ...changed, version: { increment: 1 } } });
      const details = {
        fields: Object.keys(changed).map(camelToSnake),
        changes: Object.fromEntries(Object.entries(changed).map(([key, value]) => [camelToSnake(key), value])),
      };
      await uow.audit({ action: 'update_attack_path', entityType: 'attack_path', entityId: id, details });
      uow.emit('attack_path.changed', { attackPathId: id, change: 'updated' });
    }
    return uow.tx.attackPath.findUniqueOrThrow({ ...query, where: { id } });
  });
}

/** Deletes the path and its steps. Its executions stay, with their copies of the steps and the path's name. */
export function deleteAttackPath(services: Services, principal: Principal, id: string): Promise<string> {
  return inTransaction(services, principal, async (uow) => {
    const path = await lockAttackPath(uow, id);
    const [steps, executions] = await Promise.all([
      uow.tx.attackPathStep.count({ where: { pathId: id } }),
      uow.tx.attackPathExecution.findMany({ where: { pathId: id }, select: { id: true }, orderBy: { createdAt: 'asc' } }),
    ]);
    await uow.tx.attackPath.delete({ where: { id } });
    await uow.audit({
      action: 'delete_attack_path',
      entityType: 'attack_path',
      entityId: id,
      details: { name: path.name, steps, kept_execution_ids: executions.map((execution) => execution.id) },
    });
    uow.emit('attack_path.changed', { attackPathId: id, change: 'deleted' });
    return id;
  });
}

/** Marks the path changed (version, updated_at) and records the step change. */
async function stepsChanged(uow: UnitOfWork, id: string, action: string, change: string, details: Prisma.InputJsonObject) {
  await uow.tx.attackPath.update({ where: { id }, data: { version: { increment: 1 } } });
  await uow.audit({ action, entityType: 'attack_path', entityId: id, details });
  uow.emit('attack_path.changed', { attackPathId: id, change });
}

const addStepSchema = stepSchema.extend({
  position: z.number().int('must be a whole number').min(1, 'must be 1 or more').nullish(),
});

/**
 * Adds a step at `position` (1..n+1; default: at the end), moving the later steps down by one. The path row
 * is locked first, so concurrent adds queue up and positions stay 1..n without gaps or duplicates.
 */
export function addAttackPathStep(services: Services, principal: Principal, id: string, input: unknown, query: AttackPathQuery = {}) {
  const { position, ...step } = parseInput(addStepSchema, input ?? {});
  return inTransaction(services, principal, async (uow) => {
    await lockAttackPath(uow, id);
    const order = await stepIdsOf(uow.tx, id);
    if (order.length >= MAX_STEPS) throw new TooManyStepsError(MAX_STEPS);
    const at = position ?? order.length + 1;
    if (at > order.length + 1) throw new ValidationError('position', `must be between 1 and ${order.length + 1}`);
    const [{ ttpId, ...row }] = await stepRows(uow.tx, id, [step], order.length + 1, (_index, field) => field);
    const created = await uow.tx.attackPathStep.create({ data: row, select: { id: true } });
    if (at <= order.length) await renumberSteps(uow.tx, id, [...order.slice(0, at - 1), created.id, ...order.slice(at - 1)]);
    await stepsChanged(uow, id, 'add_attack_path_step', 'step_added', {
      step_id: created.id,
      position: at,
      ttp_id: ttpId,
      template_id: row.templateId,
      expected_outcome: row.expectedOutcome,
    });
    return uow.tx.attackPath.findUniqueOrThrow({ ...query, where: { id } });
  });
}

/** Removes a step; the later steps move up by one. */
export function removeAttackPathStep(services: Services, principal: Principal, id: string, stepId: string, query: AttackPathQuery = {}) {
  return inTransaction(services, principal, async (uow) => {
    await lockAttackPath(uow, id);
    const step = isUuid(stepId)
      ? await uow.tx.attackPathStep.findFirst({
          where: { id: stepId, pathId: id },
          select: { id: true, position: true, technique: { select: { ttpId: true } } },
        })
      : null;
    if (!step) throw new NotFoundError(`Step ${stepId} of attack path`, id);
    await uow.tx.attackPathStep.delete({ where: { id: step.id } });
    await renumberSteps(uow.tx, id, await stepIdsOf(uow.tx, id));
    await stepsChanged(uow, id, 'remove_attack_path_step', 'step_removed', {
      step_id: step.id,
      position: step.position,
      ttp_id: step.technique.ttpId,
    });
    return uow.tx.attackPath.findUniqueOrThrow({ ...query, where: { id } });
  });
}

const reorderSchema = z.object({ stepIds: z.array(uuid).max(MAX_STEPS, `must have at most ${MAX_STEPS} entries`) });

/** Puts the steps in the order of `stepIds`, which must list every step of the path exactly once. */
export function reorderAttackPathSteps(services: Services, principal: Principal, id: string, input: unknown, query: AttackPathQuery = {}) {
  const { stepIds } = parseInput(reorderSchema, input ?? {});
  const wanted = stepIds.map((stepId) => stepId.toLowerCase());
  return inTransaction(services, principal, async (uow) => {
    await lockAttackPath(uow, id);
    const current = await stepIdsOf(uow.tx, id);
    const sameSet = new Set(wanted).size === wanted.length && wanted.length === current.length && wanted.every((s) => current.includes(s));
    if (!sameSet) throw new ValidationError('stepIds', `must list each of the path's ${current.length} step ids exactly once`);
    if (wanted.some((stepId, index) => stepId !== current[index])) {
      await renumberSteps(uow.tx, id, wanted);
      await stepsChanged(uow, id, 'reorder_attack_path_steps', 'steps_reordered', { from: current, to: wanted });
    }
    return uow.tx.attackPath.findUniqueOrThrow({ ...query, where: { id } });
  });
}
