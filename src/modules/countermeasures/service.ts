import { containsText, equalsText } from '../../db/search.ts';
import { createContextCache } from '@pothos/core';
import DataLoader from 'dataloader';
import { z } from 'zod';
import type { Prisma } from '../../db/client.ts';
import { NotFoundError } from '../../errors.ts';
import type { CoverageStatus } from '../../generated/prisma/enums.ts';
import type { Services } from '../../services.ts';
import { page, parseInput, isUuid } from '../../validation.ts';
import { pageOf } from '../../db/page-totals.ts';

type Query = { select?: Prisma.DefensiveTechniqueSelect; include?: Prisma.DefensiveTechniqueInclude };
type DefensiveTechniqueRow = Prisma.DefensiveTechniqueGetPayload<object>;

export const COUNTERMEASURE_PAGE = { defaultLimit: 50, maxLimit: 200 } as const;
const pageSchema = page(COUNTERMEASURE_PAGE.defaultLimit, COUNTERMEASURE_PAGE.maxLimit);

const ATTACK_TTP_ID = /^T\d{4}(\.\d{3})?$/i;
/** ATT&CK ids are stored upper-case; anything else (a custom technique id) as written. */
const normalizeTtpId = (id: string) => (ATTACK_TTP_ID.test(id) ? id.toUpperCase() : id);

const filterSchema = z.object({
  tactic: z.string().trim().min(1, 'must not be empty').max(50, 'must be at most 50 characters').nullish(),
  search: z.string().trim().max(200, 'must be at most 200 characters').nullish(),
  ttpId: z.string().trim().min(1, 'must not be empty').max(64, 'must be at most 64 characters').transform(normalizeTtpId).nullish(),
});

export type CountermeasureFilter = z.input<typeof filterSchema>;

/** A defensive technique seen from an ATT&CK technique: the countermeasure and the artifact paths linking the two. */
export interface TechniqueCountermeasure {
  defensiveTechnique: DefensiveTechniqueRow;
  attackId: string;
  details: Prisma.JsonValue;
}

/** An ATT&CK id seen from a defensive technique, with the catalog's technique when it has one. */
export interface CountermeasureTechnique {
  attackId: string;
  details: Prisma.JsonValue;
  technique: { id: string; ttpId: string; name: string; statusGlobal: CoverageStatus; revoked: boolean; deprecated: boolean } | null;
}

function whereOf(filter: unknown): Prisma.DefensiveTechniqueWhereInput {
  const { tactic, search, ttpId } = parseInput(filterSchema, filter ?? {});
  const conditions: Prisma.DefensiveTechniqueWhereInput[] = [];
  if (tactic) conditions.push({ tactic: equalsText(tactic) });
  if (search) {
    const contains = containsText(search);
    conditions.push({ OR: [{ d3fendId: contains }, { name: contains }, { definition: contains }] });
  }
  if (ttpId) conditions.push({ mappings: { some: { attackId: ttpId } } });
  return { AND: conditions };
}

/** Defensive techniques matching the filter, by D3FEND id, one page at a time. */
export async function listCountermeasures(services: Services, filter: unknown, paging: unknown, query: Query = {}) {
  const where = whereOf(filter);
  const { offset, limit } = parseInput(pageSchema, paging);
  return pageOf({ offset, limit }, [
    services.prisma.defensiveTechnique.findMany({ ...query, where, orderBy: { d3fendId: 'asc' }, skip: offset, take: limit }),
    services.prisma.defensiveTechnique.count({ where }),
  ]);
}

/** One defensive technique by its uuid or its D3FEND id (D3-AL, case-insensitive). */
export async function getCountermeasure(services: Services, id: string, query: Query = {}) {
  const key = id.trim();
  const technique = isUuid(key)
    ? await services.prisma.defensiveTechnique.findUnique({ ...query, where: { id: key } })
    : await services.prisma.defensiveTechnique.findUnique({ ...query, where: { d3fendId: key.toUpperCase() } });
  if (!technique) throw new NotFoundError('Countermeasure', key);
  return technique;
}

/** The countermeasures of a catalog technique; 404 when the catalog has no such technique. */
/** Most ATT&CK techniques one countermeasure lists, and most countermeasures one technique lists (both above D3FEND's largest). */
export const COUNTERMEASURE_MAPPING_MAX = 1000;

export async function countermeasuresOfTechnique(services: Services, ttpId: string): Promise<TechniqueCountermeasure[]> {
  const technique = await services.prisma.technique.findUnique({ where: { ttpId: ttpId.trim() }, select: { ttpId: true } });
  if (!technique) throw new NotFoundError('Technique', ttpId);
  const [countermeasures] = await loadCountermeasuresByTtpId(services, [technique.ttpId]);
  return countermeasures.slice(0, COUNTERMEASURE_MAPPING_MAX);
}

/** For each ttp id, its countermeasures ordered by D3FEND id: one query for the whole batch. */
export async function loadCountermeasuresByTtpId(services: Services, ttpIds: readonly string[]): Promise<TechniqueCountermeasure[][]> {
  const mappings = await services.prisma.countermeasureMapping.findMany({
    where: { attackId: { in: [...ttpIds] } },
    include: { defensiveTechnique: true },
    orderBy: [{ defensiveTechnique: { d3fendId: 'asc' } }],
  });
  const byTtpId = new Map<string, TechniqueCountermeasure[]>(ttpIds.map((ttpId) => [ttpId, []]));
  for (const { defensiveTechnique, attackId, details } of mappings) byTtpId.get(attackId)?.push({ defensiveTechnique, attackId, details });
  return ttpIds.map((ttpId) => byTtpId.get(ttpId)!);
}

/** For each defensive technique id, the ATT&CK ids it counters with the catalog technique of each: two queries per batch. */
export async function loadTechniquesByCountermeasure(services: Services, ids: readonly string[]): Promise<CountermeasureTechnique[][]> {
  const mappings = await services.prisma.countermeasureMapping.findMany({
    where: { defensiveTechniqueId: { in: [...ids] } },
    select: { defensiveTechniqueId: true, attackId: true, details: true },
    orderBy: { attackId: 'asc' },
  });
  const techniques = await services.prisma.technique.findMany({
    where: { ttpId: { in: [...new Set(mappings.map((mapping) => mapping.attackId))] } },
    select: { id: true, ttpId: true, name: true, statusGlobal: true, revoked: true, deprecated: true },
  });
  const byTtpId = new Map(techniques.map((technique) => [technique.ttpId, technique]));
  const byId = new Map<string, CountermeasureTechnique[]>(ids.map((id) => [id, []]));
  for (const mapping of mappings) {
    byId
      .get(mapping.defensiveTechniqueId)
      ?.push({ attackId: mapping.attackId, details: mapping.details, technique: byTtpId.get(mapping.attackId) ?? null });
  }
  return ids.map((id) => byId.get(id)!);
}

/** Per-request loaders (keyed by the request context), so lists resolve their nested mappings in one batch. */
export const countermeasureLoaders = createContextCache((context: { services: Services }) => ({
  byTtpId: new DataLoader<string, TechniqueCountermeasure[]>((ttpIds) => loadCountermeasuresByTtpId(context.services, ttpIds)),
  byCountermeasure: new DataLoader<string, CountermeasureTechnique[]>((ids) => loadTechniquesByCountermeasure(context.services, ids)),
}));
