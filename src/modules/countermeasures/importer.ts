import type { Actor } from '../../db/unit-of-work.ts';
import { CREATE_BATCH, inBatches } from '../../sources/batches.ts';
import { eachInSlices } from '../../sources/slices.ts';
import type { Prisma } from '../../generated/prisma/client.ts';
import type { Services } from '../../services.ts';
import { SourceUnavailableError } from '../../sources/location.ts';
import type { Importer } from '../../sources/importer.ts';
import { pairKey, readD3fend, type DefensiveTechniqueData, type PairData } from './d3fend.ts';
import { canonicalJson, changeOf, type Change } from '../../sources/diff.ts';

const BATCHES = { size: CREATE_BATCH, timeout: 120_000 };
const TECHNIQUE_FIELDS = ['name', 'tactic', 'parent', 'topLevel'] as const;

/** Creates and updates defensive techniques; returns the id of every technique by D3FEND id and those to remove. */
async function syncTechniques(services: Services, actor: Actor, location: string, techniques: Map<string, DefensiveTechniqueData>) {
  const stored = await services.prisma.defensiveTechnique.findMany({
    select: { id: true, d3fendId: true, name: true, tactic: true, parent: true, topLevel: true },
  });
  const idByD3fendId = new Map(stored.map((technique) => [technique.d3fendId, technique.id]));
  const storedByD3fendId = new Map(stored.map((technique) => [technique.d3fendId, technique]));
  const created: DefensiveTechniqueData[] = [];
  const updated: { id: string; data: DefensiveTechniqueData }[] = [];
  for (const technique of techniques.values()) {
    const existing = storedByD3fendId.get(technique.d3fendId);
    if (!existing) created.push(technique);
    else if (TECHNIQUE_FIELDS.some((field) => existing[field] !== technique[field])) updated.push({ id: existing.id, data: technique });
  }
  const removed = stored.filter((technique) => !techniques.has(technique.d3fendId));

  await inBatches(services, actor, created, BATCHES, async (uow, batch) => {
    const rows = await uow.tx.defensiveTechnique.createManyAndReturn({ data: batch, select: { id: true, d3fendId: true } });
    for (const row of rows) idByD3fendId.set(row.d3fendId, row.id);
    await uow.audit({ action: 'import_d3fend', entityType: 'defensive_technique', details: { location, created: batch.length } });
  });
  await inBatches(services, actor, updated, BATCHES, async (uow, batch) => {
    for (const { id, data } of batch) await uow.tx.defensiveTechnique.update({ where: { id }, data });
    await uow.audit({
      action: 'import_d3fend',
      entityType: 'defensive_technique',
      details: { location, updated: batch.map(({ data }) => data.d3fendId) },
    });
  });
  const change = changeOf(techniques.size, created.length, updated.length, removed.length);
  return { idByD3fendId, removed, change };
}

/** Creates, updates and removes mappings so that they match the source's pairs exactly. */
async function syncMappings(
  services: Services,
  actor: Actor,
  location: string,
  pairs: Map<string, PairData>,
  idByD3fendId: Map<string, string>,
): Promise<Change> {
  const d3fendIdById = new Map([...idByD3fendId].map(([d3fendId, id]) => [id, d3fendId]));
  const stored = await services.prisma.countermeasureMapping.findMany({
    select: { id: true, defensiveTechniqueId: true, attackId: true, details: true },
  });
  const storedByKey = new Map(
    stored.map((mapping) => [pairKey(d3fendIdById.get(mapping.defensiveTechniqueId) ?? '', mapping.attackId), mapping]),
  );
  const created: Prisma.CountermeasureMappingCreateManyInput[] = [];
  const updated: { id: string; details: PairData['details'] }[] = [];
  await eachInSlices(pairs, ([key, pair]) => {
    const existing = storedByKey.get(key);
    const details = pair.details as unknown as Prisma.InputJsonValue;
    if (!existing) created.push({ defensiveTechniqueId: idByD3fendId.get(pair.d3fendId)!, attackId: pair.attackId, details });
    else if (canonicalJson(existing.details) !== canonicalJson(pair.details)) updated.push({ id: existing.id, details: pair.details });
  });
  const removed = [...storedByKey].filter(([key]) => !pairs.has(key)).map(([, mapping]) => mapping.id);

  await inBatches(services, actor, created, BATCHES, async (uow, batch) => {
    await uow.tx.countermeasureMapping.createMany({ data: batch });
    await uow.audit({ action: 'import_d3fend', entityType: 'countermeasure_mapping', details: { location, created: batch.length } });
  });
  await inBatches(services, actor, updated, BATCHES, async (uow, batch) => {
    for (const { id, details } of batch) {
      await uow.tx.countermeasureMapping.update({ where: { id }, data: { details: details as unknown as Prisma.InputJsonValue } });
    }
    await uow.audit({ action: 'import_d3fend', entityType: 'countermeasure_mapping', details: { location, updated: batch.length } });
  });
  await inBatches(services, actor, removed, BATCHES, async (uow, batch) => {
    await uow.tx.countermeasureMapping.deleteMany({ where: { id: { in: batch } } });
    await uow.audit({ action: 'import_d3fend', entityType: 'countermeasure_mapping', details: { location, removed: batch.length } });
  });
  return changeOf(pairs.size, created.length, updated.length, removed.length);
}

/** Items held from D3FEND after the import, counted by the database. */
async function d3fendCounts(services: Services): Promise<Record<string, number>> {
  const [row] = await services.prisma.$queryRaw<{ techniques: number; mappings: number; attackIds: number }[]>`
    SELECT (SELECT count(*) FROM defensive_techniques)::int AS techniques,
           (SELECT count(*) FROM countermeasure_mappings)::int AS mappings,
           (SELECT count(DISTINCT attack_id) FROM countermeasure_mappings)::int AS "attackIds"`;
  return { defensive_techniques: row.techniques, mappings: row.mappings, attack_ids: row.attackIds };
}

/**
 * Imports D3FEND countermeasures from the ATT&CK mapping CSV at `location` (see docs/countermeasures-compliance.md).
 * Rows are grouped per (D3FEND id, ATT&CK id) into one mapping; techniques and mappings no longer in the
 * source are removed, so the catalog always mirrors the source. Re-running the same file changes nothing.
 */
export const importD3fend: Importer = async ({ services, location, actor, log }) => {
  const source = await readD3fend(location, services.config);
  // An empty or wrong file must not wipe the countermeasure catalog.
  if (!source.pairs.size) throw new SourceUnavailableError(location, `no D3FEND ↔ ATT&CK mapping rows found (${source.rows} rows read)`);
  if (!source.techniquesLocation)
    log.warn({ location }, 'no D3FEND techniques file next to the mappings: technique list derived from the mapping rows');

  const techniques = await syncTechniques(services, actor, location, source.techniques);
  const mappings = await syncMappings(services, actor, location, source.pairs, techniques.idByD3fendId);
  await inBatches(services, actor, techniques.removed, BATCHES, async (uow, batch) => {
    await uow.tx.defensiveTechnique.deleteMany({ where: { id: { in: batch.map((technique) => technique.id) } } });
    await uow.audit({
      action: 'import_d3fend',
      entityType: 'defensive_technique',
      details: { location, removed: batch.map((technique) => technique.d3fendId) },
    });
  });

  return {
    counts: await d3fendCounts(services),
    changes: {
      defensive_techniques: { ...techniques.change },
      mappings: { ...mappings },
      rows: { read: source.rows, invalid: source.invalidRows },
    },
  };
};
