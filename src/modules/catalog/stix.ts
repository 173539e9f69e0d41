import { countryFromDescription } from './country.ts';

/** The subset of a STIX 2.1 object the catalog reads. */
interface StixObject {
  type: string;
  id: string;
  name?: string;
  description?: string;
  modified?: string;
  revoked?: boolean;
  x_mitre_deprecated?: boolean;
  x_mitre_version?: string;
  external_references?: { source_name?: string; external_id?: string; url?: string }[];
  [key: string]: unknown;
}

export interface TacticRecord {
  stixId: string;
  externalId: string;
  shortName: string;
  name: string;
  description: string;
  matrixOrder: number;
}

export interface TechniqueRecord {
  stixId: string;
  ttpId: string;
  name: string;
  description: string;
  tactic: string | null;
  tactics: string[];
  platforms: string[];
  isSubtechnique: boolean;
  parentTtpId: string | null;
  attackVersion: string | null;
  attackModified: Date | null;
  revoked: boolean;
  /** ttp id of the technique ATT&CK says replaced this one (`revoked-by`), for revoked techniques. */
  revokedByTtpId: string | null;
  deprecated: boolean;
  url: string | null;
}

export interface MitigationRecord {
  stixId: string;
  externalId: string | null;
  name: string;
  description: string;
  deprecated: boolean;
}

export interface ThreatActorRecord {
  stixId: string;
  externalId: string | null;
  name: string;
  aliases: string[];
  description: string;
  motivation: string | null;
  motivations: string[];
  country: string | null;
  revoked: boolean;
  deprecated: boolean;
  attackModified: Date | null;
}

export interface SoftwareRecord {
  stixId: string;
  externalId: string | null;
  kind: 'malware' | 'tool';
  name: string;
  aliases: string[];
  description: string;
  platforms: string[];
  revoked: boolean;
  deprecated: boolean;
  attackModified: Date | null;
}

/** A relationship from `sourceRef` to `targetRef` (STIX ids) with its description. */
export interface RelationshipRecord {
  stixId: string;
  sourceRef: string;
  targetRef: string;
  description: string;
}

export interface AttackCatalog {
  tactics: TacticRecord[];
  techniques: TechniqueRecord[];
  mitigations: MitigationRecord[];
  actors: ThreatActorRecord[];
  /** `malware` and `tool` objects with an ATT&CK id. */
  software: SoftwareRecord[];
  /** course-of-action → attack-pattern `mitigates`, active only. */
  mitigates: RelationshipRecord[];
  /** intrusion-set → attack-pattern `uses`, active only. */
  uses: RelationshipRecord[];
}

/** The file is not an ATT&CK bundle. Messages are our own words (they are recorded on the data source), never the parser's. */
export class InvalidBundleError extends Error {}

const ATTACK_SOURCE = 'mitre-attack';
const isActive = (object: StixObject) => !object.revoked && !object.x_mitre_deprecated;
const attackReference = (object: StixObject) => object.external_references?.find((reference) => reference.source_name === ATTACK_SOURCE);
const strings = (value: unknown): string[] =>
  Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : [];
const text = (value: unknown): string => (typeof value === 'string' ? value : '');
const date = (value: unknown): Date | null => {
  if (typeof value !== 'string') return null;
  const parsed = new Date(value);
  return Number.isNaN(parsed.getTime()) ? null : parsed;
};

/** The STIX objects of a bundle; anything that is not a bundle of objects is refused. */
export function bundleObjects(json: string): StixObject[] {
  let bundle: unknown;
  try {
    bundle = JSON.parse(json);
  } catch (error) {
    // JSON.parse quotes the text around the fault, which may be a secret file's first bytes.
    throw new InvalidBundleError('not a STIX bundle (not JSON)', { cause: error });
  }
  const objects = (bundle as { type?: unknown; objects?: unknown } | null)?.objects;
  if ((bundle as { type?: unknown } | null)?.type !== 'bundle' || !Array.isArray(objects)) {
    throw new InvalidBundleError('not a STIX bundle (type "bundle" with an objects array)');
  }
  return objects.filter((object): object is StixObject => typeof object?.type === 'string' && typeof object?.id === 'string');
}

