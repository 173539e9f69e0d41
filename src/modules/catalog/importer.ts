import { randomUUID } from 'node:crypto';
import type { Db } from '../../db/client.ts';
import { inTransaction, type UnitOfWork } from '../../db/unit-of-work.ts';
import type { Services } from '../../services.ts';
import { readSourceBytes, SourceUnavailableError } from '../../sources/location.ts';
import type { Importer, ImportContext, ImportReport } from '../../sources/importer.ts';
import { inBatches as writeInBatches } from '../../sources/batches.ts';
import { BATCH_ROWS, deleteRows, insertRows, TABLES, updateRows, type Row, type TableShape } from './bulk.ts';
import { planByStixId, summary, type KindPlan } from './diff.ts';
import { planLinks, planTactics, planTechniques, type LinkPlan, type StoredLink, type TechniquePlan } from './plan.ts';
import {
  InvalidBundleError,
  type AttackCatalog,
  type MitigationRecord,
  type SoftwareRecord,
  type TacticRecord,
  type TechniqueRecord,
  type ThreatActorRecord,
} from './stix.ts';

/** Bulk stages write thousands of rows; Prisma's 5 s default is for requests. */
const TRANSACTION = { timeout: 120_000, maxWait: 30_000, bulk: true } as const;

const MITIGATION_FIELDS = ['externalId', 'name', 'description', 'deprecated'] as const;
const ACTOR_FIELDS = [
  'externalId',
  'name',
  'aliases',
  'description',
  'motivation',
  'motivations',
  'country',
  'revoked',
  'deprecated',
  'attackModified',
] as const;

const SOFTWARE_FIELDS = [
  'externalId',
  'kind',
  'name',
  'aliases',
  'description',
  'platforms',
  'revoked',
  'deprecated',
  'attackModified',
] as const;

const tacticRow = (t: TacticRecord & { id: string }): Row => ({
  id: t.id,
  stix_id: t.stixId,
  external_id: t.externalId,
  short_name: t.shortName,
  name: t.name,
  description: t.description,
  matrix_order: t.matrixOrder,
});
const techniqueRow = (t: TechniqueRecord & { id: string }): Row => ({
  id: t.id,
  stix_id: t.stixId,
  ttp_id: t.ttpId,
  name: t.name,
  description: t.description,
  tactic: t.tactic,
  tactics: t.tactics,
  platforms: t.platforms,
  is_subtechnique: t.isSubtechnique,
  parent_ttp_id: t.parentTtpId,
  attack_version: t.attackVersion,
  attack_modified: t.attackModified,
  revoked: t.revoked,
  revoked_by_ttp_id: t.revokedByTtpId,
  deprecated: t.deprecated,
  url: t.url,
});
const mitigationRow = (m: MitigationRecord & { id: string }): Row => ({
  id: m.id,
  stix_id: m.stixId,
  external_id: m.externalId,
  name: m.name,
  description: m.description,
  deprecated: m.deprecated,
});
const actorRow = (a: ThreatActorRecord & { id: string }): Row => ({
  id: a.id,
  stix_id: a.stixId,
  external_id: a.externalId,
  name: a.name,
  aliases: a.aliases,
  description: a.description,
  motivation: a.motivation,
  motivations: a.motivations,
  country: a.country,
  revoked: a.revoked,
  deprecated: a.deprecated,
  attack_modified: a.attackModified,
});
const softwareRow = (s: SoftwareRecord & { id: string }): Row => ({
  id: s.id,
  stix_id: s.stixId,
  external_id: s.externalId,
  kind: s.kind,
  name: s.name,
  aliases: s.aliases,
  description: s.description,
  platforms: s.platforms,
  revoked: s.revoked,
  deprecated: s.deprecated,
  attack_modified: s.attackModified,
});
const techniqueMitigationRow = (l: StoredLink): Row => ({
  stix_id: l.stixId,
  mitigation_id: l.sourceId,
  technique_id: l.targetId,
  description: l.description,
});

async function loadCatalog(location: string, services: Services): Promise<AttackCatalog> {
  const bytes = await readSourceBytes(location, services.config);
  try {
    return await services.bundleParser.parse(bytes);
  } catch (error) {
    if (error instanceof InvalidBundleError) throw new SourceUnavailableError(location, error.message, { cause: error });
    throw error;
  }
}

/** How a batch changes its table, as its audit entry says it. */
type Change = 'created' | 'updated' | 'removed';

/**
 * Runs `write` on each batch of `rows`, every batch in its own transaction with an audit entry saying what it
 * wrote: an interrupted sync leaves an audited, counted part of its work (see data-sources/progress.ts).
 */
