import { chunks as batchesOf } from '../../sources/diff.ts';
import type { Db } from '../../db/client.ts';

/**
 * Set-based writes for the catalog sync: one statement per batch, the rows travelling as one JSON parameter
 * that `jsonb_to_recordset` turns back into typed columns (arrays included). Table and column names come
 * from the constants below, never from input.
 */
export interface TableShape {
  table: string;
  /** Column name → Postgres type, for every column the sync writes. */
  columns: Record<string, string>;
  /** Whether the table has an updated_at column to stamp on insert and update. */
  stamped: boolean;
}

export type Row = Record<string, unknown>;

/** Rows per statement (and per transaction for the batched stages). */
export const BATCH_ROWS = 500;

export const TABLES = {
  tactics: {
    table: 'tactics',
    stamped: true,
    columns: {
      id: 'uuid',
      stix_id: 'text',
      external_id: 'text',
      short_name: 'text',
      name: 'text',
      description: 'text',
      matrix_order: 'integer',
    },
  },
  techniques: {
    table: 'techniques',
    stamped: true,
    columns: {
      id: 'uuid',
      stix_id: 'text',
      ttp_id: 'text',
      name: 'text',
      description: 'text',
      tactic: 'text',
      tactics: 'text[]',
      platforms: 'text[]',
      is_subtechnique: 'boolean',
      parent_ttp_id: 'text',
      attack_version: 'text',
      attack_modified: 'timestamptz',
      revoked: 'boolean',
      revoked_by_ttp_id: 'text',
      deprecated: 'boolean',
      url: 'text',
    },
  },
  mitigations: {
    table: 'mitigations',
    stamped: true,
    columns: { id: 'uuid', stix_id: 'text', external_id: 'text', name: 'text', description: 'text', deprecated: 'boolean' },
  },
  threatActors: {
    table: 'threat_actors',
    stamped: true,
    columns: {
      id: 'uuid',
      stix_id: 'text',
      external_id: 'text',
      name: 'text',
      aliases: 'text[]',
      description: 'text',
      motivation: 'text',
      motivations: 'text[]',
      country: 'text',
      revoked: 'boolean',
      deprecated: 'boolean',
      attack_modified: 'timestamptz',
    },
  },
  software: {
    table: 'software',
    stamped: true,
    columns: {
      id: 'uuid',
      stix_id: 'text',
      external_id: 'text',
      kind: '"SoftwareKind"',
      name: 'text',
      aliases: 'text[]',
      description: 'text',
      platforms: 'text[]',
      revoked: 'boolean',
      deprecated: 'boolean',
      attack_modified: 'timestamptz',
    },
  },
  techniqueMitigations: {
    table: 'technique_mitigations',
    stamped: false,
    columns: { stix_id: 'text', technique_id: 'uuid', mitigation_id: 'uuid', description: 'text' },
  },
  actorTechniques: {
    table: 'threat_actor_techniques',
    stamped: false,
    columns: { id: 'uuid', stix_id: 'text', actor_id: 'uuid', technique_id: 'uuid', procedure: 'text' },
  },
} as const satisfies Record<string, TableShape>;

const quote = (name: string) => `"${name}"`;
const recordset = (shape: TableShape) =>
  `jsonb_to_recordset($1::jsonb) AS x(${Object.entries(shape.columns)
    .map(([name, type]) => `${quote(name)} ${type}`)
    .join(', ')})`;

export const chunks = <T>(items: readonly T[], size = BATCH_ROWS): T[][] => batchesOf(items, size);

/** Inserts the rows (every column of the shape). */
export async function insertRows(db: Db, shape: TableShape, rows: readonly Row[]): Promise<void> {
  const columns = Object.keys(shape.columns).map(quote);
  const target = shape.stamped ? [...columns, quote('updated_at')] : columns;
  const values = shape.stamped ? [...columns.map((column) => `x.${column}`), 'now()'] : columns.map((column) => `x.${column}`);
  const sql = `INSERT INTO ${quote(shape.table)} (${target.join(', ')}) SELECT ${values.join(', ')} FROM ${recordset(shape)}`;
  for (const batch of chunks(rows)) await db.$executeRawUnsafe(sql, JSON.stringify(batch));
}

/** Updates every column of the shape but the key on the rows matching `key`, and stamps updated_at. */
export async function updateRows(db: Db, shape: TableShape, key: string, rows: readonly Row[]): Promise<void> {
  const assignments = Object.keys(shape.columns)
    .filter((column) => column !== key)
    .map((column) => `${quote(column)} = x.${quote(column)}`);
  if (shape.stamped) assignments.push(`${quote('updated_at')} = now()`);
  const sql = `UPDATE ${quote(shape.table)} AS t SET ${assignments.join(', ')} FROM ${recordset(shape)} WHERE t.${quote(key)} = x.${quote(key)}`;
  for (const batch of chunks(rows)) await db.$executeRawUnsafe(sql, JSON.stringify(batch));
}

/** Deletes the rows whose text column `key` is one of `values`. */
export async function deleteRows(db: Db, shape: TableShape, key: string, values: readonly string[]): Promise<void> {
  const sql = `DELETE FROM ${quote(shape.table)} WHERE ${quote(key)} IN (SELECT jsonb_array_elements_text($1::jsonb))`;
  for (const batch of chunks(values)) await db.$executeRawUnsafe(sql, JSON.stringify(batch));
}
