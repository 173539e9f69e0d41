import { createContextCache } from '@pothos/core';
import DataLoader from 'dataloader';
import type { Technique, TestTemplate } from '../../generated/prisma/client.ts';
import type { Context } from '../../graphql/context.ts';

export const techniqueLoader = createContextCache(
  (context: Context) =>
    new DataLoader<string, Technique | null>(async (ttpIds) => {
      const rows = await context.services.prisma.technique.findMany({ where: { ttpId: { in: [...ttpIds] } } });
      const byTtpId = new Map(rows.map((row) => [row.ttpId, row]));
      return ttpIds.map((ttpId) => byTtpId.get(ttpId) ?? null);
    }),
);

export const templatesByTtpIdLoader = createContextCache(
  (context: Context) =>
    new DataLoader<string, TestTemplate[]>(async (ttpIds) => {
      const rows = await context.services.prisma.testTemplate.findMany({
        where: { ttpTechniqueId: { in: [...ttpIds] } },
        orderBy: [{ name: 'asc' }, { id: 'asc' }],
      });
      const byTtpId = new Map<string, TestTemplate[]>();
      for (const row of rows) byTtpId.set(row.ttpTechniqueId!, [...(byTtpId.get(row.ttpTechniqueId!) ?? []), row]);
      return ttpIds.map((ttpId) => byTtpId.get(ttpId) ?? []);
    }),
);
