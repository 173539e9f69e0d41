import { stringify } from 'csv-stringify/sync';

/** Cells a spreadsheet would read as a formula or a control character (OWASP CSV injection). */
const FORMULA_START = /^[=+\-@\t\r]/;

/** The text of a cell: arrays joined with "; ", null as empty, and a leading apostrophe before formula starters. */
export function cellText(value: unknown): string {
  const text = value == null ? '' : Array.isArray(value) ? value.join('; ') : String(value);
  return FORMULA_START.test(text) ? `'${text}` : text;
}

/**
 * RFC 4180 CSV: CRLF between records, fields quoted when they hold a comma, a quote or a line break
 * (quotes doubled), UTF-8 with a byte-order mark so that spreadsheet apps detect the encoding.
 */
export function toCsv<K extends string>(columns: readonly K[], rows: readonly Record<K, unknown>[]): string {
  const records = [columns.map(cellText), ...rows.map((row) => columns.map((column) => cellText(row[column])))];
  return stringify(records, { record_delimiter: 'windows', quoted_match: /[\r\n]/, bom: true });
}

/** The columns of the coverage CSV: the JSON technique rows of /reports/coverage-summary. */
export const COVERAGE_CSV_COLUMNS = [
  'ttp_id',
  'name',
  'tactics',
  'platforms',
  'status',
  'tests_total',
  'tests_validated',
  'tests_rejected',
  'tests_open',
  'last_result',
  'last_validated_at',
] as const;

/** A Content-Disposition file name: the report name and today's date (UTC). */
export const attachmentName = (name: string, extension: string, now = new Date()) =>
  `${name}-${now.toISOString().slice(0, 10)}.${extension}`;
