import { createContextCache } from '@pothos/core';
import DataLoader from 'dataloader';
import type { Technique } from '../../generated/prisma/client.ts';
import type { Context } from '../../graphql/context.ts';

/** Techniques by ttp id (a sub-technique's parent). */
export const techniqueByTtpId = createContextCache(
  (context: Context) =>
    new DataLoader<string, Technique | null>(async (ttpIds) => {
      const rows = await context.services.prisma.technique.findMany({ where: { ttpId: { in: [...ttpIds] } } });
      const byTtpId = new Map(rows.map((row) => [row.ttpId, row]));
      return ttpIds.map((ttpId) => byTtpId.get(ttpId) ?? null);
    }),
);

/** Most sub-techniques one technique lists (ATT&CK has at most about twenty per technique). */
export const SUB_TECHNIQUE_MAX = 100;

/** The active (not revoked, not deprecated) sub-techniques of each parent ttp id, in ttp id order, at most SUB_TECHNIQUE_MAX each. */
export const subTechniquesOf = createContextCache(
  (context: Context) =>
    new DataLoader<string, Technique[]>(async (parentTtpIds) => {
      const rows = await context.services.prisma.technique.findMany({
        where: { parentTtpId: { in: [...parentTtpIds] }, revoked: false, deprecated: false },
        orderBy: { ttpId: 'asc' },
      });
      return parentTtpIds.map((parent) => rows.filter((row) => row.parentTtpId === parent).slice(0, SUB_TECHNIQUE_MAX));
    }),
);
