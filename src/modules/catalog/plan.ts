import { changedFields, emptyPlan, type KindPlan } from './diff.ts';
import type { RelationshipRecord, TacticRecord, TechniqueRecord } from './stix.ts';

export const TECHNIQUE_FIELDS = [
  'ttpId',
  'name',
  'description',
  'tactic',
  'tactics',
  'platforms',
  'isSubtechnique',
  'parentTtpId',
  'attackVersion',
  'attackModified',
  'revoked',
  'revokedByTtpId',
  'deprecated',
  'url',
  'stixId',
] as const satisfies readonly (keyof TechniqueRecord)[];

export type StoredTechnique = Omit<Pick<TechniqueRecord, (typeof TECHNIQUE_FIELDS)[number]>, 'stixId'> & {
  id: string;
  isCustom: boolean;
  stixId: string | null;
};

export interface TechniquePlan extends KindPlan<TechniqueRecord & { id: string }> {
  /** ttp ids the source has but a custom technique holds: skipped. */
  conflicts: string[];
  revokedIds: string[];
  deprecatedIds: string[];
  /** STIX id → technique id for every ATT&CK technique stored after the sync. */
  idByStixId: Map<string, string>;
}

/**
 * Techniques are matched by STIX id. A catalog row that has no STIX id yet (loaded before ids were kept)
 * and is not custom is adopted by ttp id. A ttp id held by a custom technique, or by another ATT&CK object,
 * is a conflict: the incoming object is skipped and custom techniques are never touched.
 */
export function planTechniques(
  incoming: readonly TechniqueRecord[],
  stored: readonly StoredTechnique[],
  newId: () => string,
): TechniquePlan {
  const byStixId = new Map(stored.filter((row) => row.stixId && !row.isCustom).map((row) => [row.stixId!, row]));
  const byTtpId = new Map(stored.map((row) => [row.ttpId, row]));
  const plan: TechniquePlan = { ...emptyPlan(), conflicts: [], revokedIds: [], deprecatedIds: [], idByStixId: new Map() };
  const claimed = new Map<string, string>(); // ttp id → STIX id of the incoming object that takes it
  for (const record of incoming) {
    if (plan.idByStixId.has(record.stixId)) continue;
    let row = byStixId.get(record.stixId);
    const holder = byTtpId.get(record.ttpId);
    if (!row && holder && !holder.isCustom && !holder.stixId) row = holder;
    const takenInStore = holder && holder !== row;
    const takenInSource = claimed.has(record.ttpId);
    if (takenInStore || takenInSource) {
      plan.conflicts.push(record.ttpId);
      continue;
    }
    claimed.set(record.ttpId, record.stixId);
    const id = row?.id ?? newId();
    plan.idByStixId.set(record.stixId, id);
    if (!row) {
      plan.inserts.push({ ...record, id });
      continue;
    }
    if (!changedFields(row, record, TECHNIQUE_FIELDS).length) {
      plan.unchanged += 1;
      continue;
    }
    plan.updates.push({ ...record, id });
    if (record.revoked && !row.revoked) plan.revokedIds.push(record.ttpId);
    if (record.deprecated && !row.deprecated) plan.deprecatedIds.push(record.ttpId);
  }
  for (const row of stored) if (row.stixId && !row.isCustom && !plan.idByStixId.has(row.stixId)) plan.idByStixId.set(row.stixId, row.id);
  return plan;
}

/** Tactics are matched by STIX id, then (for rows stored without one) by external id or short name. */
export function planTactics(
  incoming: readonly TacticRecord[],
  stored: readonly (Omit<TacticRecord, 'stixId'> & { id: string; stixId: string | null })[],
  newId: () => string,
): KindPlan<TacticRecord & { id: string }> {
  const fields = ['stixId', 'externalId', 'shortName', 'name', 'description', 'matrixOrder'] as const;
  const plan = emptyPlan<TacticRecord & { id: string }>();
  const used = new Set<string>();
  for (const record of incoming) {
    const row =
      stored.find((candidate) => candidate.stixId === record.stixId) ??
      stored.find(
        (candidate) => !candidate.stixId && (candidate.externalId === record.externalId || candidate.shortName === record.shortName),
      );
    if (row && used.has(row.id)) continue;
    if (row) used.add(row.id);
    if (!row) plan.inserts.push({ ...record, id: newId() });
    else if (changedFields(row, record, fields).length) plan.updates.push({ ...record, id: row.id });
    else plan.unchanged += 1;
  }
  return plan;
}

/** A stored link (relationship) between two catalog items. */
export interface StoredLink {
  stixId: string;
  sourceId: string;
  targetId: string;
  description: string;
}

export interface LinkPlan extends KindPlan<StoredLink> {
  /** STIX ids of stored links to delete (gone from the source, revoked, or an end no longer stored). */
  removals: string[];
}

/**
 * Relationships are kept when they are active and both ends are stored; `sourceIds`/`targetIds` map STIX ids
 * of the ends to stored ids. With `uniquePairs`, one link per (source, target) is kept. A link whose ends
 * changed is rewritten in place; stored links the source no longer has are removed.
 */
export function planLinks(
  incoming: readonly RelationshipRecord[],
  stored: readonly StoredLink[],
  sourceIds: ReadonlyMap<string, string>,
  targetIds: ReadonlyMap<string, string>,
  uniquePairs: boolean,
): LinkPlan {
  const byStixId = new Map(stored.map((link) => [link.stixId, link]));
  const plan: LinkPlan = { ...emptyPlan(), removals: [] };
  const wanted = new Set<string>();
  const pairs = new Set<string>();
  for (const relationship of incoming) {
    const sourceId = sourceIds.get(relationship.sourceRef);
    const targetId = targetIds.get(relationship.targetRef);
    if (!sourceId || !targetId || wanted.has(relationship.stixId)) continue;
    const pair = `${sourceId}:${targetId}`;
    if (uniquePairs && pairs.has(pair)) continue;
    pairs.add(pair);
    wanted.add(relationship.stixId);
    const link = { stixId: relationship.stixId, sourceId, targetId, description: relationship.description };
    const row = byStixId.get(link.stixId);
    if (!row) plan.inserts.push(link);
    else if (changedFields(row, link, ['sourceId', 'targetId', 'description']).length) plan.updates.push(link);
    else plan.unchanged += 1;
  }
  for (const link of stored) if (link.stixId.startsWith('relationship--') && !wanted.has(link.stixId)) plan.removals.push(link.stixId);
  return plan;
}
