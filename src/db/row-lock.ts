import { Prisma } from '../generated/prisma/client.ts';
import { NotFoundError } from '../errors.ts';
import { assertUuid } from '../validation.ts';
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

/**
 * Locks the row of `entity` by id (see `lockRow`) and re-reads it with `read`: the contested-row pattern. An id
 * that is not a UUID, or names no row, is a 404.
 */
export async function lockAndRead<T>(
  tx: Db,
  table: LockableTable,
  entity: string,
  id: string,
  read: () => Promise<T | null>,
  mode: keyof typeof CLAUSES = 'update',
): Promise<T> {
  assertUuid(entity, id);
  const row = (await lockRow(tx, table, id, mode)) ? await read() : null;
  if (!row) throw new NotFoundError(entity, id);
  return row;
}
