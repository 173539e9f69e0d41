import { z } from 'zod';
import type { Principal } from '../../auth/access.ts';
import type { Db, Prisma } from '../../db/client.ts';
import { inTransaction } from '../../db/unit-of-work.ts';
import { ConflictError, NotFoundError, ValidationError } from '../../errors.ts';
import { Responsibility, Severity } from '../../generated/prisma/enums.ts';
import type { Services } from '../../services.ts';
import { page, parseInput, trimmed, uuid } from '../../validation.ts';
import { resolveTechnique } from '../techniques/reference.ts';
import { pageOf } from '../../db/page-totals.ts';

export const OWNERSHIP_PAGE = { defaultLimit: 50, maxLimit: 200 } as const;
const pageSchema = page(OWNERSHIP_PAGE.defaultLimit, OWNERSHIP_PAGE.maxLimit);

type AssignmentQuery = { select?: Prisma.OwnershipAssignmentSelect };
type AssetQuery = { select?: Prisma.OwnedAssetSelect };
type EntryQuery = { select?: Prisma.RevalidationEntrySelect };

const dueDate = z.iso.date('must be a date (YYYY-MM-DD)').transform((value) => new Date(`${value}T00:00:00Z`));

const assignmentFields = {
  ownerId: uuid,
  team: z.string().trim().min(1).max(100).nullable(),
  responsibility: z.enum(Responsibility),
  dueDate: dueDate.nullable(),
  notes: z.string().trim().max(5000).nullable(),
};
const createAssignmentSchema = z.object({
  techniqueId: z.string().trim().min(1, 'must name a technique'),
  ownerId: assignmentFields.ownerId,
  responsibility: assignmentFields.responsibility,
  team: assignmentFields.team.optional(),
  dueDate: assignmentFields.dueDate.optional(),
  notes: assignmentFields.notes.optional(),
});
const updateAssignmentSchema = z.object(assignmentFields).partial();
const assignmentFilterSchema = z.object({
  technique: z.string().trim().min(1).nullish(),
  ownerId: uuid.nullish(),
  responsibility: z.enum(Responsibility).nullish(),
});

async function checkOwner(db: Db, ownerId: string) {
  const owner = await db.user.findUnique({ where: { id: ownerId }, select: { isActive: true } });
  if (!owner?.isActive) throw new ValidationError('ownerId', 'must be an active user');
}

const duplicate = (ttpId: string, responsibility: string) =>
  new ConflictError(`${ttpId} already has an owner for the ${responsibility} responsibility`);

export async function listAssignments(services: Services, filter: unknown, paging: unknown, query: AssignmentQuery = {}) {
  const { technique, ownerId, responsibility } = parseInput(assignmentFilterSchema, filter ?? {});
  const { offset, limit } = parseInput(pageSchema, paging ?? {});
  const techniqueId = technique ? (await resolveTechnique(services.prisma, technique, 'technique')).id : undefined;
  const where = { techniqueId, ownerId: ownerId ?? undefined, responsibility: responsibility ?? undefined };
  return pageOf({ offset, limit }, [
    services.prisma.ownershipAssignment.findMany({
      ...query,
      where,
      orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
      skip: offset,
      take: limit,
    }),
    services.prisma.ownershipAssignment.count({ where }),
  ]);
}

export async function createAssignment(services: Services, principal: Principal, input: unknown, query: AssignmentQuery = {}) {
  const data = parseInput(createAssignmentSchema, input);
  return inTransaction(services, principal, async (uow) => {
    const technique = await resolveTechnique(uow.tx, data.techniqueId, 'techniqueId');
    await checkOwner(uow.tx, data.ownerId);
    const taken = await uow.tx.ownershipAssignment.findUnique({
      where: { techniqueId_responsibility: { techniqueId: technique.id, responsibility: data.responsibility } },
      select: { id: true },
    });
    if (taken) throw duplicate(technique.ttpId, data.responsibility);
    const { id } = await uow.tx.ownershipAssignment.create({
      data: { ...data, techniqueId: technique.id, team: data.team ?? null, dueDate: data.dueDate ?? null, notes: data.notes ?? null },
      select: { id: true },
    });
    await uow.audit({
      action: 'create_ownership_assignment',
      entityType: 'ownership_assignment',
      entityId: id,
      details: { ttp_id: technique.ttpId, owner_id: data.ownerId, responsibility: data.responsibility },
    });
    return uow.tx.ownershipAssignment.findUniqueOrThrow({ ...query, where: { id } });
  });
}

