import { z } from 'zod';
import type { Db } from '../../db/client.ts';
import { Prisma } from '../../generated/prisma/client.ts';
import { pageOf } from '../../db/page-totals.ts';

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
 * Full-text matching against the generated `search_vector` of the table aliased `t`: title matches come first
 * (their lexemes carry weight A), then the rest by ts_rank, so a word in a title always outranks the same word
 * elsewhere.
 */
const SEARCH = {
  matches: Prisma.sql`t.search_vector @@ q`,
  ranking: Prisma.sql`ts_filter(t.search_vector, '{a}') @@ q DESC, ts_rank(t.search_vector, q) DESC`,
};

/**
 * One page of ids from `table` (aliased `t` in `filters` and `tieBreak`) matching `text` and the filters, best match
 * first, with the number of matches.
 */
export async function rankedPage(
  db: Db,
  table: 'playbooks' | 'lessons_learned',
  text: string,
  filters: Prisma.Sql[],
  tieBreak: Prisma.Sql,
  { offset, limit }: { offset: number; limit: number },
): Promise<{ ids: string[]; total: number }> {
  const from = Prisma.sql`${Prisma.raw(table)} t CROSS JOIN websearch_to_tsquery('english', ${text}) AS q`;
  const where = Prisma.join([SEARCH.matches, ...filters], ' AND ');
  const { items, total } = await pageOf({ offset, limit }, [
    db.$queryRaw<
      { id: string }[]
    >`SELECT t.id FROM ${from} WHERE ${where} ORDER BY ${SEARCH.ranking}, ${tieBreak} OFFSET ${offset} LIMIT ${limit}`,
    db.$queryRaw<{ total: number }[]>`SELECT count(*)::int AS total FROM ${from} WHERE ${where}`.then(([row]) => row?.total ?? 0),
  ]);
  return { ids: items.map((row) => row.id), total };
}

/** `rows` in the order of `ids` (rows fetched with `id IN (…)` come back in any order). */
export function inOrderOf<T extends { id: string }>(ids: readonly string[], rows: readonly T[]): T[] {
  const byId = new Map(rows.map((row) => [row.id, row]));
  return ids.flatMap((id) => byId.get(id) ?? []);
}
