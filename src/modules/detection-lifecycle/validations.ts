import { z } from 'zod';
import type { Principal } from '../../auth/access.ts';
import type { Prisma } from '../../db/client.ts';
import { inTransaction, type UnitOfWork } from '../../db/unit-of-work.ts';
import { ConflictError, NotFoundError, ValidationError } from '../../errors.ts';
import type { Services } from '../../services.ts';
import { parseInput, trimmed, uuid } from '../../validation.ts';
import { resolveTechnique } from '../techniques/reference.ts';
import { pageSchema } from './inputs.ts';
import { VALIDATION_STATUSES, validationLifecycle, validationWhere } from './validation-states.ts';
import { pageOf } from '../../db/page-totals.ts';

type ValidationQuery = { select?: Prisma.DetectionValidationSelect };

const INVALIDATE = validationLifecycle.transition('invalidate');

const validationFilterSchema = z.object({
  technique: z.string().trim().min(1).nullish(),
  assetId: uuid.nullish(),
  status: z.enum(VALIDATION_STATUSES).nullish(),
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

export async function listValidations(services: Services, filter: unknown, paging: unknown, query: ValidationQuery = {}) {
  const { technique, assetId, status } = parseInput(validationFilterSchema, filter ?? {});
  const { offset, limit } = parseInput(pageSchema, paging ?? {});
  const techniqueId = technique ? (await resolveTechnique(services.prisma, technique, 'technique')).id : undefined;
  const where = { techniqueId, assetId: assetId ?? undefined, ...(status ? validationWhere(status, new Date()) : {}) };
  return pageOf({ offset, limit }, [
    services.prisma.detectionValidation.findMany({
      ...query,
      where,
      orderBy: [{ validatedAt: 'desc' }, { id: 'desc' }],
      skip: offset,
      take: limit,
    }),
    services.prisma.detectionValidation.count({ where }),
  ]);
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
    await uow.audit({ action: INVALIDATE.audit, entityType: 'detection_validation', entityId: id, details: { reason } });
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
