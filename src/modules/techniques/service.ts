import { containsText, equalsText } from '../../db/search.ts';
import { CATALOG_SHAPE } from '../catalog/catalog-shape.ts';
import { z } from 'zod';
import type { Db, Prisma } from '../../db/client.ts';
import { inTransaction, type Actor } from '../../db/unit-of-work.ts';
import { ConflictError, NotFoundError } from '../../errors.ts';
import { CoverageStatus } from '../../generated/prisma/enums.ts';
import type { Services } from '../../services.ts';
import { parseInput, trimmed } from '../../validation.ts';

type Query = { select?: Prisma.TechniqueSelect; include?: Prisma.TechniqueInclude };

const TTP_ID = /^[A-Za-z][A-Za-z0-9-]{0,30}(\.[A-Za-z0-9]{1,10})?$/;
const ttpId = z.string().trim().regex(TTP_ID, 'must look like T1234, T1234.001 or a custom id such as CUSTOM-1');
const platforms = z
  .array(trimmed(64))
  .max(50)
  .transform((list) => [...new Set(list)]);

const createSchema = z.object({
  ttpId,
  name: trimmed(300),
  description: z.string().max(20_000).default(''),
  tactic: trimmed(100).nullish(),
  platforms: platforms.default([]),
});

const updateSchema = z
  .object({
    name: trimmed(300),
    description: z.string().max(20_000),
    tactic: trimmed(100).nullable(),
    platforms,
    statusGlobal: z.enum(CoverageStatus),
    reviewRequired: z.boolean(),
  })
  .partial();

export interface TechniqueFilter {
  tactic?: string | null;
  status?: CoverageStatus | null;
  coverageStatus?: CoverageStatus | null;
  reviewRequired?: boolean | null;
  platform?: string | null;
  search?: string | null;
  /** Revoked and deprecated ATT&CK techniques are hidden unless this is true. */
  includeDeprecated?: boolean | null;
}

/** ATT&CK-style short name of a tactic name that is not in the catalog: "Defense Evasion" → defense-evasion. */
const slug = (text: string) => text.trim().toLowerCase().replace(/\s+/g, '-');

/** A tactic named by display name, short name or id (TA0005), case-insensitive; null when the catalog lacks it. */
export function findTactic(db: Db, text: string) {
  const equals = equalsText(text.trim());
  return db.tactic.findFirst({
    where: { OR: [{ name: equals }, { shortName: equals }, { externalId: equals }] },
    select: { shortName: true, name: true },
  });
}

/** The stored spellings of a platform (platforms are matched case-insensitively). */
async function platformSpellings(db: Db, platform: string): Promise<string[]> {
  const rows = await db.$queryRaw<{ platform: string }[]>`
    SELECT DISTINCT p AS platform FROM techniques, unnest(platforms) AS p WHERE lower(p) = lower(${platform.trim()})`;
  return rows.length ? rows.map((row) => row.platform) : [platform.trim()];
}

/** Most techniques one list returns: the catalog bound. */
export const TECHNIQUE_LIST_MAX = CATALOG_SHAPE.techniques;

/** The tests a technique read lists at once (Technique.tests); the REST single read asks for the maximum. */
export const TECHNIQUE_TEST_PAGE = { defaultLimit: 100, maxLimit: 1000 } as const;
/** The technique detail's knowledge lists (playbooks, lessons: fields the knowledge module adds to a technique). */
export const TECHNIQUE_KNOWLEDGE_PAGE = { defaultLimit: 50, maxLimit: 200 } as const;

export async function listTechniques(services: Services, filter: TechniqueFilter, query: Query = {}) {
  const db = services.prisma;
  const and: Prisma.TechniqueWhereInput[] = [];
  if (filter.tactic) {
    const tactic = await findTactic(db, filter.tactic);
    const names = [filter.tactic.trim(), ...(tactic ? [tactic.name] : [])];
    and.push({
      OR: [{ tactics: { has: tactic?.shortName ?? slug(filter.tactic) } }, ...names.map((name) => ({ tactic: equalsText(name) }))],
    });
  }
  const status = filter.status ?? filter.coverageStatus;
  if (status) and.push({ statusGlobal: status });
  if (filter.reviewRequired != null) and.push({ reviewRequired: filter.reviewRequired });
  if (filter.platform) and.push({ platforms: { hasSome: await platformSpellings(db, filter.platform) } });
  if (filter.search) {
    const contains = containsText(filter.search);
    and.push({ OR: [{ ttpId: contains }, { name: contains }, { description: contains }] });
  }
  if (!filter.includeDeprecated) and.push({ revoked: false, deprecated: false });
  return db.technique.findMany({ ...query, where: { AND: and }, orderBy: { ttpId: 'asc' }, take: TECHNIQUE_LIST_MAX });
}

