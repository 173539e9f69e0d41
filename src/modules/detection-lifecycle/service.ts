import { z } from 'zod';
import type { Principal } from '../../auth/access.ts';
import type { Db, Prisma } from '../../db/client.ts';
import { inTransaction, type UnitOfWork } from '../../db/unit-of-work.ts';
import { ConflictError, NotFoundError, ValidationError } from '../../errors.ts';
import { DetectionAssetKind, DetectionAssetStatus } from '../../generated/prisma/enums.ts';
import type { Services } from '../../services.ts';
import { page, parseInput, trimmed, uuid } from '../../validation.ts';
import { resolveTechnique } from '../techniques/reference.ts';
import { regenerateQueue } from '../ownership/revalidation.ts';
import { confidenceRows, type ConfidenceRow } from './confidence.ts';

export const LIFECYCLE_PAGE = { defaultLimit: 50, maxLimit: 200 } as const;
const pageSchema = page(LIFECYCLE_PAGE.defaultLimit, LIFECYCLE_PAGE.maxLimit);

type AssetQuery = { select?: Prisma.DetectionAssetSelect };
type ValidationQuery = { select?: Prisma.DetectionValidationSelect };
type ChangeQuery = { select?: Prisma.InfrastructureChangeSelect };

const platform = z
  .string()
  .trim()
  .min(1)
  .max(64)
  .transform((value) => value.toLowerCase());

const assetFields = {
  name: trimmed(200),
  kind: z.enum(DetectionAssetKind),
  platform: platform.nullable(),
  description: z.string().trim().max(5000).nullable(),
  status: z.enum(DetectionAssetStatus),
  ownerId: uuid.nullable(),
  detectionRuleId: uuid.nullable(),
};
const createAssetSchema = z
  .object({ name: assetFields.name, kind: assetFields.kind })
  .extend(z.object(assetFields).omit({ name: true, kind: true }).partial().shape);
const updateAssetSchema = z.object(assetFields).partial();

const assetFilterSchema = z.object({
  status: z.enum(DetectionAssetStatus).nullish(),
  kind: z.enum(DetectionAssetKind).nullish(),
  platform: platform.nullish(),
  technique: z.string().trim().min(1).nullish(),
});

async function checkReferences(db: Db, input: { ownerId?: string | null; detectionRuleId?: string | null }) {
  if (input.ownerId && !(await db.user.findUnique({ where: { id: input.ownerId }, select: { id: true } }))) {
    throw new ValidationError('ownerId', 'no such user');
  }
  if (input.detectionRuleId && !(await db.detectionRule.findUnique({ where: { id: input.detectionRuleId }, select: { id: true } }))) {
    throw new ValidationError('detectionRuleId', 'no such detection rule');
  }
}

async function existingAsset(db: Db, id: string) {
  const asset = await db.detectionAsset.findUnique({ where: { id }, select: { id: true, name: true } });
  if (!asset) throw new NotFoundError('Detection asset', id);
  return asset;
}

export async function listAssets(services: Services, filter: unknown, paging: unknown, query: AssetQuery = {}) {
  const { status, kind, platform: onPlatform, technique } = parseInput(assetFilterSchema, filter ?? {});
  const { offset, limit } = parseInput(pageSchema, paging ?? {});
  const techniqueId = technique ? (await resolveTechnique(services.prisma, technique, 'technique')).id : null;
  return services.prisma.detectionAsset.findMany({
    ...query,
    where: {
      status: status ?? undefined,
      kind: kind ?? undefined,
      platform: onPlatform ?? undefined,
      ...(techniqueId ? { techniques: { some: { techniqueId } } } : {}),
    },
    orderBy: [{ name: 'asc' }, { id: 'asc' }],
    skip: offset,
    take: limit,
  });
}

export async function getAsset(services: Services, id: string, query: AssetQuery = {}) {
  const asset = await services.prisma.detectionAsset.findUnique({ ...query, where: { id } });
  if (!asset) throw new NotFoundError('Detection asset', id);
  return asset;
}

export async function createAsset(services: Services, principal: Principal, input: unknown, query: AssetQuery = {}) {
  const data = parseInput(createAssetSchema, input);
  return inTransaction(services, principal, async (uow) => {
    await checkReferences(uow.tx, data);
    const { id } = await uow.tx.detectionAsset.create({ data, select: { id: true } });
    await uow.audit({
      action: 'create_detection_asset',
      entityType: 'detection_asset',
      entityId: id,
      details: { name: data.name, kind: data.kind },
    });
    return uow.tx.detectionAsset.findUniqueOrThrow({ ...query, where: { id } });
  });
}

