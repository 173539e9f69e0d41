import { inTransaction, type Actor } from '../../db/unit-of-work.ts';
import { CREATE_BATCH, inBatches } from '../../sources/batches.ts';
import { changeOf, type Change } from '../../sources/diff.ts';
import type { Prisma } from '../../generated/prisma/client.ts';
import type { Services } from '../../services.ts';
import { SourceUnavailableError } from '../../sources/location.ts';
import type { ImportContext, Importer, ImportReport } from '../../sources/importer.ts';
import { FRAMEWORKS, mappingKey, readCtid, type ControlData, type CtidSource, type FrameworkDefinition, type MappingData } from './ctid.ts';

const BATCHES = { size: CREATE_BATCH, timeout: 120_000 };

/** Creates the framework or brings its name and versions up to date; returns its id and whether anything changed. */
async function syncFramework(services: Services, actor: Actor, location: string, framework: FrameworkDefinition, source: CtidSource) {
  const data = { name: framework.name, version: source.version, attackVersion: source.attackVersion };
  const existing = await services.prisma.complianceFramework.findUnique({ where: { key: framework.key } });
  if (existing && existing.name === data.name && existing.version === data.version && existing.attackVersion === data.attackVersion) {
    return { id: existing.id, change: { new: 0, updated: 0, unchanged: 1, removed: 0 } };
  }
  return inTransaction(services, actor, async (uow) => {
    const row = await uow.tx.complianceFramework.upsert({
      where: { key: framework.key },
      create: { key: framework.key, ...data },
      update: data,
    });
    await uow.audit({
      action: 'import_compliance',
      entityType: 'compliance_framework',
      entityId: row.id,
      details: { location, key: framework.key, ...data },
    });
    return { id: row.id, change: { new: existing ? 0 : 1, updated: existing ? 1 : 0, unchanged: 0, removed: 0 } };
  });
}

async function syncControls(services: Services, actor: Actor, location: string, frameworkId: string, controls: Map<string, ControlData>) {
  const stored = await services.prisma.complianceControl.findMany({
    where: { frameworkId },
    select: { id: true, controlId: true, name: true, family: true },
  });
  const idByControlId = new Map(stored.map((control) => [control.controlId, control.id]));
  const storedByControlId = new Map(stored.map((control) => [control.controlId, control]));
  const created: ControlData[] = [];
  const updated: { id: string; data: ControlData }[] = [];
  for (const control of controls.values()) {
    const existing = storedByControlId.get(control.controlId);
    if (!existing) created.push(control);
    else if (existing.name !== control.name || existing.family !== control.family) updated.push({ id: existing.id, data: control });
  }
  const removed = stored.filter((control) => !controls.has(control.controlId));

  await inBatches(services, actor, created, BATCHES, async (uow, batch) => {
    const rows = await uow.tx.complianceControl.createManyAndReturn({
      data: batch.map((control) => ({ ...control, frameworkId })),
      select: { id: true, controlId: true },
    });
    for (const row of rows) idByControlId.set(row.controlId, row.id);
    await uow.audit({
      action: 'import_compliance',
      entityType: 'compliance_control',
      entityId: frameworkId,
      details: { location, created: batch.length },
    });
  });
  await inBatches(services, actor, updated, BATCHES, async (uow, batch) => {
    for (const { id, data } of batch) await uow.tx.complianceControl.update({ where: { id }, data });
    await uow.audit({
      action: 'import_compliance',
      entityType: 'compliance_control',
      entityId: frameworkId,
      details: { location, updated: batch.map(({ data }) => data.controlId) },
    });
  });
  const change = changeOf(controls.size, created.length, updated.length, removed.length);
  return { idByControlId, removed, change };
}

