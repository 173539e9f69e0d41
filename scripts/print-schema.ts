/**
 * Writes schema.graphql, the reviewed contract of the API; test/schema.test.ts fails when it is stale.
 *
 *   npm run schema:print
 */
import { writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { lexicographicSortSchema, printSchema } from 'graphql';
import { schema } from '../src/graphql/schema.ts';

export const schemaFile = fileURLToPath(new URL('../schema.graphql', import.meta.url));

/** The schema as SDL, sorted so that the order in which modules register types does not matter. */
export const printedSchema = () => `${printSchema(lexicographicSortSchema(schema))}\n`;

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  await writeFile(schemaFile, printedSchema(), 'utf8');
  console.log('Wrote schema.graphql');
}
