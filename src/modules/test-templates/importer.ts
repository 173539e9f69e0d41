import type { Prisma } from '../../db/client.ts';
import { inTransaction } from '../../db/unit-of-work.ts';
import type { Importer, ImportContext } from '../../sources/importer.ts';
import { readAtomics, type AtomicTechnique, type AtomicTest } from './atomics.ts';
import { remediationByTtpId } from './remediation.ts';
import { normalizePlatforms, TemplateSource } from './service.ts';
import { differsIn } from '../../sources/diff.ts';
import { CREATE_BATCH, inBatches } from '../../sources/batches.ts';

const SOURCE = TemplateSource.atomicRedTeam;
const UPDATE_BATCH = 200;
const BATCH_TIMEOUT_MS = 60_000;

/** The fields an import owns: upstream is authoritative for them. Severity and the active flag stay local. */
const IMPORTED = {
  name: true,
  description: true,
  ttpTechniqueId: true,
  platform: true,
  platforms: true,
  executor: true,
  procedure: true,
  cleanupCommand: true,
  elevationRequired: true,
  inputArguments: true,
  toolUsed: true,
  suggestedRemediation: true,
} as const satisfies Prisma.TestTemplateSelect;
const IMPORTED_FIELDS = Object.keys(IMPORTED) as (keyof typeof IMPORTED)[];

type ImportedFields = Pick<Prisma.TestTemplateCreateManyInput, keyof typeof IMPORTED>;
type Draft = Required<ImportedFields> & { externalId: string; inputArguments: Prisma.InputJsonObject };

const trimEnd = (value: string | null | undefined) => (value ?? '').replace(/\s+$/, '');

function draftOf(technique: AtomicTechnique, test: AtomicTest, remediation: string): Draft {
  const platforms = normalizePlatforms(test.supported_platforms ?? []);
  return {
    externalId: test.auto_generated_guid,
    name: test.name.trim(),
    description: trimEnd(test.description),
    ttpTechniqueId: technique.ttpId,
    platform: platforms[0] ?? null,
    platforms,
    executor: test.executor.name,
    // Manual atomics carry numbered steps instead of a command.
    procedure: trimEnd(test.executor.command ?? test.executor.steps),
    cleanupCommand: test.executor.cleanup_command == null ? null : trimEnd(test.executor.cleanup_command),
    elevationRequired: test.executor.elevation_required ?? false,
    inputArguments: (test.input_arguments ?? {}) as Prisma.InputJsonObject,
    toolUsed: test.executor.name,
    suggestedRemediation: remediation,
  };
}

const differs = (current: Record<string, unknown>, draft: Draft) => differsIn(IMPORTED_FIELDS, current, draft);

/**
 * Imports Atomic Red Team atomics as test templates, one per atomic test, keyed by its GUID: new tests are
 * created, changed ones updated, unchanged ones left alone, and templates whose test disappeared upstream are
 * deactivated (tests may still reference them). Never runs any command of the atomics.
 */
export const importAtomicRedTeam: Importer = async ({ services, location, actor, log }: ImportContext) => {
  const techniques = await readAtomics(location, services.config, log);
  const remediation = await remediationByTtpId(
    services.prisma,
    techniques.map((technique) => technique.ttpId),
  );

  const drafts = new Map<string, Draft>();
  let skipped = techniques.reduce((sum, technique) => sum + technique.skipped, 0);
  for (const technique of techniques) {
    for (const test of technique.tests) {
      if (drafts.has(test.auto_generated_guid)) {
        log.warn({ guid: test.auto_generated_guid, ttpId: technique.ttpId }, 'atomic test GUID listed twice: the first one is kept');
        skipped += 1;
        continue;
      }
      drafts.set(test.auto_generated_guid, draftOf(technique, test, remediation.get(technique.ttpId) ?? ''));
    }
  }
  const unreadable = new Set(techniques.flatMap((technique) => technique.unreadableGuids));

  const existing = await services.prisma.testTemplate.findMany({
    where: { source: SOURCE },
    select: { id: true, externalId: true, isActive: true, ...IMPORTED },
  });
  const byGuid = new Map(existing.map((row) => [row.externalId, row]));
  const creates: Prisma.TestTemplateCreateManyInput[] = [];
  const updates: { id: string; data: Draft }[] = [];
  for (const draft of drafts.values()) {
    const current = byGuid.get(draft.externalId);
    if (!current) creates.push({ ...draft, source: SOURCE });
    else if (differs(current as Record<string, unknown>, draft)) updates.push({ id: current.id, data: draft });
  }
  const removed = existing.filter((row) => row.isActive && !drafts.has(row.externalId!) && !unreadable.has(row.externalId!));

  const details = (extra: Record<string, Prisma.InputJsonValue>) => ({ source: SOURCE, location, ...extra });
  await inBatches(services, actor, creates, { size: CREATE_BATCH, timeout: BATCH_TIMEOUT_MS }, async (uow, batch) => {
    await uow.tx.testTemplate.createMany({ data: batch, skipDuplicates: true });
    await uow.audit({ action: 'import_test_templates', entityType: 'test_template', details: details({ created: batch.length }) });
  });
  await inBatches(services, actor, updates, { size: UPDATE_BATCH, timeout: BATCH_TIMEOUT_MS }, async (uow, batch) => {
    for (const { id, data } of batch) await uow.tx.testTemplate.update({ where: { id }, data });
    await uow.audit({
      action: 'import_test_templates',
      entityType: 'test_template',
      details: details({ updated: batch.length, guids: batch.map((update) => update.data.externalId) }),
    });
  });
  const deactivated = removed.map((row) => row.externalId!);
  if (removed.length) {
    await inTransaction(
      services,
      actor,
      async (uow) => {
        await uow.tx.testTemplate.updateMany({ where: { id: { in: removed.map((row) => row.id) } }, data: { isActive: false } });
        await uow.audit({ action: 'import_test_templates', entityType: 'test_template', details: details({ deactivated }) });
      },
      { timeout: BATCH_TIMEOUT_MS },
    );
  }

  const report = {
    counts: { templates: drafts.size, techniques: techniques.filter((technique) => technique.tests.length).length },
    changes: {
      templates: {
        new: creates.length,
        updated: updates.length,
        unchanged: drafts.size - creates.length - updates.length,
        deactivated,
        skipped,
      },
    },
  };
  log.info(
    { counts: report.counts, new: creates.length, updated: updates.length, deactivated: deactivated.length },
    'Atomic Red Team imported',
  );
  return report;
};
