import type { ArgBuilder, ObjectRef } from '@pothos/core';
import { builder, type SchemaTypes } from './builder.ts';
import { page, parseInput } from '../validation.ts';
import { pagedCost, pageItemsCost, type PageLimits } from './cost.ts';

export interface Page<T> {
  items: T[];
  total: number;
  offset: number;
  limit: number;
  /** Keyset pages: false when `total` is an estimate (src/db/page-totals.ts). */
  totalExact?: boolean;
  /** Keyset pages: where the next page starts (its `after`), null on the last page. */
  nextCursor?: string | null;
}

/**
 * An offset page of `item`: `{ items, total, offset, limit }`, the shape of every paginated list. A keyset page
 * (a list of a table that grows without bound) adds `totalExact` and `nextCursor`, the `after` of its next page.
 */
// biome-ignore lint/suspicious/noExplicitAny: Pothos object refs of any shape
export function pageType<T>(name: string, item: ObjectRef<any, T>, options: { keyset?: boolean } = {}) {
  return builder.objectRef<Page<T>>(name).implement({
    fields: (t) => ({
      items: t.field({ type: [item], complexity: pageItemsCost, resolve: (page) => page.items }),
      total: t.exposeInt('total', {
        description: options.keyset
          ? 'Number of matching records across all pages: exact up to 10,000, an estimate beyond (see totalExact).'
          : 'Number of matching records across all pages.',
      }),
      offset: t.exposeInt('offset'),
      limit: t.exposeInt('limit'),
      ...(options.keyset
        ? {
            totalExact: t.boolean({
              description: 'False when more than 10,000 records match and total is an estimate.',
              resolve: (page) => page.totalExact ?? true,
            }),
            nextCursor: t.string({
              nullable: true,
              description: 'Pass as `after` for the page that follows this one; null on the last page.',
              resolve: (page) => page.nextCursor ?? null,
            }),
          }
        : {}),
    }),
  });
}

/** `offset`/`limit` of a list relation, checked against its page limits (400 VALIDATION_ERROR beyond them). */
export function sliceOfPage<T>(
  list: readonly T[],
  args: { offset?: number | null; limit?: number | null },
  limits: { defaultLimit: number; maxLimit: number },
): T[] {
  const { offset, limit } = parseInput(page(limits.defaultLimit, limits.maxLimit), {
    offset: args.offset ?? 0,
    limit: args.limit ?? limits.defaultLimit,
  });
  return list.slice(offset, offset + limit);
}

/** The `offset` and `limit` arguments of a paged list field (`args: { ...pageArgs(t.arg) }`); `pagingOf` reads them. */
export const pageArgs = (arg: ArgBuilder<SchemaTypes>) => ({ offset: arg.int({ required: false }), limit: arg.int({ required: false }) });

/**
 * The `offset` (default 0) and `limit` (default and maximum of `page`) arguments of a list field whose resolver pages
 * what it loaded (`sliceOfPage`); its cost is `pagedCost(page)`.
 */
export const slicedPageArgs = (arg: ArgBuilder<SchemaTypes>, page: PageLimits) => ({
  offset: arg.int({ required: false, defaultValue: 0 }),
  limit: arg.int({ required: false, defaultValue: page.defaultLimit, description: `At most ${page.maxLimit}.` }),
});

/** A field's optional `offset` and `limit` arguments as a service's paging input (null means "the default"). */
export const pagingOf = (args: { offset?: number | null; limit?: number | null }) => ({
  offset: args.offset ?? undefined,
  limit: args.limit ?? undefined,
});

/** How a list pages, in words: `offset default 0, limit default 50, max 200`, in the names its caller uses. */
export function pagingWords(page: PageLimits, names: { offset?: string; limit: string } = { offset: 'offset', limit: 'limit' }): string {
  const offset = names.offset ? `${names.offset} default 0, ` : '';
  return `${offset}${names.limit} default ${page.defaultLimit}, max ${page.maxLimit}`;
}

/**
 * The cost and the description of a paged list field, both from its page limits: `...pagedList(ALERT_PAGE, 'Alerts,
 * newest first')`. The cost carries the limits to the cost analysis and to the OpenAPI bounds of `limit`; the
 * description ends with them in words, or places them where a function puts them. `offset: false` for a list that
 * takes only a limit.
 */
export function pagedList(
  page: PageLimits,
  description: string | ((paging: string) => string),
  options: { offset?: boolean; argument?: string } = {},
) {
  const argument = options.argument ?? 'limit';
  const paging = pagingWords(page, { offset: options.offset === false ? undefined : 'offset', limit: argument });
  return {
    complexity: pagedCost(page, argument),
    description: typeof description === 'function' ? description(paging) : `${description} (${paging}).`,
  };
}
