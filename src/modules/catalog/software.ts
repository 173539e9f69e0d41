import { z } from 'zod';
import type { Prisma } from '../../db/client.ts';
import { likePattern } from '../../db/search.ts';
import type { Services } from '../../services.ts';
import { page, parseInput } from '../../validation.ts';
import { pageOf } from '../../db/page-totals.ts';

type Query = { select?: Prisma.SoftwareSelect };

export const SOFTWARE_PAGE = { defaultLimit: 50, maxLimit: 200 } as const;
const pageSchema = page(SOFTWARE_PAGE.defaultLimit, SOFTWARE_PAGE.maxLimit);

const filterSchema = z.object({
  kind: z.enum(['malware', 'tool']).nullish(),
  search: z.string().trim().max(200, 'must be at most 200 characters').nullish(),
  includeDeprecated: z.boolean().nullish(),
});

/**
 * Ids of software whose name or an alias contains `search`, or whose ATT&CK id is `search`, in any case. In SQL
 * because Prisma matches neither inside text arrays nor with `%` and `_` taken literally.
 */
async function softwareIdsMatching(services: Services, search: string): Promise<string[]> {
  const pattern = likePattern(search);
  const rows = await services.prisma.$queryRaw<{ id: string }[]>`
    SELECT id FROM software
    WHERE name ILIKE ${pattern} OR upper(external_id) = upper(${search})
       OR EXISTS (SELECT 1 FROM unnest(aliases) AS alias WHERE alias ILIKE ${pattern})`;
  return rows.map((row) => row.id);
}

/** Active ATT&CK software (all with includeDeprecated) matching the filter, by name, one page at a time. */
export async function listSoftware(services: Services, filter: unknown, paging: unknown, query: Query = {}) {
  const { offset, limit } = parseInput(pageSchema, paging);
  const { kind, search, includeDeprecated } = parseInput(filterSchema, filter ?? {});
  const conditions: Prisma.SoftwareWhereInput[] = [];
  if (!includeDeprecated) conditions.push({ revoked: false, deprecated: false });
  if (kind) conditions.push({ kind });
  if (search) conditions.push({ id: { in: await softwareIdsMatching(services, search) } });
  const where = { AND: conditions };
  return pageOf({ offset, limit }, [
    services.prisma.software.findMany({ ...query, where, orderBy: [{ name: 'asc' }, { id: 'asc' }], skip: offset, take: limit }),
    services.prisma.software.count({ where }),
  ]);
}
