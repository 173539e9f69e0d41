import { parseCsvInSlices } from '../../sources/csv.ts';
import {
  isHttp,
  isLocalDirectory,
  joinLocation,
  listLocalFiles,
  readSourceText,
  SourceUnavailableError,
  type SourceAccess,
} from '../../sources/location.ts';

/** A D3FEND defensive technique as the source describes it. */
export interface DefensiveTechniqueData {
  d3fendId: string;
  name: string;
  tactic: string;
  parent: string | null;
  topLevel: string | null;
}

/** One artifact path linking a defensive technique to an ATT&CK technique (the CSV's own column names). */
export interface ArtifactRelation {
  def_artifact_relation: string;
  def_artifact: string;
  off_artifact_relation: string;
  off_artifact: string;
}

/** The rows of one (defensive technique, ATT&CK id) pair. */
export interface PairData {
  d3fendId: string;
  attackId: string;
  details: ArtifactRelation[];
}

export interface D3fendSource {
  techniques: Map<string, DefensiveTechniqueData>;
  pairs: Map<string, PairData>;
  /** Where the technique list came from: the sibling techniques file, or the mapping rows themselves. */
  techniquesLocation: string | null;
  rows: number;
  invalidRows: number;
}

/**
 * Where the mapping file is looked for unless the admin sets another location: a mirror path, since D3FEND publishes
 * no file in this layout and the service has no internet (see docs/countermeasures-compliance.md).
 */
export const D3FEND_DEFAULT_LOCATION = '/data/sources/d3fend/d3fend-1.2.0-attack-mappings.csv';

const MAPPINGS_SUFFIX = 'attack-mappings.csv';
const TECHNIQUES_SUFFIX = 'techniques.csv';
const MAPPING_COLUMNS = [
  'attack_id',
  'd3fend_id',
  'd3fend_name',
  'd3fend_tactic',
  'def_artifact_relation',
  'def_artifact',
  'off_artifact_relation',
  'off_artifact',
];
const TECHNIQUE_COLUMNS = ['d3fend_id', 'd3fend_name', 'd3fend_tactic'];

const ATTACK_ID = /^T\d{4}(\.\d{3})?$/;
const D3FEND_ID = /^D3-[A-Z0-9]+$/;

export const pairKey = (d3fendId: string, attackId: string) => `${d3fendId}|${attackId}`;
const blankToNull = (value: string | undefined) => (value?.trim() ? value.trim() : null);

async function readCsv(location: string, text: string, required: string[]): Promise<Record<string, string>[]> {
  let rows: Record<string, string>[];
  try {
    rows = await parseCsvInSlices(text, { columns: true, skip_empty_lines: true, trim: true, bom: true });
  } catch (error) {
    throw new SourceUnavailableError(location, 'not a readable CSV file', { cause: error });
  }
  const header = rows.length ? Object.keys(rows[0]) : [];
  if (header.includes('off_tech_id') && header.includes('def_tech')) {
    throw new SourceUnavailableError(
      location,
      `this is D3FEND's inferred export (IRIs and labels, no D3FEND ids); point the source at a d3fend-<version>-${MAPPINGS_SUFFIX} file`,
    );
  }
  const missing = required.filter((column) => !header.includes(column));
  if (missing.length) throw new SourceUnavailableError(location, `not a D3FEND CSV: missing column ${missing.join(', ')}`);
  return rows;
}

/** The sibling techniques file of a mappings file (`…-attack-mappings.csv` → `…-techniques.csv`), for paths and URLs alike. */
export function techniquesLocationOf(mappingsLocation: string): string | null {
  if (isHttp(mappingsLocation)) {
    const url = new URL(mappingsLocation);
    if (!url.pathname.endsWith(MAPPINGS_SUFFIX)) return null;
    url.pathname = url.pathname.slice(0, -MAPPINGS_SUFFIX.length) + TECHNIQUES_SUFFIX;
    return url.toString();
  }
  return mappingsLocation.endsWith(MAPPINGS_SUFFIX) ? mappingsLocation.slice(0, -MAPPINGS_SUFFIX.length) + TECHNIQUES_SUFFIX : null;
}

