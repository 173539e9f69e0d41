import { z } from 'zod';
import type { Prisma } from '../../db/client.ts';
import { equalsText, likePattern } from '../../db/search.ts';
import { NotFoundError, ValidationError } from '../../errors.ts';
import type { Services } from '../../services.ts';
import { page, parseInput, trimmed, isUuid } from '../../validation.ts';
import { pageOf } from '../../db/page-totals.ts';

type Query = { include?: Prisma.ThreatActorInclude; select?: Prisma.ThreatActorSelect };

export const THREAT_ACTOR_PAGE = { defaultLimit: 50, maxLimit: 200 } as const;
const pageSchema = page(THREAT_ACTOR_PAGE.defaultLimit, THREAT_ACTOR_PAGE.maxLimit);

const filterSchema = z.object({
  country: z
    .string()
    .trim()
    .regex(/^[A-Za-z]{2}$/, 'must be an ISO 3166 alpha-2 country code such as RU')
    .transform((code) => code.toUpperCase())
    .nullish(),
  motivation: trimmed(100).nullish(),
  search: z.string().trim().max(200, 'must be at most 200 characters').nullish(),
  includeDeprecated: z.boolean().nullish(),
});

export type ThreatActorFilter = z.input<typeof filterSchema>;

// Postgres accepts any 8-4-4-4-12 hex uuid, so do we.
const GROUP_ID = /^G\d{4,}$/i;

/**
 * Ids of actors whose name, an alias or the description contains `search`, or whose group id is `search`, in
 * any case. In SQL because Prisma matches neither inside text arrays nor with `%` and `_` taken literally.
 */
async function actorIdsMatching(services: Services, search: string): Promise<string[]> {
  const pattern = likePattern(search);
  const rows = await services.prisma.$queryRaw<{ id: string }[]>`
    SELECT id FROM threat_actors
    WHERE name ILIKE ${pattern} OR description ILIKE ${pattern} OR upper(external_id) = upper(${search})
       OR EXISTS (SELECT 1 FROM unnest(aliases) AS alias WHERE alias ILIKE ${pattern})`;
  return rows.map((row) => row.id);
}

async function whereOf(services: Services, filter: unknown): Promise<Prisma.ThreatActorWhereInput> {
  const { country, motivation, search, includeDeprecated } = parseInput(filterSchema, filter ?? {});
  const conditions: Prisma.ThreatActorWhereInput[] = [];
  if (!includeDeprecated) conditions.push({ revoked: false, deprecated: false });
  if (country) conditions.push({ country: equalsText(country) });
  if (motivation) {
    conditions.push({ OR: [{ motivation: equalsText(motivation) }, { motivations: { has: motivation.toLowerCase() } }] });
  }
  if (search) conditions.push({ id: { in: await actorIdsMatching(services, search) } });
  return { AND: conditions };
}

/** Active threat actors (all with includeDeprecated) matching the filter, by name, one page at a time. */
export async function listThreatActors(services: Services, filter: unknown, paging: unknown, query: Query = {}) {
  const { offset, limit } = parseInput(pageSchema, paging);
  const where = await whereOf(services, filter);
  return pageOf({ offset, limit }, [
    services.prisma.threatActor.findMany({ ...query, where, orderBy: [{ name: 'asc' }, { id: 'asc' }], skip: offset, take: limit }),
    services.prisma.threatActor.count({ where }),
  ]);
}

function whereOfKey(key: string): Prisma.ThreatActorWhereInput {
  if (isUuid(key)) return { id: key };
  if (GROUP_ID.test(key)) return { externalId: key.toUpperCase() };
  throw new ValidationError('id', 'must be a UUID or an ATT&CK group id such as G0007');
}

/** One threat actor by its uuid or its ATT&CK group id (G0007), revoked and deprecated ones included. */
export async function getThreatActor(services: Services, id: string, query: Query = {}) {
  const key = id.trim();
  const actor = await services.prisma.threatActor.findFirst({
    ...query,
    where: whereOfKey(key),
    // A group id can survive on a revoked object next to its successor: the active one wins.
    orderBy: [{ revoked: 'asc' }, { deprecated: 'asc' }, { updatedAt: 'desc' }],
  });
  if (!actor) throw new NotFoundError('Threat actor', key);
  return actor;
}
