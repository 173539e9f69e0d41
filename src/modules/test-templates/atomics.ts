import { parse as parseCsv } from 'csv-parse/sync';
import { parse as parseYaml } from 'yaml';
import { z } from 'zod';
import type { Logger } from '../../logger.ts';
import {
  isHttp,
  isLocalDirectory,
  joinLocation,
  listLocalFiles,
  readSourceText,
  SourceUnavailableError,
  type SourceAccess,
} from '../../sources/location.ts';

const TECHNIQUE_ID = /^T\d{4}(\.\d{3})?$/;
const TECHNIQUE_FILE = /^(T\d{4}(?:\.\d{3})?)\/\1\.yaml$/;
const INDEX_CSV = ['Indexes', 'Indexes-CSV', 'index.csv'];
const FETCH_CONCURRENCY = 8;

const text = z.union([z.string(), z.number(), z.boolean()]).transform(String);

const atomicTestSchema = z.looseObject({
  name: text,
  auto_generated_guid: z.string().trim().min(1).max(100),
  description: text.nullish(),
  supported_platforms: z.array(text).nullish(),
  input_arguments: z.record(z.string(), z.unknown()).nullish(),
  executor: z.looseObject({
    name: text,
    command: text.nullish(),
    steps: text.nullish(),
    cleanup_command: text.nullish(),
    elevation_required: z.boolean().nullish(),
  }),
});

const techniqueFileSchema = z.looseObject({
  attack_technique: z.string().trim(),
  display_name: text.nullish(),
  atomic_tests: z.array(z.unknown()).nullish(),
});

export type AtomicTest = z.infer<typeof atomicTestSchema>;

export interface AtomicTechnique {
  ttpId: string;
  displayName: string | null;
  tests: AtomicTest[];
  /** GUIDs of tests that could not be read: their templates are left as they are. */
  unreadableGuids: string[];
  /** Number of tests skipped as unreadable. */
  skipped: number;
}

/**
 * Every technique file of an Atomic Red Team `atomics` folder: a local directory (its `T*\/T*.yaml` files; the
 * repository root works too) or an http(s) base URL, enumerated through `Indexes/Indexes-CSV/index.csv`.
 * Any file that cannot be read or parsed fails the whole read, so a partial upstream never deactivates templates.
 */
export async function readAtomics(location: string, access: SourceAccess, log: Logger): Promise<AtomicTechnique[]> {
  const sources = await techniqueSources(location, access);
  if (!sources.length) throw new SourceUnavailableError(location, 'no technique files (T*/T*.yaml) found');
  return mapLimited(sources, FETCH_CONCURRENCY, async (file) => parseTechniqueFile(file, await readSourceText(file, access), log));
}

async function techniqueSources(location: string, access: SourceAccess): Promise<string[]> {
  if (isHttp(location)) {
    const ttpIds = techniquesOfIndex(await readSourceText(joinLocation(location, ...INDEX_CSV), access), location);
    return ttpIds.map((ttpId) => joinLocation(location, ttpId, `${ttpId}.yaml`));
  }
  if (!(await isLocalDirectory(location))) throw new SourceUnavailableError(location, 'not a directory or an http(s) URL');
  const nested = joinLocation(location, 'atomics');
  const root = (await isLocalDirectory(nested)) ? nested : location;
  const files = await listLocalFiles(root, (relativePath) => TECHNIQUE_FILE.test(relativePath));
  return files.map((file) => joinLocation(root, file));
}

function techniquesOfIndex(csv: string, location: string): string[] {
  let rows: Record<string, string>[];
  try {
    rows = parseCsv(csv, { columns: true, skip_empty_lines: true, bom: true, relax_column_count: true });
  } catch (error) {
    throw new SourceUnavailableError(location, 'index.csv is not valid CSV', { cause: error });
  }
  const ids = new Set(rows.map((row) => (row['Technique #'] ?? '').trim()).filter((id) => TECHNIQUE_ID.test(id)));
  return [...ids].sort();
}

function parseTechniqueFile(file: string, source: string, log: Logger): AtomicTechnique {
  let document: unknown;
  try {
    document = parseYaml(source, { maxAliasCount: 100 });
  } catch (error) {
    throw new SourceUnavailableError(file, 'invalid YAML', { cause: error });
  }
  const parsed = techniqueFileSchema.safeParse(document);
  if (!parsed.success || !TECHNIQUE_ID.test(parsed.data.attack_technique.toUpperCase())) {
    throw new SourceUnavailableError(file, 'not an atomic technique file (attack_technique and atomic_tests expected)');
  }
  const technique: AtomicTechnique = {
    ttpId: parsed.data.attack_technique.toUpperCase(),
    displayName: parsed.data.display_name ?? null,
    tests: [],
    unreadableGuids: [],
    skipped: 0,
  };
  for (const [index, entry] of (parsed.data.atomic_tests ?? []).entries()) {
    const test = atomicTestSchema.safeParse(entry);
    if (test.success) {
      technique.tests.push(test.data);
      continue;
    }
    const guid = (entry as { auto_generated_guid?: unknown } | null)?.auto_generated_guid;
    if (typeof guid === 'string') technique.unreadableGuids.push(guid);
    technique.skipped += 1;
    log.warn({ file, index, issue: test.error.issues[0] }, 'atomic test skipped: it does not have the expected shape');
  }
  return technique;
}

/** `fn` over `items`, at most `limit` at a time, results in order. */
async function mapLimited<T, R>(items: readonly T[], limit: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await fn(items[index]);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}