export async function updateAsset(services: Services, principal: Principal, id: string, input: unknown, query: AssetQuery = {}) {
  const data = parseInput(updateAssetSchema, input);
  return inTransaction(services, principal, async (uow) => {
    await existingAsset(uow.tx, id);
    await checkReferences(uow.tx, data);
    await uow.tx.detectionAsset.update({ where: { id }, data, select: { id: true } });
    await uow.audit({ action: 'update_detection_asset', entityType: 'detection_asset', entityId: id, details: data });
    if (data.status !== undefined)
      uow.emit('detection.changed', { techniqueIds: await linkedTechniques(uow.tx, id), reason: 'asset_status' });
    return uow.tx.detectionAsset.findUniqueOrThrow({ ...query, where: { id } });
  });
}

export async function deleteAsset(services: Services, principal: Principal, id: string): Promise<boolean> {
  return inTransaction(services, principal, async (uow) => {
    const asset = await existingAsset(uow.tx, id);
    const techniqueIds = await linkedTechniques(uow.tx, id);
    await uow.tx.detectionAsset.delete({ where: { id } });
    await uow.audit({ action: 'delete_detection_asset', entityType: 'detection_asset', entityId: id, details: { name: asset.name } });
    uow.emit('detection.changed', { techniqueIds, reason: 'asset_deleted' });
    return true;
  });
}

const linkedTechniques = async (db: Db, assetId: string) =>
  (await db.detectionAssetTechnique.findMany({ where: { assetId }, select: { techniqueId: true } })).map((link) => link.techniqueId);

/** Links (or unlinks) a technique; linking twice is a 409, unlinking what is not linked a 404. */
export async function linkTechnique(
  services: Services,
  principal: Principal,
  assetId: string,
  reference: string,
  linked: boolean,
  query: AssetQuery = {},
) {
  return inTransaction(services, principal, async (uow) => {
    await existingAsset(uow.tx, assetId);
    const technique = await resolveTechnique(uow.tx, reference, 'tid');
    const key = { assetId_techniqueId: { assetId, techniqueId: technique.id } };
    const existing = await uow.tx.detectionAssetTechnique.findUnique({ where: key, select: { assetId: true } });
    if (linked && existing) throw new ConflictError(`Technique ${technique.ttpId} is already linked to this asset`);
    if (!linked && !existing) throw new NotFoundError('Link to technique', technique.ttpId);
    if (linked) await uow.tx.detectionAssetTechnique.create({ data: { assetId, techniqueId: technique.id } });
    else await uow.tx.detectionAssetTechnique.delete({ where: key });
    await uow.audit({
      action: linked ? 'link_detection_asset_technique' : 'unlink_detection_asset_technique',
      entityType: 'detection_asset',
      entityId: assetId,
      details: { ttp_id: technique.ttpId },
    });
    uow.emit('detection.changed', { techniqueIds: [technique.id], reason: linked ? 'asset_linked' : 'asset_unlinked' });
    return uow.tx.detectionAsset.findUniqueOrThrow({ ...query, where: { id: assetId } });
  });
}

// Validations

const validationFilterSchema = z.object({
  technique: z.string().trim().min(1).nullish(),
  assetId: uuid.nullish(),
  status: z.enum(['fresh', 'expired', 'invalidated']).nullish(),
});

const createValidationSchema = z.object({
  techniqueId: z.string().trim().min(1, 'must name a technique'),
  assetId: uuid.nullish(),
  result: z.enum(['detected', 'partially_detected']).default('detected'),
  notes: z.string().trim().max(5000).nullish(),
  validatedAt: z.coerce.date().nullish(),
  validUntil: z.coerce.date().nullish(),
});

const invalidateSchema = z.object({ reason: trimmed(1000) });

const statusWhere = (status: 'fresh' | 'expired' | 'invalidated', now: Date): Prisma.DetectionValidationWhereInput =>
  status === 'invalidated'
    ? { invalidatedAt: { not: null } }
    : status === 'expired'
      ? { invalidatedAt: null, validUntil: { lte: now } }
      : { invalidatedAt: null, validUntil: { gt: now } };

export async function listValidations(services: Services, filter: unknown, paging: unknown, query: ValidationQuery = {}) {
  const { technique, assetId, status } = parseInput(validationFilterSchema, filter ?? {});
  const { offset, limit } = parseInput(pageSchema, paging ?? {});
  const techniqueId = technique ? (await resolveTechnique(services.prisma, technique, 'technique')).id : undefined;
  return services.prisma.detectionValidation.findMany({
    ...query,
    where: { techniqueId, assetId: assetId ?? undefined, ...(status ? statusWhere(status, new Date()) : {}) },
    orderBy: [{ validatedAt: 'desc' }, { id: 'desc' }],
    skip: offset,
    take: limit,
  });
}

