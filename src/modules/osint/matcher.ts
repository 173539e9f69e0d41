import type { Db } from '../../db/client.ts';
import type { CoverageStatus } from '../../generated/prisma/enums.ts';

/** A catalog technique as the matcher sees it. */
export interface CatalogTechnique {
  id: string;
  ttpId: string;
  statusGlobal: CoverageStatus;
  active: boolean;
}

interface CatalogActor {
  id: string;
  groupId: string | null;
}

/** What the matcher knows of the catalog, loaded once per sync. */
export interface Catalog {
  techniques: Map<string, CatalogTechnique>;
  /** Revoked technique id → the id that replaced it, where the catalog records one. */
  successors: Map<string, string>;
  actorsByGroupId: Map<string, CatalogActor>;
  /** Case-sensitive names and aliases, and (lower-cased) those matched in any case. */
  exactNames: Map<string, CatalogActor>;
  foldedNames: Map<string, CatalogActor>;
  namePattern: RegExp | null;
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

// An id is a whole word: not inside another word or number (`XT1059`, `T10590`, `T1059.0012`).
const EDGE_BEFORE = '(?<![\\p{L}\\p{N}_])';
const EDGE_AFTER = '(?![\\p{L}\\p{N}_])';
/** T1059, T1059.001, and the ATT&CK site's path form T1059/001. */
const TECHNIQUE = new RegExp(`${EDGE_BEFORE}T(\\d{4})(?:[./](\\d{3}))?${EDGE_AFTER}(?!\\.\\d)`, 'gu');
const GROUP = new RegExp(`${EDGE_BEFORE}G\\d{4}${EDGE_AFTER}`, 'gu');
const SOFTWARE = new RegExp(`${EDGE_BEFORE}S\\d{4}${EDGE_AFTER}`, 'gu');
const CVE = new RegExp(`${EDGE_BEFORE}CVE-\\d{4}-\\d{4,7}${EDGE_AFTER}`, 'giu');

/** Names shorter than this are not matched (too many accidental hits), unless they hold a digit (FIN7). */
export const MIN_NAME_LENGTH = 4;
const hasDigit = (name: string) => /\p{N}/u.test(name);
const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * The matcher's view of the catalog: every technique (a revoked or deprecated one is not linked unless its
 * successor is known), the active threat actors by group id, and their names and aliases. A name written with a
 * digit (APT28, FIN7) matches in any case; any other name only as the catalog writes it (`Turla`, not `turla`), so
 * ordinary words in lower case never match. A name two actors share is ambiguous and left out.
 */
export async function loadCatalog(db: Db): Promise<Catalog> {
  const [techniques, actors] = await Promise.all([
    db.technique.findMany({ select: { id: true, ttpId: true, statusGlobal: true, revoked: true, deprecated: true, revokedByTtpId: true } }),
    db.threatActor.findMany({
      where: { revoked: false, deprecated: false },
      select: { id: true, externalId: true, name: true, aliases: true },
    }),
  ]);
  const successors = new Map(
    techniques.flatMap((row) => (row.revoked && row.revokedByTtpId ? [[row.ttpId, row.revokedByTtpId] as const] : [])),
  );
  return catalogOf(techniques, actors, successors);
}

type TechniqueRow = { id: string; ttpId: string; statusGlobal: CoverageStatus; revoked: boolean; deprecated: boolean };
type ActorRow = { id: string; externalId: string | null; name: string; aliases: string[] };

/** The matcher's catalog from technique and (active) actor rows; `successors` maps revoked ids to their replacements. */
export function catalogOf(techniques: TechniqueRow[], actors: ActorRow[], successors = new Map<string, string>()): Catalog {
  const catalog: Catalog = {
    techniques: new Map(
      techniques.map((row) => [
        row.ttpId,
        { id: row.id, ttpId: row.ttpId, statusGlobal: row.statusGlobal, active: !row.revoked && !row.deprecated },
      ]),
    ),
    successors,
    actorsByGroupId: new Map(),
    exactNames: new Map(),
    foldedNames: new Map(),
    namePattern: null,
  };
  const owners = new Map<string, Set<string>>();
  const groupIdOf = new Map(actors.map((actor) => [actor.id, actor.externalId]));
  for (const actor of actors) {
    if (actor.externalId) catalog.actorsByGroupId.set(actor.externalId, { id: actor.id, groupId: actor.externalId });
    for (const name of new Set([actor.name, ...actor.aliases].map((value) => value.trim()))) {
      if (name.length < MIN_NAME_LENGTH && !hasDigit(name)) continue;
      const key = hasDigit(name) ? name.toLowerCase() : name;
      if (!owners.has(key)) owners.set(key, new Set());
      owners.get(key)!.add(actor.id);
    }
  }
  for (const [key, ids] of owners) {
    if (ids.size !== 1) continue;
    const [id] = ids;
    const actor = { id, groupId: groupIdOf.get(id) ?? null };
    if (hasDigit(key)) catalog.foldedNames.set(key, actor);
    else catalog.exactNames.set(key, actor);
  }
  const alternatives = [...catalog.exactNames.keys(), ...catalog.foldedNames.keys()].sort((a, b) => b.length - a.length).map(escapeRegExp);
  // One pattern for all names, longest first; case folding is decided per match (foldedNames are lower-cased).
  if (alternatives.length) catalog.namePattern = new RegExp(`${EDGE_BEFORE}(?:${alternatives.join('|')})${EDGE_AFTER}`, 'giu');
  return catalog;
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
  for (const match of catalog.namePattern ? text.matchAll(catalog.namePattern) : []) {
    const actor = catalog.exactNames.get(match[0]) ?? catalog.foldedNames.get(match[0].toLowerCase());
    if (!actor) continue;
    if (!actors.has(actor.id)) actors.set(actor.id, match[0]);
    if (actor.groupId) groupIds.add(actor.groupId);
  }
  return {
    techniqueIds,
    techniques: [...techniques.values()],
    groupIds: sortedUnique(groupIds),
    actors: [...actors].map(([actorId, mentioned]) => ({ actorId, mentioned })),
    softwareIds: sortedUnique([...haystack.matchAll(SOFTWARE)].map((match) => match[0])),
    cveIds: sortedUnique([...haystack.matchAll(CVE)].map((match) => match[0].toUpperCase())),
  };
}
