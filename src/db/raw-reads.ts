import pg from 'pg';
import type { Prisma } from '../generated/prisma/client.ts';

/**
 * Hand-written reads run on the `pg` pool that Prisma's driver adapter uses, without Prisma in between. Through
 * `$queryRaw` a page of 50 tests cost about 0.4 ms more CPU than the same statement on the pool: Prisma's adapter
 * makes each row an array of strings, then its deserialiser makes the objects and their dates again (docs/benchmark.md).
 * Used only where a read is hot and its SQL is written out already: the page of tests (src/modules/test-runs/page-reads.ts)
 * and the catalog's version read before every catalog read (src/graphql/catalog-cache.ts).
 */
export type RawReader = <Row extends Record<string, unknown>>(sql: Prisma.Sql) => Promise<Row[]>;

/** The built-in types a raw read may answer, by OID, each given as `$queryRaw` gives it (below). */
const KNOWN_TYPES = new Set([
  16, // bool
  20, // int8: a bigint
  21, // int2
  23, // int4
  25, // text
  114, // json
  1009, // text[]
  1015, // varchar[]
  1043, // varchar
  1184, // timestamptz: a Date
  2950, // uuid: its text
  3802, // jsonb
]);

/** OIDs from here on are the database's own types: the schema's enums, read as their labels. */
const FIRST_USER_OID = 16_384;

/** pg's parsers, which give what `$queryRaw` gives for these types, except int8: pg gives its text, Prisma a bigint. */
const types = {
  getTypeParser: (oid: number, format?: string) =>
    oid === 20 && format === 'text' ? BigInt : pg.types.getTypeParser(oid, format as 'text'),
};

/**
 * A column of a type this file does not map as Prisma does (a timestamp without a time zone would be read in the
 * process's zone, a numeric as text) is a programming error, refused before any value is used.
 */
function checkTypes(fields: pg.FieldDef[]): void {
  for (const { name, dataTypeID } of fields) {
    if (dataTypeID < FIRST_USER_OID && !KNOWN_TYPES.has(dataTypeID)) {
      throw new Error(`A raw read answered column "${name}" of type ${dataTypeID}, which it does not map`);
    }
  }
}

/** A reader on `pool`; `names` names its statements so that each connection prepares them once. */
export function rawReader(pool: pg.Pool, names?: (query: { sql: string }) => string): RawReader {
  return async <Row extends Record<string, unknown>>(sql: Prisma.Sql) => {
    const result = await pool.query<Row>({ name: names?.({ sql: sql.text }), text: sql.text, values: sql.values, types });
    checkTypes(result.fields);
    return result.rows;
  };
}