export async function updateAssignment(services: Services, principal: Principal, id: string, input: unknown, query: AssignmentQuery = {}) {
  const data = parseInput(updateAssignmentSchema, input);
  return inTransaction(services, principal, async (uow) => {
    const current = await uow.tx.ownershipAssignment.findUnique({
      where: { id },
      select: { techniqueId: true, technique: { select: { ttpId: true } } },
    });
    if (!current) throw new NotFoundError('Ownership assignment', id);
    if (data.ownerId) await checkOwner(uow.tx, data.ownerId);
    if (data.responsibility) {
      const taken = await uow.tx.ownershipAssignment.findFirst({
        where: { techniqueId: current.techniqueId, responsibility: data.responsibility, id: { not: id } },
        select: { id: true },
      });
      if (taken) throw duplicate(current.technique.ttpId, data.responsibility);
    }
    await uow.tx.ownershipAssignment.update({ where: { id }, data, select: { id: true } });
    await uow.audit({ action: 'update_ownership_assignment', entityType: 'ownership_assignment', entityId: id, details: data });
    return uow.tx.ownershipAssignment.findUniqueOrThrow({ ...query, where: { id } });
  });
}

export async function deleteAssignment(services: Services, principal: Principal, id: string): Promise<boolean> {
  return inTransaction(services, principal, async (uow) => {
    const current = await uow.tx.ownershipAssignment.findUnique({ where: { id }, select: { ownerId: true, techniqueId: true } });
    if (!current) throw new NotFoundError('Ownership assignment', id);
    await uow.tx.ownershipAssignment.delete({ where: { id } });
    await uow.audit({ action: 'delete_ownership_assignment', entityType: 'ownership_assignment', entityId: id, details: current });
    return true;
  });
}

const createAssetSchema = z.object({
  name: trimmed(200),
  kind: trimmed(64),
  platform: z
    .string()
    .trim()
    .min(1)
    .max(64)
    .transform((value) => value.toLowerCase())
    .nullish(),
  criticality: z.enum(Severity).default('medium'),
  ownerId: uuid.nullish(),
  description: z.string().trim().max(5000).nullish(),
});
const assetFilterSchema = z.object({ kind: z.string().trim().min(1).nullish(), criticality: z.enum(Severity).nullish() });

export async function listOwnedAssets(services: Services, filter: unknown, paging: unknown, query: AssetQuery = {}) {
  const { kind, criticality } = parseInput(assetFilterSchema, filter ?? {});
  const { offset, limit } = parseInput(pageSchema, paging ?? {});
  const where = { kind: kind ?? undefined, criticality: criticality ?? undefined };
  return pageOf({ offset, limit }, [
    services.prisma.ownedAsset.findMany({
      ...query,
      where,
      orderBy: [{ name: 'asc' }, { id: 'asc' }],
      skip: offset,
      take: limit,
    }),
    services.prisma.ownedAsset.count({ where }),
  ]);
}

export async function createOwnedAsset(services: Services, principal: Principal, input: unknown, query: AssetQuery = {}) {
  const data = parseInput(createAssetSchema, input);
  return inTransaction(services, principal, async (uow) => {
    if (data.ownerId) await checkOwner(uow.tx, data.ownerId);
    const { id } = await uow.tx.ownedAsset.create({
      data: { ...data, platform: data.platform ?? null, ownerId: data.ownerId ?? null, description: data.description ?? null },
      select: { id: true },
    });
    await uow.audit({
      action: 'create_owned_asset',
      entityType: 'owned_asset',
      entityId: id,
      details: { name: data.name, kind: data.kind },
    });
    return uow.tx.ownedAsset.findUniqueOrThrow({ ...query, where: { id } });
  });
}

const queueFilterSchema = z.object({
  reason: z.enum(['validation_expired', 'validation_invalidated', 'infrastructure_change', 'coverage_stale']).nullish(),
  technique: z.string().trim().min(1).nullish(),
});

/** The revalidation queue, highest risk first (then the longest waiting). */
export async function listQueue(services: Services, filter: unknown, paging: unknown, query: EntryQuery = {}) {
  const { reason, technique } = parseInput(queueFilterSchema, filter ?? {});
  const { offset, limit } = parseInput(pageSchema, paging ?? {});
  const techniqueId = technique ? (await resolveTechnique(services.prisma, technique, 'technique')).id : undefined;
  const where = { reason: reason ?? undefined, techniqueId };
  return pageOf({ offset, limit }, [
    services.prisma.revalidationEntry.findMany({
      ...query,
      where,
      orderBy: [{ riskScore: 'desc' }, { since: 'asc' }, { id: 'asc' }],
      skip: offset,
      take: limit,
    }),
    services.prisma.revalidationEntry.count({ where }),
  ]);
}
