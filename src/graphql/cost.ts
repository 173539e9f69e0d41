import type { FieldComplexityValue } from '@pothos/plugin-complexity';
import { getNamedType, isLeafType, isListType, isNonNullType, type GraphQLField, type GraphQLOutputType } from 'graphql';
import { sizeClassOf, TEXT_COST } from './text-size.ts';

/**
 * Field costs for the complexity analysis (docs/graphql-limits.md): the cost of an operation is the work and the
 * bytes its answer can hold, at most. A list of N items costs N plus N times the cost of its selection (nested lists
 * multiply); N is the page size asked for (within the page maximum) or the hard cap of an unpaginated list. A leaf
 * costs 1, a text field the cost of its size class (`text-size.ts`). Costs are computed before execution, from the
 * document and its variables.
 */

/** Context key set when a document's cost is computed for any variables (the REST documents at start-up). */
export const WORST_CASE = 'worstCaseCost';

export type PageLimits = { readonly defaultLimit: number; readonly maxLimit: number };
type CostFunction = (args: Record<string, unknown>, context: object) => FieldComplexityValue;

/** The cost of a paged field, which also states its page limits (the OpenAPI document reads them from here). */
export type PagedCost = CostFunction & PagedField;

function isWorstCase(context: object): boolean {
  return (context as Record<string, unknown>)[WORST_CASE] === true;
}

/** The page size a `limit` argument asks for, within 0 … maxLimit: the list's multiplier. */
function requestedPageSize(limit: unknown, page: PageLimits): number {
  const asked = typeof limit === 'number' && Number.isFinite(limit) ? limit : page.defaultLimit;
  return Math.min(Math.max(asked, 0), page.maxLimit);
}

/** A field with a `limit` argument returning a list or a page: it counts the requested items, and its selection once per item. */
export function pagedCost(page: PageLimits, argument = 'limit'): PagedCost {
  const cost: CostFunction = (args, context) => {
    const items = isWorstCase(context) ? page.maxLimit : requestedPageSize(args[argument], page);
    return { field: items, multiplier: items };
  };
  return Object.assign(cost, { page, pageArgument: argument });
}

/** What a paged field's cost tells of its page argument (read by the OpenAPI document for the bounds of `limit`). */
export interface PagedField {
  page: PageLimits;
  pageArgument: string;
}

/** The page limits of a field whose cost is `pagedCost`, from its complexity extension. */
export function pageLimitsOf(extensions: { complexity?: unknown } | undefined | null): PagedField | null {
  const cost = extensions?.complexity;
  return typeof cost === 'function' && 'page' in cost ? (cost as unknown as PagedField) : null;
}

/** A list capped at `cap` items, whatever the data: it counts `cap` items, and its selection `cap` times. */
export function cappedListCost(cap: number): FieldComplexityValue {
  return { field: cap, multiplier: cap };
}

/** The items of a page: the field returning the page already counted them and multiplies their selection. */
export const pageItemsCost: FieldComplexityValue = { field: 0, multiplier: 1 };

/**
 * The multiplier of a list that declares no bound: high enough that a list of objects without one cannot nest, so a
 * forgotten bound shows at once (a test also requires every list of objects to declare one).
 */
export const UNDECLARED_LIST_MULTIPLIER = 1000;

/** What a list of leaves (tags, platforms, ids) counts: its items are bounded by the write side, not by a page. */
const LEAF_LIST_ITEMS = 20;

function isList(type: GraphQLOutputType): boolean {
  return isNonNullType(type) ? isList(type.ofType) : isListType(type);
}

/** The cost of a field that declares none: a leaf by its size class, an object 1, a list of objects an undeclared bound. */
export function defaultFieldCost<TContext>(
  _args: unknown,
  _context: TContext,
  field: GraphQLField<unknown, TContext, never>,
): FieldComplexityValue {
  const named = getNamedType(field.type);
  if (!isLeafType(named)) return isList(field.type) ? { field: 1, multiplier: UNDECLARED_LIST_MULTIPLIER } : 1;
  const cost = TEXT_COST[sizeClassOf(named.name, field.name)];
  return isList(field.type) ? cost * LEAF_LIST_ITEMS : cost;
}