function tacticsOf(objects: StixObject[]): TacticRecord[] {
  const order = new Map<string, number>();
  const matrix =
    objects.find((object) => object.type === 'x-mitre-matrix' && isActive(object)) ??
    objects.find((object) => object.type === 'x-mitre-matrix');
  for (const [index, ref] of strings(matrix?.tactic_refs).entries()) order.set(ref, index + 1);
  const tactics: TacticRecord[] = [];
  for (const object of objects) {
    const externalId = attackReference(object)?.external_id;
    const shortName = text(object.x_mitre_shortname);
    if (object.type !== 'x-mitre-tactic' || !externalId || !shortName) continue;
    tactics.push({
      stixId: object.id,
      externalId,
      shortName,
      name: text(object.name),
      description: text(object.description),
      matrixOrder: order.get(object.id) ?? 0,
    });
  }
  // Tactics the matrix does not list go after the others, in id order.
  const last = order.size;
  tactics.sort((a, b) => (a.matrixOrder || last + 1) - (b.matrixOrder || last + 1) || a.externalId.localeCompare(b.externalId));
  for (const [index, tactic] of tactics.entries()) tactic.matrixOrder = index + 1;
  return tactics;
}

function techniqueOf(object: StixObject, tactics: Map<string, TacticRecord>): TechniqueRecord | null {
  const reference = attackReference(object);
  if (!reference?.external_id) return null;
  const ttpId = reference.external_id;
  const phases = Array.isArray(object.kill_chain_phases)
    ? (object.kill_chain_phases as { kill_chain_name?: string; phase_name?: string }[])
    : [];
  const shortNames = [
    ...new Set(phases.filter((phase) => phase.kill_chain_name === ATTACK_SOURCE && phase.phase_name).map((phase) => phase.phase_name!)),
  ];
  const rank = (shortName: string) => tactics.get(shortName)?.matrixOrder ?? Number.MAX_SAFE_INTEGER;
  shortNames.sort((a, b) => rank(a) - rank(b));
  const isSubtechnique = object.x_mitre_is_subtechnique === true || ttpId.includes('.');
  return {
    stixId: object.id,
    ttpId,
    name: text(object.name),
    description: text(object.description),
    tactic: shortNames.length ? (tactics.get(shortNames[0])?.name ?? shortNames[0]) : null,
    tactics: shortNames,
    platforms: strings(object.x_mitre_platforms),
    isSubtechnique,
    parentTtpId: isSubtechnique ? ttpId.split('.')[0] : null,
    attackVersion: typeof object.x_mitre_version === 'string' ? object.x_mitre_version : null,
    attackModified: date(object.modified),
    revoked: object.revoked === true,
    revokedByTtpId: null,
    deprecated: object.x_mitre_deprecated === true,
    url: reference.url ?? null,
  };
}

function actorOf(object: StixObject): ThreatActorRecord {
  const secondary = strings(object.secondary_motivations);
  const primary = typeof object.primary_motivation === 'string' ? object.primary_motivation : null;
  const description = text(object.description);
  return {
    stixId: object.id,
    externalId: attackReference(object)?.external_id ?? null,
    name: text(object.name),
    aliases: strings(object.aliases),
    description,
    motivation: primary ?? secondary[0] ?? null,
    motivations: [...new Set([...(primary ? [primary] : []), ...secondary])],
    country: countryFromDescription(description),
    revoked: object.revoked === true,
    deprecated: object.x_mitre_deprecated === true,
    attackModified: date(object.modified),
  };
}