async function syncMappings(
  services: Services,
  actor: Actor,
  location: string,
  frameworkId: string,
  mappings: Map<string, MappingData>,
  idByControlId: Map<string, string>,
): Promise<Change> {
  const controlIdById = new Map([...idByControlId].map(([controlId, id]) => [id, controlId]));
  const stored = await services.prisma.complianceMapping.findMany({
    where: { control: { frameworkId } },
    select: { id: true, controlId: true, attackId: true, mappingType: true, comments: true },
  });
  const storedByKey = new Map(
    stored.map((mapping) => [mappingKey(controlIdById.get(mapping.controlId) ?? '', mapping.attackId, mapping.mappingType), mapping]),
  );
  const created: Prisma.ComplianceMappingCreateManyInput[] = [];
  const updated: { id: string; comments: string | null }[] = [];
  for (const [key, mapping] of mappings) {
    const existing = storedByKey.get(key);
    if (!existing) {
      created.push({
        controlId: idByControlId.get(mapping.controlId)!,
        attackId: mapping.attackId,
        mappingType: mapping.mappingType,
        comments: mapping.comments,
      });
    } else if (existing.comments !== mapping.comments) updated.push({ id: existing.id, comments: mapping.comments });
  }
  const removed = [...storedByKey].filter(([key]) => !mappings.has(key)).map(([, mapping]) => mapping.id);

  await inBatches(services, actor, created, BATCHES, async (uow, batch) => {
    await uow.tx.complianceMapping.createMany({ data: batch });
    await uow.audit({
      action: 'import_compliance',
      entityType: 'compliance_mapping',
      entityId: frameworkId,
      details: { location, created: batch.length },
    });
  });
  await inBatches(services, actor, updated, BATCHES, async (uow, batch) => {
    for (const { id, comments } of batch) await uow.tx.complianceMapping.update({ where: { id }, data: { comments } });
    await uow.audit({
      action: 'import_compliance',
      entityType: 'compliance_mapping',
      entityId: frameworkId,
      details: { location, updated: batch.length },
    });
  });
  await inBatches(services, actor, removed, BATCHES, async (uow, batch) => {
    await uow.tx.complianceMapping.deleteMany({ where: { id: { in: batch } } });
    await uow.audit({
      action: 'import_compliance',
      entityType: 'compliance_mapping',
      entityId: frameworkId,
      details: { location, removed: batch.length },
    });
  });
  return changeOf(mappings.size, created.length, updated.length, removed.length);
}

/** Items held for the framework after the import, counted by the database. */
async function frameworkCounts(services: Services, frameworkId: string): Promise<Record<string, number>> {
  const [row] = await services.prisma.$queryRaw<{ controls: number; mappings: number; attackIds: number }[]>`
    SELECT (SELECT count(*) FROM compliance_controls WHERE framework_id = ${frameworkId}::uuid)::int AS controls,
           count(m.id)::int AS mappings,
           count(DISTINCT m.attack_id)::int AS "attackIds"
      FROM compliance_mappings m JOIN compliance_controls c ON c.id = m.control_id
     WHERE c.framework_id = ${frameworkId}::uuid`;
  return { controls: row.controls, mappings: row.mappings, attack_ids: row.attackIds };
}

/**
 * Imports one framework from a CTID Mappings Explorer JSON file: the framework row, its controls and its
 * control → ATT&CK mappings. Controls and mappings no longer in the file are removed; re-running the same
 * file changes nothing.
 */
async function importCtid({ services, location, actor }: ImportContext, framework: FrameworkDefinition): Promise<ImportReport> {
  const source = await readCtid(location, framework, services.config);
  // An empty or wrong file must not wipe the framework.
  if (!source.mappings.size)
    throw new SourceUnavailableError(location, `no control → ATT&CK mappings found (${source.rows.read} rows read)`);

  const { id: frameworkId, change: frameworkChange } = await syncFramework(services, actor, location, framework, source);
  const controls = await syncControls(services, actor, location, frameworkId, source.controls);
  const mappings = await syncMappings(services, actor, location, frameworkId, source.mappings, controls.idByControlId);
  await inBatches(services, actor, controls.removed, BATCHES, async (uow, batch) => {
    await uow.tx.complianceControl.deleteMany({ where: { id: { in: batch.map((control) => control.id) } } });
    await uow.audit({
      action: 'import_compliance',
      entityType: 'compliance_control',
      entityId: frameworkId,
      details: { location, removed: batch.map((control) => control.controlId) },
    });
  });

  return {
    counts: await frameworkCounts(services, frameworkId),
    changes: {
      framework: frameworkChange,
      controls: { ...controls.change },
      mappings: { ...mappings },
      rows: { read: source.rows.read, non_mappable: source.rows.nonMappable, invalid: source.rows.invalid },
    },
  };
}

/** NIST SP 800-53 (rev5) ↔ ATT&CK from the Mappings Explorer; the location is the JSON file or its URL. */
export const importNist80053: Importer = (context) => importCtid(context, FRAMEWORKS.nist80053);

/** CSA Cloud Controls Matrix ↔ ATT&CK from the Mappings Explorer; the location is the JSON file or its URL. */
export const importCsaCcm: Importer = (context) => importCtid(context, FRAMEWORKS.csaCcm);
