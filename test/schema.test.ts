import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { printedSchema, schemaFile } from '../scripts/print-schema.ts';

describe('schema.graphql', () => {
  it('matches the schema the code builds (a schema change must be declared)', async () => {
    const committed = await readFile(schemaFile, 'utf8').catch(() => '');
    const message = 'schema.graphql is out of date: run `npm run schema:print` and commit the result';
    expect(committed, message).toBe(printedSchema());
  });
});