function softwareOf(object: StixObject & { type: 'malware' | 'tool' }): SoftwareRecord | null {
  const externalId = attackReference(object)?.external_id;
  if (!externalId) return null;
  return {
    stixId: object.id,
    externalId,
    kind: object.type,
    name: text(object.name),
    aliases: strings(object.x_mitre_aliases),
    description: text(object.description),
    platforms: strings(object.x_mitre_platforms),
    revoked: object.revoked === true,
    deprecated: object.x_mitre_deprecated === true,
    attackModified: date(object.modified),
  };
}

const isSoftware = (object: StixObject): object is StixObject & { type: 'malware' | 'tool' } =>
  object.type === 'malware' || object.type === 'tool';

function relationships(objects: StixObject[], type: string, sourceType: string): RelationshipRecord[] {
  return objects
    .filter(
      (object) =>
        object.type === 'relationship' &&
        object.relationship_type === type &&
        isActive(object) &&
        text(object.source_ref).startsWith(`${sourceType}--`) &&
        text(object.target_ref).startsWith('attack-pattern--'),
    )
    .map((object) => ({
      stixId: object.id,
      sourceRef: text(object.source_ref),
      targetRef: text(object.target_ref),
      description: text(object.description),
    }));
}

/**
 * Gives each revoked technique the ttp id of its successor from the attack-pattern → attack-pattern `revoked-by`
 * relationships. A successor that is itself revoked is followed to the end of the chain (a loop gives none).
 */
function linkSuccessors(objects: StixObject[], techniques: TechniqueRecord[]): void {
  const byStixId = new Map(techniques.map((technique) => [technique.stixId, technique]));
  const revokedBy = new Map<string, string>();
  for (const object of objects) {
    if (object.type !== 'relationship' || object.relationship_type !== 'revoked-by' || object.revoked) continue;
    const source = byStixId.get(text(object.source_ref));
    const target = byStixId.get(text(object.target_ref));
    if (source && target && source !== target) revokedBy.set(source.stixId, target.stixId);
  }
  for (const technique of techniques) {
    if (!technique.revoked) continue;
    const seen = new Set([technique.stixId]);
    let successor = revokedBy.get(technique.stixId);
    while (successor && byStixId.get(successor)?.revoked && revokedBy.has(successor) && !seen.has(successor)) {
      seen.add(successor);
      successor = revokedBy.get(successor);
    }
    technique.revokedByTtpId = successor && !seen.has(successor) ? (byStixId.get(successor)?.ttpId ?? null) : null;
  }
}

/** Reads the ATT&CK Enterprise catalog out of a STIX 2.1 bundle. */
export function parseAttackBundle(json: string): AttackCatalog {
  const objects = bundleObjects(json);
  const tactics = tacticsOf(objects);
  const tacticByShortName = new Map(tactics.map((tactic) => [tactic.shortName, tactic]));
  const techniques: TechniqueRecord[] = [];
  const mitigations: MitigationRecord[] = [];
  const actors: ThreatActorRecord[] = [];
  const software: SoftwareRecord[] = [];
  for (const object of objects) {
    if (object.type === 'attack-pattern') {
      const technique = techniqueOf(object, tacticByShortName);
      if (technique) techniques.push(technique);
    } else if (object.type === 'course-of-action') {
      mitigations.push({
        stixId: object.id,
        externalId: attackReference(object)?.external_id ?? null,
        name: text(object.name),
        description: text(object.description),
        deprecated: !isActive(object),
      });
    } else if (object.type === 'intrusion-set') {
      actors.push(actorOf(object));
    } else if (isSoftware(object)) {
      const record = softwareOf(object);
      if (record) software.push(record);
    }
  }
  if (!tactics.length && !techniques.length) throw new InvalidBundleError('the bundle holds no ATT&CK tactics or techniques');
  linkSuccessors(objects, techniques);
  return {
    tactics,
    techniques,
    mitigations,
    actors,
    software,
    mitigates: relationships(objects, 'mitigates', 'course-of-action'),
    uses: relationships(objects, 'uses', 'intrusion-set'),
  };
}
