import { readFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { unzipSync } from 'fflate';
import { inTransaction } from '../../db/unit-of-work.ts';
import type { Prisma } from '../../generated/prisma/client.ts';
import type { Services } from '../../services.ts';
import {
  isHttp,
  isLocalDirectory,
  listLocalFiles,
  localPath,
  MAX_SOURCE_BYTES,
  readSourceBytes,
  SourceUnavailableError,
  type SourceAccess,
} from '../../sources/location.ts';
import type { ImportReport, Importer } from '../../sources/importer.ts';
import { eachInSlices } from '../../sources/slices.ts';
import { parseSigmaRule, SIGMA_SOURCE, upstreamUrl, type SigmaRuleData } from './sigma.ts';
import { chunks, differsIn } from '../../sources/diff.ts';
import { CREATE_BATCH, inBatches } from '../../sources/batches.ts';

/**
 * The public default: the "all rules" archive of the SigmaHQ release whose ATT&CK tags match the v18 catalog.
 * `https://github.com/SigmaHQ/sigma/releases/latest/download/sigma_all_rules.zip` follows the newest release.
 */
export const SIGMA_DEFAULT_LOCATION = 'https://github.com/SigmaHQ/sigma/releases/download/r2026-04-01/sigma_all_rules.zip';

const RULE_FILE = /\.ya?ml$/i;
const BATCHES = { size: CREATE_BATCH, timeout: 120_000 };
/** Lists in the report are cut at this length; the counts next to them stay exact. */
const LISTED = 100;

interface RuleFile {
  path: string;
  content: string;
}

/** The release tag named by a GitHub release-asset or tag-archive URL, used to link rules at that exact version. */
function releaseRef(location: string): string | undefined {
  return /\/releases\/download\/([^/]+)\//.exec(location)?.[1] ?? /\/archive\/refs\/tags\/([^/]+)\.zip$/.exec(location)?.[1];
}

/** Rule files inflated per call: each call reads the archive's directory again, a fraction of a millisecond. */
const INFLATE_BATCH = 100;

/**
 * The rule files of a zip archive. The directory is read first (names and declared sizes), then the files are
 * inflated a batch at a time, the event loop served between slices: SigmaHQ's archive of about 3,000 rules took
 * 60–120 ms in one call.
 */
async function unzipRules(location: string, bytes: Uint8Array): Promise<RuleFile[]> {
  const unreadable = (error: unknown) => new SourceUnavailableError(location, 'not a readable zip archive of rules', { cause: error });
  const names = new Set<string>();
  let total = 0;
  try {
    unzipSync(bytes, {
      filter: (file) => {
        if (!RULE_FILE.test(file.name)) return false;
        total += file.originalSize;
        if (total > MAX_SOURCE_BYTES) throw new Error(`archive expands to more than ${MAX_SOURCE_BYTES} bytes`);
        names.add(file.name);
        return false;
      },
    });
  } catch (error) {
    throw unreadable(error);
  }
  const decoder = new TextDecoder();
  const files: RuleFile[] = [];
  await eachInSlices(chunks([...names].sort(), INFLATE_BATCH), (batch) => {
    const wanted = new Set(batch);
    let entries: Record<string, Uint8Array>;
    try {
      entries = unzipSync(bytes, { filter: (file) => wanted.has(file.name) });
    } catch (error) {
      throw unreadable(error);
    }
    for (const path of batch) files.push({ path, content: decoder.decode(entries[path]) });
  });
  return files;
}

/** Every rule file at the location: a directory (recursively), a zip archive (URL or path) or one rule file. */
export async function readRuleFiles(location: string, access: SourceAccess): Promise<RuleFile[]> {
  if (await isLocalDirectory(location)) {
    const root = localPath(location);
    // Paths keep the directory's own name, so a clone's `rules` folder still maps onto upstream paths.
    const paths = await listLocalFiles(location, (path) => RULE_FILE.test(path));
    return Promise.all(
      paths.map(async (path) => ({ path: `${basename(root)}/${path}`, content: await readFile(join(root, path), 'utf8') })),
    );
  }
  const bytes = await readSourceBytes(location, access);
  if (!isHttp(location) && RULE_FILE.test(location)) return [{ path: basename(localPath(location)), content: bytes.toString('utf8') }];
  return unzipRules(location, bytes);
}

const UPSTREAM_FIELDS = [
  'title',
  'description',
  'severity',
  'techniqueIds',
  'ttpTechniqueId',
  'status',
  'logSource',
  'author',
  'references',
  'license',
  'sourceUrl',
  'content',
] as const;

type StoredRule = Pick<Prisma.DetectionRuleGetPayload<object>, (typeof UPSTREAM_FIELDS)[number] | 'id' | 'externalId' | 'isActive'>;

const differs = (stored: StoredRule, rule: SigmaRuleData) => !stored.isActive || differsIn(UPSTREAM_FIELDS, stored, rule);

const listed = (items: string[]) => items.slice(0, LISTED);

/** Items held from Sigma after the import: active rules and the distinct techniques they name (counted in SQL). */
async function sigmaCounts(services: Services): Promise<Record<string, number>> {
  const [row] = await services.prisma.$queryRaw<{ rules: bigint; techniques: bigint }[]>`
    SELECT (SELECT count(*) FROM detection_rules WHERE source = ${SIGMA_SOURCE} AND is_active) AS rules,
           (SELECT count(DISTINCT technique) FROM detection_rules, unnest(technique_ids) AS technique
             WHERE source = ${SIGMA_SOURCE} AND is_active) AS techniques`;
  return { rules: Number(row.rules), techniques: Number(row.techniques) };
}

/**
 * Imports Sigma rules (source `sigma`, keyed by the rule id). Rules are created or brought back to their
 * upstream state in batches, one transaction each; rules no longer found upstream are deactivated, never deleted.
 */
export const importSigma: Importer = async ({ services, location, actor, log }) => {
  const files = await readRuleFiles(location, services.config);
  const ref = releaseRef(location);
  const rules = new Map<string, SigmaRuleData>();
  const missingId: string[] = [];
  const invalid: string[] = [];
  const duplicate: string[] = [];
  await eachInSlices(files, (file) => {
    const parsed = parseSigmaRule(file.content, upstreamUrl(file.path, ref));
    if (!parsed.ok) (parsed.reason === 'missing_id' ? missingId : invalid).push(file.path);
    else if (rules.has(parsed.rule.externalId)) duplicate.push(file.path);
    else rules.set(parsed.rule.externalId, parsed.rule);
  });
  // An empty or wrong archive must not deactivate the whole rule set.
  if (rules.size === 0) throw new SourceUnavailableError(location, `no Sigma rules found (${files.length} YAML files read)`);

  const stored = (await services.prisma.detectionRule.findMany({
    where: { source: SIGMA_SOURCE },
    select: { id: true, externalId: true, isActive: true, ...Object.fromEntries(UPSTREAM_FIELDS.map((field) => [field, true])) },
  })) as StoredRule[];
  const byExternalId = new Map(stored.map((rule) => [rule.externalId, rule]));
  const created: SigmaRuleData[] = [];
  const changed: { id: string; rule: SigmaRuleData; reactivated: boolean }[] = [];
  let unchanged = 0;
  for (const rule of rules.values()) {
    const existing = byExternalId.get(rule.externalId);
    if (!existing) created.push(rule);
    else if (differs(existing, rule)) changed.push({ id: existing.id, rule, reactivated: !existing.isActive });
    else unchanged += 1;
  }
  const gone = stored.filter((rule) => rule.isActive && !rules.has(rule.externalId ?? ''));

  await inBatches(services, actor, created, BATCHES, async (uow, batch) => {
    await uow.tx.detectionRule.createMany({
      data: batch.map((rule) => ({ ...rule, source: SIGMA_SOURCE, logSource: rule.logSource as Prisma.InputJsonValue })),
    });
    await uow.audit({
      action: 'import_detection_rules',
      entityType: 'detection_rule',
      details: { source: SIGMA_SOURCE, location, created: batch.length },
    });
  });
  await inBatches(services, actor, changed, BATCHES, async (uow, batch) => {
    for (const { id, rule } of batch) {
      await uow.tx.detectionRule.update({
        where: { id },
        data: { ...rule, logSource: rule.logSource as Prisma.InputJsonValue, isActive: true },
      });
    }
    await uow.audit({
      action: 'import_detection_rules',
      entityType: 'detection_rule',
      details: { source: SIGMA_SOURCE, location, updated: batch.length },
    });
  });
  if (gone.length) {
    await inTransaction(
      services,
      actor,
      async (uow) => {
        await uow.tx.detectionRule.updateMany({ where: { id: { in: gone.map((rule) => rule.id) } }, data: { isActive: false } });
        await uow.audit({
          action: 'deactivate_detection_rules',
          entityType: 'detection_rule',
          details: {
            source: SIGMA_SOURCE,
            location,
            deactivated: gone.length,
            external_ids: listed(gone.map((rule) => rule.externalId ?? '')),
          },
        });
      },
      { timeout: BATCHES.timeout },
    );
  }

  const report: ImportReport = {
    counts: await sigmaCounts(services),
    changes: {
      rules: {
        new: created.length,
        updated: changed.length,
        unchanged,
        deactivated: gone.length,
        reactivated: changed.filter((change) => change.reactivated).length,
        skipped: missingId.length + invalid.length + duplicate.length,
      },
      deactivated_rules: { external_ids: listed(gone.map((rule) => rule.externalId ?? '')) },
      skipped_rules: { without_id: listed(missingId), invalid: listed(invalid), duplicate_id: listed(duplicate) },
    },
  };
  log.info({ location, files: files.length, ...report.changes.rules }, 'Sigma rules imported');
  return report;
};
