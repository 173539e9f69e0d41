import DataLoader from 'dataloader';
import type { Technique, TestTemplate } from '../../generated/prisma/client.ts';
import type { Context } from '../../graphql/context.ts';

/** One set of loaders per request, so relation fields of a page cost one query each, not one per row. */
function perRequest<K, V>(create: (context: Context) => DataLoader<K, V>) {
  const loaders = new WeakMap<Context, DataLoader<K, V>>();
  return (context: Context) => {
    let loader = loaders.get(context);
    if (!loader) loaders.set(context, (loader = create(context)));
    return loader;
  };
}

export const techniqueLoader = perRequest<string, Technique | null>(
  (context) =>
    new DataLoader(async (ttpIds) => {
      const rows = await context.services.prisma.technique.findMany({ where: { ttpId: { in: [...ttpIds] } } });
      const byTtpId = new Map(rows.map((row) => [row.ttpId, row]));
      return ttpIds.map((ttpId) => byTtpId.get(ttpId) ?? null);
    }),
);

export const templatesByTtpIdLoader = perRequest<string, TestTemplate[]>(
  (context) =>
    new DataLoader(async (ttpIds) => {
      const rows = await context.services.prisma.testTemplate.findMany({
        where: { ttpTechniqueId: { in: [...ttpIds] } },
        orderBy: [{ name: 'asc' }, { id: 'asc' }],
      });
      const byTtpId = new Map<string, TestTemplate[]>();
      for (const row of rows) byTtpId.set(row.ttpTechniqueId!, [...(byTtpId.get(row.ttpTechniqueId!) ?? []), row]);
      return ttpIds.map((ttpId) => byTtpId.get(ttpId) ?? []);
    }),
);

export const testCountLoader = perRequest<string, number>(
  (context) =>
    new DataLoader(async (templateIds) => {
      const rows = await context.services.prisma.test.groupBy({
        by: ['templateId'],
        where: { templateId: { in: [...templateIds] } },
        _count: { _all: true },
      });
      const counts = new Map(rows.map((row) => [row.templateId, row._count._all]));
      return templateIds.map((id) => counts.get(id) ?? 0);
    }),
);
