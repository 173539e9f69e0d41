import { z } from 'zod';
import type { Db } from '../../db/client.ts';
import { Prisma } from '../../generated/prisma/client.ts';

/**
 * A `search` filter: web-search syntax (words, "quoted phrases", or, -excluded), parsed by PostgreSQL's
 * websearch_to_tsquery, which accepts any text. Empty or blank means no search.
 */
export const searchText = z
  .string()
  .trim()
  .max(200, 'must be at most 200 characters')
  .transform((text) => text || null);

/**
 * Full-text matching against a table's generated `search_vector` (title weighted A). Used as
 * `FROM <table> <alias> CROSS JOIN ${query} … WHERE ${matches} ORDER BY ${ranking}`: title matches come first,
 * then the rest by ts_rank, so a word in a title always outranks the same word in the body.
 */
export function fullText(alias: string, text: string) {
  const vector = Prisma.raw(`${alias}.search_vector`);
  return {
    query: Prisma.sql`websearch_to_tsquery('english', ${text}) AS q`,
    matches: Prisma.sql`${vector} @@ q`,
    ranking: Prisma.sql`ts_filter(${vector}, '{a}') @@ q DESC, ts_rank(${vector}, q) DESC`,
  };
}

/** One page of ids from `table` matching `text` and `filters`, best match first, with the number of matches. */
export async function rankedPage(
  db: Db,
  table: 'playbooks' | 'lessons_learned',
  text: string,
  filters: Prisma.Sql[],
  tieBreak: Prisma.Sql,
  { offset, limit }: { offset: number; limit: number },
): Promise<{ ids: string[]; total: number }> {
  const search = fullText('t', text);
  const from = Prisma.sql`${Prisma.raw(table)} t CROSS JOIN ${search.query}`;
  const where = Prisma.join([search.matches, ...filters], ' AND ');
  const [rows, [{ total }]] = await Promise.all([
    db.$queryRaw<
      { id: string }[]
    >`SELECT t.id FROM ${from} WHERE ${where} ORDER BY ${search.ranking}, ${tieBreak} OFFSET ${offset} LIMIT ${limit}`,
    db.$queryRaw<{ total: number }[]>`SELECT count(*)::int AS total FROM ${from} WHERE ${where}`,
  ]);
  return { ids: rows.map((row) => row.id), total };
}

/** `rows` in the order of `ids` (rows fetched with `id IN (…)` come back in any order). */
export function inOrderOf<T extends { id: string }>(ids: readonly string[], rows: readonly T[]): T[] {
  const byId = new Map(rows.map((row) => [row.id, row]));
  return ids.flatMap((id) => byId.get(id) ?? []);
}
