/** Field-by-field comparison of what the catalog stores with what the source says. */

const same = (stored: unknown, incoming: unknown): boolean => {
  if (stored instanceof Date || incoming instanceof Date) {
    const time = (value: unknown) => (value instanceof Date ? value.getTime() : value == null ? null : new Date(value as string).getTime());
    return time(stored) === time(incoming);
  }
  if (Array.isArray(stored) || Array.isArray(incoming)) {
    const a = (stored ?? []) as unknown[];
    const b = (incoming ?? []) as unknown[];
    return a.length === b.length && a.every((item, index) => item === b[index]);
  }
  return (stored ?? null) === (incoming ?? null);
};

/** The fields (of `fields`) whose stored value differs from the incoming one. */
export function changedFields<T extends object>(
  stored: { [K in keyof T]?: unknown },
  incoming: T,
  fields: readonly (keyof T)[],
): (keyof T)[] {
  return fields.filter((field) => !same(stored[field], incoming[field]));
}

/** What a sync will do with one kind of item. */
export interface KindPlan<R> {
  inserts: R[];
  updates: R[];
  unchanged: number;
}

export const emptyPlan = <R>(): KindPlan<R> => ({ inserts: [], updates: [], unchanged: 0 });

export const summary = (plan: KindPlan<unknown>) => ({ new: plan.inserts.length, updated: plan.updates.length, unchanged: plan.unchanged });

/**
 * Matches incoming records to stored rows by STIX id and sorts them into inserts (given a fresh id),
 * updates (some compared field differs) and unchanged ones.
 */
export function planByStixId<R extends { stixId: string }, S extends { id: string; stixId: string | null }>(
  incoming: readonly R[],
  stored: readonly S[],
  fields: readonly (keyof R)[],
  newId: () => string,
): KindPlan<R & { id: string }> & { idByStixId: Map<string, string> } {
  const byStixId = new Map(stored.filter((row) => row.stixId).map((row) => [row.stixId!, row]));
  const plan = { ...emptyPlan<R & { id: string }>(), idByStixId: new Map<string, string>() };
  for (const record of incoming) {
    if (plan.idByStixId.has(record.stixId)) continue;
    const row = byStixId.get(record.stixId);
    const id = row?.id ?? newId();
    plan.idByStixId.set(record.stixId, id);
    if (!row) plan.inserts.push({ ...record, id });
    else if (changedFields(row as { [K in keyof R]?: unknown }, record, fields).length) plan.updates.push({ ...record, id });
    else plan.unchanged += 1;
  }
  for (const row of stored) if (row.stixId && !plan.idByStixId.has(row.stixId)) plan.idByStixId.set(row.stixId, row.id);
  return plan;
}
