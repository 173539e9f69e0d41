import type { Db } from '../../db/client.ts';
import type { CoverageStatus } from '../../generated/prisma/enums.ts';
import { EDGE_AFTER, EDGE_BEFORE, nameIndex, namesIn, type NameIndex, type Named } from './names.ts';

/** A catalog technique as the matcher sees it. */
export interface CatalogTechnique {
  id: string;
  ttpId: string;
  statusGlobal: CoverageStatus;
  active: boolean;
}

/** What the matcher knows of the catalog, loaded once per sync. */
export interface Catalog {
  techniques: Map<string, CatalogTechnique>;
  /** Revoked technique id → the id that replaced it, where the catalog records one. */
  successors: Map<string, string>;
  actorsByGroupId: Map<string, Named>;
  actorNames: NameIndex;
  softwareNames: NameIndex;
}

/** What one item mentions. */
export interface Mentions {
  techniqueIds: string[];
  techniques: { technique: CatalogTechnique; mentioned: string }[];
  groupIds: string[];
  actors: { actorId: string; mentioned: string }[];
  softwareIds: string[];
  cveIds: string[];
}

/** T1059, T1059.001, and the ATT&CK site's path form T1059/001. */
const TECHNIQUE = new RegExp(`${EDGE_BEFORE}T(\\d{4})(?:[./](\\d{3}))?${EDGE_AFTER}(?!\\.\\d)`, 'gu');
const GROUP = new RegExp(`${EDGE_BEFORE}G\\d{4}${EDGE_AFTER}`, 'gu');
const SOFTWARE = new RegExp(`${EDGE_BEFORE}S\\d{4}${EDGE_AFTER}`, 'gu');
const CVE = new RegExp(`${EDGE_BEFORE}CVE-\\d{4}-\\d{4,7}${EDGE_AFTER}`, 'giu');

/**
 * The matcher's view of the catalog: every technique (a revoked or deprecated one is not linked unless its
 * successor is known), the active threat actors by group id, and the names and aliases of active actors and
 * software (see nameIndex).
 */
export async function loadCatalog(db: Db): Promise<Catalog> {
  const [techniques, actors, software] = await Promise.all([
    db.technique.findMany({ select: { id: true, ttpId: true, statusGlobal: true, revoked: true, deprecated: true, revokedByTtpId: true } }),
    db.threatActor.findMany({
      where: { revoked: false, deprecated: false },
      select: { id: true, externalId: true, name: true, aliases: true },
    }),
    db.software.findMany({
      where: { revoked: false, deprecated: false, externalId: { not: null } },
      select: { id: true, externalId: true, name: true, aliases: true },
    }),
  ]);
  const successors = new Map(
    techniques.flatMap((row) => (row.revoked && row.revokedByTtpId ? [[row.ttpId, row.revokedByTtpId] as const] : [])),
  );
  return catalogOf(techniques, actors, successors, software);
}

type TechniqueRow = { id: string; ttpId: string; statusGlobal: CoverageStatus; revoked: boolean; deprecated: boolean };
type NamedRow = { id: string; externalId: string | null; name: string; aliases: string[] };

const named = (rows: NamedRow[]) => rows.map((row) => ({ id: row.id, code: row.externalId, names: [row.name, ...row.aliases] }));

/**
 * The matcher's catalog from technique rows and (active) actor and software rows; `successors` maps revoked ids to
 * their replacements. Actor names with a digit match at any length (APT1); software names need MIN_NAME_LENGTH
 * characters whatever they hold, because short ones with digits are file extensions (PS1 in `run.ps1`).
 */
export function catalogOf(
  techniques: TechniqueRow[],
  actors: NamedRow[],
  successors = new Map<string, string>(),
  software: NamedRow[] = [],
): Catalog {
  return {
    techniques: new Map(
      techniques.map((row) => [
        row.ttpId,
        { id: row.id, ttpId: row.ttpId, statusGlobal: row.statusGlobal, active: !row.revoked && !row.deprecated },
      ]),
    ),
    successors,
    actorsByGroupId: new Map(
      actors.flatMap((actor) => (actor.externalId ? [[actor.externalId, { id: actor.id, code: actor.externalId }]] : [])),
    ),
    actorNames: nameIndex(named(actors), true),
    softwareNames: nameIndex(named(software), false),
  };
}

/** Revoked-by links followed at most; a longer chain (or a loop) links nothing. */
const MAX_SUCCESSION = 8;

/**
 * The technique an id stands for: itself if active, else its successor (followed down a chain of revocations);
 * a sub-technique the catalog lacks falls back to its parent.
 */
function resolveTechnique(catalog: Catalog, ttpId: string, hops = 0): CatalogTechnique | null {
  const own = catalog.techniques.get(ttpId);
  if (own?.active) return own;
  const successor = catalog.successors.get(ttpId);
  if (successor) return hops < MAX_SUCCESSION ? resolveTechnique(catalog, successor, hops + 1) : null;
  if (!own && ttpId.includes('.')) return resolveTechnique(catalog, ttpId.split('.')[0], hops);
  return null;
}

const sortedUnique = (values: Iterable<string>) => [...new Set(values)].sort();

/** What `text` (title and body) and the ids its source states outright mention, linked to the catalog. */
export function findMentions(catalog: Catalog, text: string, references: readonly string[] = []): Mentions {
  const haystack = `${text}\n${references.join(' ')}`;
  const techniqueIds = sortedUnique([...haystack.matchAll(TECHNIQUE)].map((match) => `T${match[1]}${match[2] ? `.${match[2]}` : ''}`));
  const techniques = new Map<string, { technique: CatalogTechnique; mentioned: string }>();
  for (const ttpId of techniqueIds) {
    const technique = resolveTechnique(catalog, ttpId);
    if (technique && !techniques.has(technique.id)) techniques.set(technique.id, { technique, mentioned: ttpId });
  }
  const groupIds = new Set([...haystack.matchAll(GROUP)].map((match) => match[0]));
  const actors = new Map<string, string>();
  for (const groupId of groupIds) {
    const actor = catalog.actorsByGroupId.get(groupId);
    if (actor && !actors.has(actor.id)) actors.set(actor.id, groupId);
  }
  for (const { entry, mentioned } of namesIn(catalog.actorNames, text)) {
    if (!actors.has(entry.id)) actors.set(entry.id, mentioned);
    if (entry.code) groupIds.add(entry.code);
  }
  const softwareIds = new Set([...haystack.matchAll(SOFTWARE)].map((match) => match[0]));
  for (const { entry } of namesIn(catalog.softwareNames, text)) if (entry.code) softwareIds.add(entry.code);
  return {
    techniqueIds,
    techniques: [...techniques.values()],
    groupIds: sortedUnique(groupIds),
    actors: [...actors].map(([actorId, mentioned]) => ({ actorId, mentioned })),
    softwareIds: sortedUnique(softwareIds),
    cveIds: sortedUnique([...haystack.matchAll(CVE)].map((match) => match[0].toUpperCase())),
  };
}
