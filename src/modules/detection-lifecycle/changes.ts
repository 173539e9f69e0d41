import { z } from 'zod';
import type { Principal } from '../../auth/access.ts';
import type { Prisma } from '../../db/client.ts';
import { inTransaction } from '../../db/unit-of-work.ts';
import { ValidationError } from '../../errors.ts';
import type { Services } from '../../services.ts';
import { parseInput, trimmed, uuid } from '../../validation.ts';
import { resolveTechnique } from '../techniques/reference.ts';
import { pageSchema, platform } from './inputs.ts';
import { pageOf } from '../../db/page-totals.ts';

type ChangeQuery = { select?: Prisma.InfrastructureChangeSelect };

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
  const where = { changedAt: since ? { gte: since } : undefined, ...(onPlatform ? { platforms: { has: onPlatform } } : {}) };
  return pageOf({ offset, limit }, [
    services.prisma.infrastructureChange.findMany({
      ...query,
      where,
      orderBy: [{ changedAt: 'desc' }, { id: 'desc' }],
      skip: offset,
      take: limit,
    }),
    services.prisma.infrastructureChange.count({ where }),
  ]);
}

/**
 * Records a change and invalidates every fresh validation it touches (made before the change, of a listed
 * technique, of a listed asset, or of an asset on a listed platform); its event has the revalidation queue rebuilt.
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
    uow.emit('detection.changed', { techniqueIds: affected, reason: 'infrastructure_change' });
    return uow.tx.infrastructureChange.findUniqueOrThrow({ ...query, where: { id: change.id } });
  });
}
