import { z } from 'zod';
import type { Principal } from '../../auth/access.ts';
import type { Db, Prisma } from '../../db/client.ts';
import { inTransaction } from '../../db/unit-of-work.ts';
import { ConflictError, NotFoundError, ValidationError } from '../../errors.ts';
import { DetectionAssetKind, DetectionAssetStatus } from '../../generated/prisma/enums.ts';
import type { Services } from '../../services.ts';
import { parseInput, trimmed, uuid } from '../../validation.ts';
import { resolveTechnique } from '../techniques/reference.ts';
import { pageSchema, platform } from './inputs.ts';
import { pageOf } from '../../db/page-totals.ts';

type AssetQuery = { select?: Prisma.DetectionAssetSelect };

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
  const where = {
    status: status ?? undefined,
    kind: kind ?? undefined,
    platform: onPlatform ?? undefined,
    ...(techniqueId ? { techniques: { some: { techniqueId } } } : {}),
  };
  return pageOf({ offset, limit }, [
    services.prisma.detectionAsset.findMany({ ...query, where, orderBy: [{ name: 'asc' }, { id: 'asc' }], skip: offset, take: limit }),
    services.prisma.detectionAsset.count({ where }),
  ]);
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