async function inBatches<T>(
  context: ImportContext,
  shape: TableShape,
  change: Change,
  rows: readonly T[],
  write: (tx: Db, batch: T[]) => Promise<void>,
): Promise<void> {
  await writeInBatches(context.services, context.actor, rows, { size: BATCH_ROWS, ...TRANSACTION }, async (uow, batch) => {
    await write(uow.tx, batch);
    await auditBatch(uow, shape, change, batch.length);
  });
}

const auditBatch = (uow: UnitOfWork, shape: TableShape, change: Change, count: number) =>
  uow.audit({ action: 'sync_attack_catalog', entityType: shape.table, details: { [change]: count } });

/** Inserts then updates one kind of item, batch by batch. */
async function writeKind<R>(context: ImportContext, shape: TableShape, plan: KindPlan<R>, toRow: (record: R) => Row): Promise<void> {
  await inBatches(context, shape, 'created', plan.inserts, (tx, batch) => insertRows(tx, shape, batch.map(toRow)));
  await inBatches(context, shape, 'updated', plan.updates, (tx, batch) => updateRows(tx, shape, 'id', batch.map(toRow)));
}

/** New techniques, the coverage event and the event of the addition (the leads' notice and e-mail) commit together. */
async function storeNewTechniques(context: ImportContext, plan: TechniquePlan): Promise<void> {
  if (!plan.inserts.length) return;
  await inTransaction(
    context.services,
    context.actor,
    async (uow) => {
      await insertRows(uow.tx, TABLES.techniques, plan.inserts.map(techniqueRow));
      await auditBatch(uow, TABLES.techniques, 'created', plan.inserts.length);
      uow.emit('coverage.changed', { techniqueIds: plan.inserts.map((technique) => technique.id), reason: 'catalog_sync' });
      const ttpIds = plan.inserts.map((technique) => technique.ttpId).sort();
      uow.emit('catalog.techniques_added', { count: ttpIds.length, ttpIds });
    },
    TRANSACTION,
  );
}

async function writeLinks(context: ImportContext, shape: TableShape, plan: LinkPlan, toRow: (link: StoredLink) => Row): Promise<void> {
  await inBatches(context, shape, 'removed', plan.removals, (tx, batch) => deleteRows(tx, shape, 'stix_id', batch));
  await inBatches(context, shape, 'updated', plan.updates, (tx, batch) => updateRows(tx, shape, 'stix_id', batch.map(toRow)));
  await inBatches(context, shape, 'created', plan.inserts, (tx, batch) => insertRows(tx, shape, batch.map(toRow)));
}

const linkSummary = (plan: LinkPlan) => ({ ...summary(plan), removed: plan.removals.length });

async function currentCounts(services: Services): Promise<Record<string, number>> {
  const [row] = await services.prisma.$queryRaw<Record<string, bigint>[]>`
    SELECT
      (SELECT count(*) FROM techniques WHERE stix_id IS NOT NULL AND NOT is_custom AND NOT is_subtechnique AND NOT revoked AND NOT deprecated) AS techniques,
      (SELECT count(*) FROM techniques WHERE stix_id IS NOT NULL AND NOT is_custom AND is_subtechnique AND NOT revoked AND NOT deprecated) AS sub_techniques,
      (SELECT count(*) FROM tactics) AS tactics,
      (SELECT count(*) FROM mitigations WHERE NOT deprecated) AS mitigations,
      (SELECT count(*) FROM threat_actors WHERE stix_id LIKE 'intrusion-set--%' AND NOT revoked AND NOT deprecated) AS threat_actors,
      (SELECT count(*) FROM software WHERE NOT revoked AND NOT deprecated) AS software,
      (SELECT count(*) FROM threat_actor_techniques WHERE stix_id LIKE 'relationship--%') AS actor_techniques,
      (SELECT count(*) FROM technique_mitigations WHERE stix_id LIKE 'relationship--%') AS technique_mitigations,
      (SELECT count(*) FROM techniques WHERE stix_id IS NOT NULL AND NOT is_custom AND revoked) AS revoked_techniques,
      (SELECT count(*) FROM techniques WHERE stix_id IS NOT NULL AND NOT is_custom AND deprecated) AS deprecated_techniques`;
  return Object.fromEntries(Object.entries(row).map(([key, value]) => [key, Number(value)]));
}

/**
 * Synchronises the ATT&CK Enterprise catalog from a STIX 2.1 bundle: tactics, techniques and sub-techniques,
 * mitigations and their `mitigates` links, intrusion sets and their `uses` links, software (malware and tools). Only what changed is
 * written, in batches of their own transactions, each with its audit entry; a second run of the same bundle
 * writes nothing but its summary audit entry. Custom techniques are never touched, and nothing revoked or deprecated is deleted.
 */