/** A directory location stands for the one `*attack-mappings.csv` file inside it. */
async function mappingsFileOf(location: string): Promise<string> {
  if (!(await isLocalDirectory(location))) return location;
  const files = await listLocalFiles(location, (path) => !path.includes('/') && path.endsWith(MAPPINGS_SUFFIX));
  if (files.length !== 1)
    throw new SourceUnavailableError(location, `expected one *${MAPPINGS_SUFFIX} file in the directory, found ${files.length}`);
  return joinLocation(location, files[0]);
}

const MISSING = new Set(['HTTP 404', 'HTTP 410', 'file not found']);

/**
 * The sibling file's text, or null when it does not exist: HTTP 404/410 or no such file, as the location reader
 * words it. Any other failure is an error, so that the technique list never shrinks because of a network glitch.
 */
async function readOptional(location: string, access: SourceAccess): Promise<string | null> {
  try {
    return await readSourceText(location, access);
  } catch (error) {
    if (error instanceof SourceUnavailableError && MISSING.has(error.reason)) return null;
    throw error;
  }
}

async function techniquesFromFile(location: string, text: string): Promise<Map<string, DefensiveTechniqueData>> {
  const techniques = new Map<string, DefensiveTechniqueData>();
  for (const row of await readCsv(location, text, TECHNIQUE_COLUMNS)) {
    const d3fendId = row.d3fend_id;
    if (!D3FEND_ID.test(d3fendId) || !row.d3fend_name || !row.d3fend_tactic) continue;
    techniques.set(d3fendId, {
      d3fendId,
      name: row.d3fend_name,
      tactic: row.d3fend_tactic,
      parent: blankToNull(row.parent_d3fend_id),
      topLevel: blankToNull(row.top_technique_id),
    });
  }
  return techniques;
}

const relationOrder = (relation: ArtifactRelation) =>
  [relation.def_artifact_relation, relation.def_artifact, relation.off_artifact_relation, relation.off_artifact].join('\u0000');

/**
 * Reads the D3FEND ↔ ATT&CK mapping CSV at `location` and, when it exists, its sibling techniques file.
 * Rows are grouped by (D3FEND id, ATT&CK id); each group's artifact paths are de-duplicated and sorted.
 */
export async function readD3fend(location: string, access: SourceAccess): Promise<D3fendSource> {
  const mappingsLocation = await mappingsFileOf(location);
  const rows = await readCsv(mappingsLocation, await readSourceText(mappingsLocation, access), MAPPING_COLUMNS);
  const siblingLocation = techniquesLocationOf(mappingsLocation);
  const siblingText = siblingLocation ? await readOptional(siblingLocation, access) : null;
  const techniques =
    siblingText != null ? await techniquesFromFile(siblingLocation!, siblingText) : new Map<string, DefensiveTechniqueData>();

  const pairs = new Map<string, PairData>();
  let invalidRows = 0;
  for (const row of rows) {
    const { attack_id: attackId, d3fend_id: d3fendId } = row;
    if (!ATTACK_ID.test(attackId) || !D3FEND_ID.test(d3fendId) || !row.d3fend_name || !row.d3fend_tactic) {
      invalidRows += 1;
      continue;
    }
    if (!techniques.has(d3fendId)) {
      techniques.set(d3fendId, {
        d3fendId,
        name: row.d3fend_name,
        tactic: row.d3fend_tactic,
        parent: null,
        topLevel: blankToNull(row.d3fend_top_technique_id),
      });
    }
    const key = pairKey(d3fendId, attackId);
    let pair = pairs.get(key);
    if (!pair) pairs.set(key, (pair = { d3fendId, attackId, details: [] }));
    const relation: ArtifactRelation = {
      def_artifact_relation: row.def_artifact_relation,
      def_artifact: row.def_artifact,
      off_artifact_relation: row.off_artifact_relation,
      off_artifact: row.off_artifact,
    };
    if (!pair.details.some((known) => relationOrder(known) === relationOrder(relation))) pair.details.push(relation);
  }
  for (const pair of pairs.values())
    pair.details.sort((a, b) => (relationOrder(a) < relationOrder(b) ? -1 : relationOrder(a) > relationOrder(b) ? 1 : 0));
  return { techniques, pairs, techniquesLocation: siblingText != null ? siblingLocation : null, rows: rows.length, invalidRows };
}
