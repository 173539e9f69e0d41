import { Prisma } from '../generated/prisma/client.ts';
import type { Db } from './client.ts';

/** Tables whose rows are locked by id before a contested change. */
export type LockableTable =
  | 'attack_path_executions'
  | 'attack_paths'
  | 'campaigns'
  | 'lessons_learned'
  | 'playbooks'
  | 'test_templates'
  | 'tests';

const CLAUSES = { update: 'FOR UPDATE', share: 'FOR SHARE', noKeyUpdate: 'FOR NO KEY UPDATE' } as const;

/**
 * Locks one row by id for the rest of the transaction and says whether it exists. Read the row again after
 * this: a concurrent change of it has then committed, and the next one waits for this transaction.
 */
export async function lockRow(tx: Db, table: LockableTable, id: string, mode: keyof typeof CLAUSES = 'update'): Promise<boolean> {
  const locked = await tx.$queryRaw<{ id: string }[]>(
    Prisma.sql`SELECT id FROM ${Prisma.raw(table)} WHERE id = ${id}::uuid ${Prisma.raw(CLAUSES[mode])}`,
  );
  return locked.length > 0;
}