/** The expiry of a validation made at `validatedAt`: DETECTION_VALIDATION_TTL later. */
export const defaultValidUntil = (services: Services, validatedAt: Date) =>
  new Date(validatedAt.getTime() + services.config.DETECTION_VALIDATION_TTL);

export async function createValidation(services: Services, principal: Principal, input: unknown, query: ValidationQuery = {}) {
  const data = parseInput(createValidationSchema, input);
  const validatedAt = data.validatedAt ?? new Date();
  if (validatedAt.getTime() > Date.now() + 60_000) throw new ValidationError('validatedAt', 'must not be in the future');
  const validUntil = data.validUntil ?? defaultValidUntil(services, validatedAt);
  if (validUntil <= validatedAt) throw new ValidationError('validUntil', 'must be after validated_at');
  return inTransaction(services, principal, async (uow) => {
    const technique = await resolveTechnique(uow.tx, data.techniqueId, 'techniqueId');
    if (data.assetId) {
      const link = await uow.tx.detectionAssetTechnique.findUnique({
        where: { assetId_techniqueId: { assetId: data.assetId, techniqueId: technique.id } },
        select: { assetId: true },
      });
      if (!link) throw new ValidationError('assetId', `the asset is not linked to ${technique.ttpId}`);
    }
    const { id } = await uow.tx.detectionValidation.create({
      data: {
        techniqueId: technique.id,
        assetId: data.assetId ?? null,
        source: 'manual',
        result: data.result,
        notes: data.notes ?? null,
        validatedAt,
        validUntil,
        createdById: principal.userId,
      },
      select: { id: true },
    });
    await uow.audit({
      action: 'create_detection_validation',
      entityType: 'detection_validation',
      entityId: id,
      details: { ttp_id: technique.ttpId },
    });
    uow.emit('detection.changed', { techniqueIds: [technique.id], reason: 'validated' });
    return uow.tx.detectionValidation.findUniqueOrThrow({ ...query, where: { id } });
  });
}

export async function invalidateValidation(
  services: Services,
  principal: Principal,
  id: string,
  input: unknown,
  query: ValidationQuery = {},
) {
  const { reason } = parseInput(invalidateSchema, input);
  return inTransaction(services, principal, async (uow) => {
    const validation = await uow.tx.detectionValidation.findUnique({ where: { id }, select: { techniqueId: true } });
    if (!validation) throw new NotFoundError('Detection validation', id);
    // Only while still valid: of two concurrent invalidations, the second finds nothing left to update.
    const { count } = await uow.tx.detectionValidation.updateMany({
      where: { id, invalidatedAt: null },
      data: { invalidatedAt: new Date(), invalidatedReason: reason },
    });
    if (!count) throw new ConflictError('The validation is already invalidated');
    await uow.audit({ action: 'invalidate_detection_validation', entityType: 'detection_validation', entityId: id, details: { reason } });
    uow.emit('detection.changed', { techniqueIds: [validation.techniqueId], reason: 'invalidated' });
    return uow.tx.detectionValidation.findUniqueOrThrow({ ...query, where: { id } });
  });
}

/**
 * Records validations for a test validated with `detected` or `partially_detected`: one per active asset linked to
 * its technique, valid for DETECTION_VALIDATION_TTL. Idempotent per test and asset.
 */
export async function recordTestValidations(uow: UnitOfWork, services: Services, testId: string): Promise<number> {
  const test = await uow.tx.test.findUnique({
    where: { id: testId },
    select: { techniqueId: true, detectionResult: true, state: true, decidedAt: true, blueValidatedById: true },
  });
  const detected = test?.detectionResult === 'detected' || test?.detectionResult === 'partially_detected';
  if (test?.state !== 'validated' || !detected) return 0;
  const assets = await uow.tx.detectionAssetTechnique.findMany({
    where: { techniqueId: test.techniqueId, asset: { status: 'active' } },
    select: { assetId: true },
  });
  if (!assets.length) return 0;
  const validatedAt = test.decidedAt ?? new Date();
  const created = await uow.tx.detectionValidation.createMany({
    data: assets.map(({ assetId }) => ({
      assetId,
      techniqueId: test.techniqueId,
      testId,
      source: 'test',
      result: test.detectionResult!,
      validatedAt,
      validUntil: defaultValidUntil(services, validatedAt),
      createdById: test.blueValidatedById,
    })),
    skipDuplicates: true,
  });
  if (created.count) {
    await uow.audit({ action: 'record_test_validations', entityType: 'test', entityId: testId, details: { validations: created.count } });
    uow.emit('detection.changed', { techniqueIds: [test.techniqueId], reason: 'validated' });
  }
  return created.count;
}

// Infrastructure changes

const changeSchema = z.object({
  title: trimmed(300),
  description: z.string().trim().max(10_000).nullish(),
  changedAt: z.coerce.date().nullish(),
  platforms: z.array(platform).max(50).default([]),
  assetIds: z.array(uuid).max(500).default([]),
  techniqueIds: z.array(z.string().trim().min(1)).max(500).default([]),
});

