import type { Db } from '../../db/client.ts';
import type { AuditInput, SyncRunRecorder } from '../../db/unit-of-work.ts';

/** What a run's committed batches wrote: by kind of item (the audit entry's entity type), by change. */
export type Committed = Record<string, Record<string, number>>;

/** The words importers use in their per-batch audit entries for a write, and what each counts. */
const CHANGE_WORDS = ['created', 'updated', 'removed', 'deactivated', 'reactivated'] as const;

/** The changes one audit entry reports: `{ created: 500 }` or `{ updated: ['D3-X', …] }` count 500 or the list's length. */
export function changesOf(entry: AuditInput): Record<string, number> {
  const details = entry.details;
  if (!details || typeof details !== 'object' || Array.isArray(details)) return {};
  const counted: Record<string, number> = {};
  for (const word of CHANGE_WORDS) {
    const value = (details as Record<string, unknown>)[word];
    const count = typeof value === 'number' ? value : Array.isArray(value) ? value.length : 0;
    if (count) counted[word] = count;
  }
  return counted;
}

export function addCommitted(total: Committed, more: Committed): Committed {
  const sum: Committed = structuredClone(total);
  for (const [kind, changes] of Object.entries(more)) {
    const into = (sum[kind] ??= {});
    for (const [word, count] of Object.entries(changes)) into[word] = (into[word] ?? 0) + count;
  }
  return sum;
}

/**
 * The recorder of one sync run: every audit entry its importer writes adds its counts to the run's `committed`,
 * in the same transaction as the batch, so a run whose process dies still says exactly what it wrote.
 */
export function committedRecorder(runId: string): SyncRunRecorder {
  return {
    id: runId,
    async record(tx: Db, entry: AuditInput) {
      const changes = changesOf(entry);
      if (!Object.keys(changes).length) return;
      const run = await tx.dataSourceRun.findUniqueOrThrow({ where: { id: runId }, select: { committed: true } });
      const committed = addCommitted((run.committed ?? {}) as Committed, { [entry.entityType]: changes });
      await tx.dataSourceRun.update({ where: { id: runId }, data: { committed } });
    },
  };
}
