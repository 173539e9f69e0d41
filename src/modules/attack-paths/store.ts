import { z } from 'zod';
import type { Db, Prisma } from '../../db/client.ts';
import type { UnitOfWork } from '../../db/unit-of-work.ts';
import { AttackStepExpectation } from '../../generated/prisma/enums.ts';
import type { AttackPath } from '../../generated/prisma/client.ts';
import { uuid, assertUuid } from '../../validation.ts';
import { assertTemplates, resolveTechniques, techniqueRef } from './references.ts';
import { lockAndRead } from '../../db/row-lock.ts';

export type AttackPathQuery = { select?: Prisma.AttackPathSelect; include?: Prisma.AttackPathInclude };

/** Most steps one attack path holds. */
export const MAX_STEPS = 100;

/** A step as create and add-step take it. */
export const stepSchema = z.object({
  technique: techniqueRef,
  testTemplateId: uuid.nullish(),
  expectedOutcome: z.enum(AttackStepExpectation, 'must be detected, blocked or not_detected').nullish(),
  notes: z.string().trim().max(5_000, 'must be at most 5000 characters').nullish(),
});
export type StepInput = z.infer<typeof stepSchema>;

/** Throws 404 for anything that is not a UUID, before it can reach SQL. */
export const assertAttackPathId = (id: string): void => assertUuid('Attack path', id);

/**
 * Locks the path row and re-reads it: changes of one path's steps run one after the other, so concurrent
 * adds each see the steps the previous one committed. `FOR SHARE` (executions copying the steps) lets
 * readers in together but waits for a change in progress.
 */
export async function lockAttackPath(uow: UnitOfWork, id: string, mode: 'update' | 'share' = 'update'): Promise<AttackPath> {
  return lockAndRead(uow.tx, 'attack_paths', 'Attack path', id, () => uow.tx.attackPath.findUnique({ where: { id } }), mode);
}

/** How the input names a field of its `index`th step, for errors. */
export type StepField = (index: number, name: keyof StepInput) => string;

/** The step rows of `steps`, placed from `first` on, their references checked. */
export async function stepRows(db: Db, pathId: string, steps: readonly StepInput[], first: number, field: StepField) {
  const techniques = await resolveTechniques(
    db,
    steps.map((step, index) => ({ value: step.technique, field: field(index, 'technique') })),
  );
  await assertTemplates(
    db,
    steps.flatMap((step, index) => (step.testTemplateId ? [{ value: step.testTemplateId, field: field(index, 'testTemplateId') }] : [])),
  );
  return steps.map((step, index) => ({
    pathId,
    position: first + index,
    techniqueId: techniques[index].id,
    templateId: step.testTemplateId ?? null,
    expectedOutcome: step.expectedOutcome ?? AttackStepExpectation.detected,
    notes: step.notes || null,
    ttpId: techniques[index].ttpId,
  }));
}

/**
 * Gives the path's steps the positions 1..n in the order of `orderedIds`. The unique (path, position) index is
 * checked row by row, so the steps first move to negative positions, then to their places.
 */
export async function renumberSteps(db: Db, pathId: string, orderedIds: readonly string[]): Promise<void> {
  await db.$executeRaw`UPDATE attack_path_steps SET position = -position WHERE path_id = ${pathId}::uuid`;
  await db.$executeRaw`
    UPDATE attack_path_steps s SET position = o.ord::int
      FROM unnest(${[...orderedIds]}::uuid[]) WITH ORDINALITY AS o(id, ord)
     WHERE s.id = o.id AND s.path_id = ${pathId}::uuid`;
}

/** The ids of the path's steps in their order. */
export async function stepIdsOf(db: Db, pathId: string): Promise<string[]> {
  const steps = await db.attackPathStep.findMany({ where: { pathId }, orderBy: { position: 'asc' }, select: { id: true } });
  return steps.map((step) => step.id);
}
