import { z } from 'zod';
import type { PrismaClient } from './client.ts';
import { ValidationError } from '../errors.ts';

/**
 * Most matches a list counts exactly. Counting stops one row past it, so the count reads at most this many index
 * entries (a few milliseconds) however large the table grows; `count(*)` over 100,000 tests was 25 ms of a 30 ms page.
 */
export const EXACT_TOTAL_MAX = 10_000;

export interface PageTotal {
  total: number;
  /** False when more than EXACT_TOTAL_MAX rows match and `total` is an estimate. */
  totalExact: boolean;
}

/**
 * Without a filter, a table whose statistics hold at least this many rows is not counted: its total is the estimate.
 * The count, which stops at EXACT_TOTAL_MAX + 1, could only say "more than 10,000", which statistics four times
 * larger already say; it was one of the page's two statements and most of the database's work for it (10,001 index
 * entries, 1–2 ms). Statistics that large over a table of 10,000 rows or fewer would need three quarters of its rows
 * deleted since PostgreSQL last analysed it (autovacuum does once a tenth has changed): until then such a list says
 * "about N" (not exact), never a wrong exact total, and a short page still tells its exact total (`totalOfPage`).
 */
export const ESTIMATE_ALONE_FROM = 4 * EXACT_TOTAL_MAX;

/**
 * The total of a list page: exact up to EXACT_TOTAL_MAX matches; beyond that an estimate, flagged. Without a filter
 * the estimate is the table's row count from PostgreSQL's statistics (kept by ANALYZE and autovacuum), and from
 * ESTIMATE_ALONE_FROM rows nothing is counted; with one it is EXACT_TOTAL_MAX + 1, a lower bound ("more than
 * 10,000"), since a filter's share of the table is not known without counting it.
 */
export async function pageTotal(
  prisma: PrismaClient,
  countUpTo: (take: number) => Promise<number>,
  estimate: { table: string; filtered: boolean },
): Promise<PageTotal> {
  const rows = estimate.filtered ? 0 : await estimatedRows(prisma, estimate.table);
  if (rows >= ESTIMATE_ALONE_FROM) return { total: rows, totalExact: false };
  const counted = await countUpTo(EXACT_TOTAL_MAX + 1);
  if (counted <= EXACT_TOTAL_MAX) return { total: counted, totalExact: true };
  if (estimate.filtered) return { total: counted, totalExact: false };
  return { total: Math.max(counted, await estimatedRows(prisma, estimate.table, counted)), totalExact: false };
}

/** How long a table's estimated row count is reused: PostgreSQL's statistics change at ANALYZE, minutes apart. */
export const ESTIMATE_TTL_MS = 10_000;

const estimates = new WeakMap<PrismaClient, Map<string, { rows: number; until: number }>>();

/**
 * The table's row count from PostgreSQL's statistics, read at most once per ESTIMATE_TTL_MS per database client,
 * unless a count found more rows than the statistics read before it said (`atLeast`): they may have changed since.
 */
async function estimatedRows(prisma: PrismaClient, table: string, atLeast = 0): Promise<number> {
  let tables = estimates.get(prisma);
  if (!tables) estimates.set(prisma, (tables = new Map()));
  const now = performance.now();
  const kept = tables.get(table);
  if (kept && kept.until > now && kept.rows >= atLeast) return kept.rows;
  const [row] = await prisma.$queryRaw<{ rows: number | null }[]>`
    SELECT reltuples::float8 AS rows FROM pg_class WHERE oid = to_regclass(${table})`;
  const rows = Math.max(0, Math.round(row?.rows ?? 0));
  tables.set(table, { rows, until: now + ESTIMATE_TTL_MS });
  return rows;
}

/**
 * The total of an offset page that agrees with the page. The rows and their count are two statements, each reading the
 * database as it is when it runs, so a row committed or removed between them could give a page that contradicts its
 * total ("total 1" and no item). The page decides: one shorter than its limit ends the list, so it tells the total
 * itself; an empty page past the start says at most `offset` rows match; a full page says at least `offset + limit`.
 * A short page also makes an estimated total exact.
 */
export function totalOfPage(counted: PageTotal, page: { offset: number; limit: number; found: number }): PageTotal {
  const { offset, limit, found } = page;
  if (found < limit && (found > 0 || offset === 0)) return { total: offset + found, totalExact: true };
  if (found === 0) return { total: Math.min(counted.total, offset), totalExact: counted.totalExact };
  return { total: Math.max(counted.total, offset + found), totalExact: counted.totalExact };
}

/** `totalOfPage` of an exact count: the total, agreeing with a page of `found` rows. */
export const countOfPage = (counted: number, page: { offset: number; limit: number; found: number }): number =>
  totalOfPage({ total: counted, totalExact: true }, page).total;

/**
 * One offset page of a list: its rows and their count, read side by side, with a total that agrees with the rows
 * (`totalOfPage`).
 */
export async function pageOf<T>(
  paging: { offset: number; limit: number },
  [rows, count]: [PromiseLike<T[]>, PromiseLike<number>],
): Promise<{ items: T[]; total: number; offset: number; limit: number }> {
  const [items, counted] = await Promise.all([rows, count]);
  return { items, total: countOfPage(counted, { ...paging, found: items.length }), offset: paging.offset, limit: paging.limit };
}

/** Where a keyset page of a list ordered by (createdAt desc, id desc) starts: just after this row. */
export interface Keyset {
  createdAt: Date;
  id: string;
}

/** The opaque cursor of a row: base64url of its creation time (milliseconds, as stored) and id. */
export const cursorOf = (row: Keyset): string => Buffer.from(`${row.createdAt.toISOString()}|${row.id}`).toString('base64url');

const cursorText = z.tuple([z.iso.datetime(), z.guid()]);

/** Reads a cursor from `cursorOf`; anything else is a 400 naming the argument. */
export function keysetOf(cursor: string, field = 'after'): Keyset {
  const parsed = cursor.length <= 200 ? cursorText.safeParse(Buffer.from(cursor, 'base64url').toString('utf8').split('|')) : null;
  if (!parsed?.success) throw new ValidationError(field, 'must be the nextCursor (next_cursor) of an earlier page');
  return { createdAt: new Date(parsed.data[0]), id: parsed.data[1] };
}
