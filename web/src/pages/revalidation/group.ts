/** Adjacent entries of one technique (the queue is ordered by the technique's risk) as one group. */
export function groupByTechnique<E>(entries: readonly E[], keyOf: (entry: E) => string): { key: string; entries: E[] }[] {
  const groups: { key: string; entries: E[] }[] = [];
  for (const entry of entries) {
    const last = groups.at(-1);
    if (last && last.key === keyOf(entry)) last.entries.push(entry);
    else groups.push({ key: keyOf(entry), entries: [entry] });
  }
  return groups;
}