const changeFilterSchema = z.object({ since: z.coerce.date().nullish(), platform: platform.nullish() });

export async function listChanges(services: Services, filter: unknown, paging: unknown, query: ChangeQuery = {}) {
  const { since, platform: onPlatform } = parseInput(changeFilterSchema, filter ?? {});
  const { offset, limit } = parseInput(pageSchema, paging ?? {});
  return services.prisma.infrastructureChange.findMany({
    ...query,
    where: { changedAt: since ? { gte: since } : undefined, ...(onPlatform ? { platforms: { has: onPlatform } } : {}) },
    orderBy: [{ changedAt: 'desc' }, { id: 'desc' }],
    skip: offset,
    take: limit,
  });
}

/**
 * Records a change and invalidates every fresh validation it touches (made before the change, of a listed
 * technique, of a listed asset, or of an asset on a listed platform), then rebuilds the revalidation queue.
 */
export async function recordChange(services: Services, principal: Principal, input: unknown, query: ChangeQuery = {}) {
  const data = parseInput(changeSchema, input);
  const changedAt = data.changedAt ?? new Date();
  return inTransaction(services, principal, async (uow) => {
    const techniques = [];
    for (const [index, reference] of data.techniqueIds.entries())
      techniques.push(await resolveTechnique(uow.tx, reference, `techniqueIds.${index}`));
    const assets = await uow.tx.detectionAsset.findMany({ where: { id: { in: data.assetIds } }, select: { id: true } });
    const missing = data.assetIds.find((id) => !assets.some((asset) => asset.id === id));
    if (missing) throw new ValidationError('assetIds', `no detection asset ${missing}`);
    const techniqueIds = [...new Set(techniques.map((technique) => technique.id))];
    const change = await uow.tx.infrastructureChange.create({
      data: {
        title: data.title,
        description: data.description ?? null,
        changedAt,
        platforms: data.platforms,
        assetIds: data.assetIds,
        techniqueIds,
        createdById: principal.userId,
      },
      select: { id: true },
    });
    const touched = await uow.tx.detectionValidation.findMany({
      where: {
        invalidatedAt: null,
        validatedAt: { lte: changedAt },
        OR: [
          { techniqueId: { in: techniqueIds } },
          { assetId: { in: data.assetIds } },
          ...(data.platforms.length ? [{ asset: { platform: { in: data.platforms } } }] : []),
        ],
      },
      select: { id: true, techniqueId: true },
    });
    if (touched.length) {
      await uow.tx.detectionValidation.updateMany({
        where: { id: { in: touched.map((validation) => validation.id) } },
        data: { invalidatedAt: new Date(), invalidatedReason: `infrastructure change: ${data.title}`, invalidatedById: change.id },
      });
    }
    const affected = [...new Set([...techniqueIds, ...touched.map((validation) => validation.techniqueId)])];
    await uow.audit({
      action: 'record_infrastructure_change',
      entityType: 'infrastructure_change',
      entityId: change.id,
      details: { title: data.title, platforms: data.platforms, asset_ids: data.assetIds, invalidated: touched.length },
    });
    await regenerateQueue(uow);
    uow.emit('detection.changed', { techniqueIds: affected, reason: 'infrastructure_change' });
    return uow.tx.infrastructureChange.findUniqueOrThrow({ ...query, where: { id: change.id } });
  });
}

// Dashboard

export interface LifecycleDashboard {
  techniques: ConfidenceRow[];
  total: number;
  averageConfidence: number | null;
  withFreshValidation: number;
  withoutActiveAsset: number;
  computedAt: string;
}

const dashboardSchema = z.object({ technique: z.string().trim().min(1).nullish() });

/** Detection confidence per technique (lowest first), with its terms, and a summary. */
export async function dashboard(services: Services, filter: unknown, paging: unknown): Promise<LifecycleDashboard> {
  const { technique } = parseInput(dashboardSchema, filter ?? {});
  const { offset, limit } = parseInput(pageSchema, paging ?? {});
  const only = technique ? [(await resolveTechnique(services.prisma, technique, 'technique')).id] : undefined;
  const rows = await confidenceRows(services.prisma, only);
  const total = rows.length;
  return {
    techniques: rows.slice(offset, offset + limit),
    total,
    averageConfidence: total ? Math.round((rows.reduce((sum, row) => sum + row.confidence, 0) / total) * 10) / 10 : null,
    withFreshValidation: rows.filter((row) => row.freshValidations > 0).length,
    withoutActiveAsset: rows.filter((row) => row.activeAssets === 0).length,
    computedAt: new Date().toISOString(),
  };
}
