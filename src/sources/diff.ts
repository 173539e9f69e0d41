/** JSON with sorted keys (undefined as null): jsonb does not keep key order, so stored and parsed values compare by content. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([key, inner]) => `${JSON.stringify(key)}:${canonicalJson(inner)}`).join(',')}}`;
  }
  return JSON.stringify(value ?? null);
}

/** Whether a stored row and the item a source gives differ in any of `fields` (JSON compared by content). */
export const differsIn = <F extends string>(
  fields: readonly F[],
  stored: Partial<Record<F, unknown>>,
  parsed: Partial<Record<F, unknown>>,
) => fields.some((field) => canonicalJson(stored[field]) !== canonicalJson(parsed[field]));

/** `items` cut into batches of at most `size`: an importer writes each batch in a transaction of its own. */
export function chunks<T>(items: readonly T[], size: number): T[][] {
  const result: T[][] = [];
  for (let start = 0; start < items.length; start += size) result.push(items.slice(start, start + size));
  return result;
}

/** What an import did to one kind of item. */
export interface Change {
  new: number;
  updated: number;
  unchanged: number;
  removed: number;
}

/** The change for a source of `total` items, `created` of them new and `updated` differing, and `removed` stored items gone. */
export const changeOf = (total: number, created: number, updated: number, removed: number): Change => ({
  new: created,
  updated,
  unchanged: total - created - updated,
  removed,
});
