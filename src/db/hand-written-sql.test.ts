import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { handWrittenStatements } from './hand-written-sql.ts';

const migrations = new URL('../../prisma/migrations/', import.meta.url);
const migration = (suffix: string) => {
  const name = readdirSync(migrations).find((candidate) => candidate.endsWith(suffix))!;
  return readFileSync(new URL(`${name}/migration.sql`, migrations), 'utf8');
};

describe('hand-written SQL in migrations', () => {
  it('finds the functions and triggers behind MTTD and MTTR', () => {
    const found = handWrittenStatements(migration('_operational_outcomes'));
    expect(found.map((statement) => statement.what)).toEqual(expect.arrayContaining(['a function', 'a trigger']));
    expect(found.find((statement) => statement.text.startsWith('CREATE FUNCTION "test_outcome"'))).toBeDefined();
  });

  it('finds the generated full-text columns of playbooks and lessons learned', () => {
    const found = handWrittenStatements(migration('_knowledge_base'));
    expect(found.map(({ what, text }) => [what, text])).toEqual([
      ['a generated column', '"search_vector" tsvector GENERATED ALWAYS AS ('],
      ['a generated column', '"search_vector" tsvector GENERATED ALWAYS AS ('],
    ]);
  });

  it('finds nothing in a migration the schema diff generated', () => {
    expect(handWrittenStatements(migration('_processed_events'))).toEqual([]);
  });

  it('names views, code blocks and data changes, and ignores comments', () => {
    const sql = [
      '-- CREATE FUNCTION in a comment',
      'CREATE OR REPLACE VIEW "v" AS SELECT 1;',
      'DO $$ BEGIN END $$;',
      'UPDATE "tests" SET state = \'draft\';',
      'CREATE TABLE "t" ("id" UUID);',
      '"id" INTEGER GENERATED ALWAYS AS IDENTITY,',
      '"doubled" INTEGER GENERATED ALWAYS AS ("n" * 2) STORED,',
    ].join('\n');
    expect(handWrittenStatements(sql)).toEqual([
      { line: 2, what: 'a view', text: 'CREATE OR REPLACE VIEW "v" AS SELECT 1;' },
      { line: 3, what: 'an anonymous code block', text: 'DO $$ BEGIN END $$;' },
      { line: 4, what: 'a data change', text: 'UPDATE "tests" SET state = \'draft\';' },
      { line: 7, what: 'a generated column', text: '"doubled" INTEGER GENERATED ALWAYS AS ("n" * 2) STORED,' },
    ]);
  });
});
