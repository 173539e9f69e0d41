import { inTransaction, type Actor, type TransactionDeps, type TransactionOptions, type UnitOfWork } from '../db/unit-of-work.ts';
import { chunks } from './diff.ts';

/** How many items a batch holds at most, and the transaction options of each batch. */
export interface BatchOptions extends TransactionOptions {
  size: number;
}

/** Runs `work` over `items` in batches of at most `size`, each batch in a transaction of its own (with its audit entry). */
export async function inBatches<T>(
  deps: TransactionDeps,
  actor: Actor,
  items: readonly T[],
  { size, ...options }: BatchOptions,
  work: (uow: UnitOfWork, batch: T[]) => Promise<void>,
): Promise<void> {
  for (const batch of chunks(items, size)) await inTransaction(deps, actor, (uow) => work(uow, batch), options);
}