/** `tactic` as given (the catalog's display name when it knows it) and `tactics` as short names. */
async function tacticFields(db: Db, tactic: string | null | undefined): Promise<{ tactic: string | null; tactics: string[] }> {
  if (!tactic) return { tactic: null, tactics: [] };
  const known = await findTactic(db, tactic);
  return known ? { tactic: known.name, tactics: [known.shortName] } : { tactic, tactics: [slug(tactic)] };
}

export async function getTechnique(services: Services, ttpId: string, query: Query = {}) {
  const technique = await services.prisma.technique.findUnique({ ...query, where: { ttpId } });
  if (!technique) throw new NotFoundError('Technique', ttpId);
  return technique;
}

/** Creates a custom technique (one that does not come from the ATT&CK catalog). */
export async function createTechnique(services: Services, actor: Actor, input: unknown, query: Query = {}) {
  const data = parseInput(createSchema, input);
  return inTransaction(services, actor, async (uow) => {
    if (await uow.tx.technique.findUnique({ where: { ttpId: data.ttpId }, select: { id: true } })) {
      throw new ConflictError(`Technique ${data.ttpId} already exists`);
    }
    const technique = await uow.tx.technique.create({
      ...query,
      data: { ...data, ...(await tacticFields(uow.tx, data.tactic)), isCustom: true },
    });
    await uow.audit({
      action: 'create_technique',
      entityType: 'technique',
      entityId: technique.id,
      details: { ttp_id: data.ttpId, name: data.name },
    });
    uow.emit('technique.changed', { techniqueId: technique.id, ttpId: data.ttpId, change: 'created' });
    return technique;
  });
}

export async function updateTechnique(services: Services, actor: Actor, ttpId: string, input: unknown, query: Query = {}) {
  const changes = parseInput(updateSchema, input);
  return inTransaction(services, actor, async (uow) => {
    const before = await uow.tx.technique.findUnique({ where: { ttpId } });
    if (!before) throw new NotFoundError('Technique', ttpId);
    // A custom technique's tactics follow its tactic; an ATT&CK technique's tactics are the catalog's.
    const tactics = before.isCustom && changes.tactic !== undefined ? await tacticFields(uow.tx, changes.tactic) : {};
    const technique = await uow.tx.technique.update({ ...query, where: { id: before.id }, data: { ...changes, ...tactics } });
    await uow.audit({ action: 'update_technique', entityType: 'technique', entityId: before.id, details: { ttp_id: ttpId, changes } });
    uow.emit('technique.changed', { techniqueId: before.id, ttpId, change: 'updated' });
    if (changes.statusGlobal && changes.statusGlobal !== before.statusGlobal) {
      uow.emit('coverage.changed', { techniqueIds: [before.id], reason: 'manual_status_change' });
    }
    return technique;
  });
}

/** Records a lead's review: clears (default) or raises the technique's review flag. */
export async function reviewTechnique(services: Services, actor: Actor, ttpId: string, reviewRequired: boolean, query: Query = {}) {
  return inTransaction(services, actor, async (uow) => {
    const before = await uow.tx.technique.findUnique({ where: { ttpId }, select: { id: true } });
    if (!before) throw new NotFoundError('Technique', ttpId);
    const technique = await uow.tx.technique.update({ ...query, where: { id: before.id }, data: { reviewRequired } });
    await uow.audit({
      action: 'review_technique',
      entityType: 'technique',
      entityId: before.id,
      details: { ttp_id: ttpId, review_required: reviewRequired },
    });
    uow.emit('technique.changed', { techniqueId: before.id, ttpId, change: 'reviewed' });
    return technique;
  });
}