export const importAttackEnterprise: Importer = async (context): Promise<ImportReport> => {
  const { services, location, log } = context;
  const started = Date.now();
  const catalog = await loadCatalog(location, services);
  const prisma = services.prisma;
  const [tactics, techniques, mitigations, actors, software, techniqueMitigations, actorTechniques] = await Promise.all([
    prisma.tactic.findMany(),
    prisma.technique.findMany(),
    prisma.mitigation.findMany(),
    prisma.threatActor.findMany({ where: { stixId: { startsWith: 'intrusion-set--' } } }),
    prisma.software.findMany(),
    prisma.techniqueMitigation.findMany({ select: { stixId: true, mitigationId: true, techniqueId: true, description: true } }),
    prisma.threatActorTechnique.findMany({ select: { id: true, stixId: true, actorId: true, techniqueId: true, procedure: true } }),
  ]);

  const tacticPlan = planTactics(catalog.tactics, tactics, randomUUID);
  const techniquePlan = planTechniques(catalog.techniques, techniques, randomUUID);
  const mitigationPlan = planByStixId(catalog.mitigations, mitigations, MITIGATION_FIELDS, randomUUID);
  const actorPlan = planByStixId(catalog.actors, actors, ACTOR_FIELDS, randomUUID);
  const softwarePlan = planByStixId(catalog.software, software, SOFTWARE_FIELDS, randomUUID);
  const mitigatesPlan = planLinks(
    catalog.mitigates,
    techniqueMitigations.map((link) => ({
      stixId: link.stixId,
      sourceId: link.mitigationId,
      targetId: link.techniqueId,
      description: link.description,
    })),
    mitigationPlan.idByStixId,
    techniquePlan.idByStixId,
    true,
  );
  const actorTechniqueIds = new Map(actorTechniques.map((link) => [link.stixId, link.id]));
  const usesPlan = planLinks(
    catalog.uses,
    actorTechniques.map((link) => ({
      stixId: link.stixId,
      sourceId: link.actorId,
      targetId: link.techniqueId,
      description: link.procedure,
    })),
    actorPlan.idByStixId,
    techniquePlan.idByStixId,
    false,
  );
  const actorTechniqueRow = (link: StoredLink): Row => ({
    id: actorTechniqueIds.get(link.stixId) ?? randomUUID(),
    stix_id: link.stixId,
    actor_id: link.sourceId,
    technique_id: link.targetId,
    procedure: link.description,
  });

  await writeKind(context, TABLES.tactics, tacticPlan, tacticRow);
  await storeNewTechniques(context, techniquePlan);
  await inBatches(context, TABLES.techniques, 'updated', techniquePlan.updates, (tx, batch) =>
    updateRows(tx, TABLES.techniques, 'id', batch.map(techniqueRow)),
  );
  await writeKind(context, TABLES.mitigations, mitigationPlan, mitigationRow);
  await writeKind(context, TABLES.threatActors, actorPlan, actorRow);
  await writeKind(context, TABLES.software, softwarePlan, softwareRow);
  await writeLinks(context, TABLES.techniqueMitigations, mitigatesPlan, techniqueMitigationRow);
  await writeLinks(context, TABLES.actorTechniques, usesPlan, actorTechniqueRow);

  const changes = {
    techniques: {
      ...summary(techniquePlan),
      revoked: techniquePlan.revokedIds.length,
      deprecated: techniquePlan.deprecatedIds.length,
      new_ids: techniquePlan.inserts.map((technique) => technique.ttpId).sort(),
      revoked_ids: techniquePlan.revokedIds.sort(),
      deprecated_ids: techniquePlan.deprecatedIds.sort(),
      conflicts: techniquePlan.conflicts.sort(),
    },
    tactics: summary(tacticPlan),
    mitigations: summary(mitigationPlan),
    threat_actors: summary(actorPlan),
    software: summary(softwarePlan),
    technique_mitigations: linkSummary(mitigatesPlan),
    actor_techniques: linkSummary(usesPlan),
  };
  await inTransaction(services, context.actor, (uow) =>
    uow.audit({ action: 'sync_attack_catalog', entityType: 'catalog', details: changes }),
  );
  const counts = await currentCounts(services);
  log.info(
    { ms: Date.now() - started, counts, new: changes.techniques.new, updated: changes.techniques.updated },
    'ATT&CK catalog synchronised',
  );
  return { counts, changes };
};
