import type { Actor } from '../db/unit-of-work.ts';
import type { Logger } from '../logger.ts';
import type { Services } from '../services.ts';

/** What an importer is given: where to read, and on whose behalf it writes (audit entries, events). */
export interface ImportContext {
  services: Services;
  /** http(s) URL, file: URL or local path of the source. */
  location: string;
  /**
   * Writes go through `inTransaction(services, actor, …)` with this actor, one audit entry per committed batch
   * saying what it wrote (`details: { created | updated | removed | deactivated: count or ids }`): during a sync
   * the actor carries the run, so each entry names it and counts on the run's `committed` (data-sources/progress.ts).
   */
  actor: Actor;
  log: Logger;
}

/**
 * What an import did. `counts`: items the catalog holds from this source afterwards, by kind of item
 * (e.g. `{ techniques: 216, sub_techniques: 475, tactics: 14 }`). `changes`: by kind of item, the number
 * (or, for short lists, the ids) of new, updated, unchanged, revoked … items (e.g.
 * `{ techniques: { new: 12, updated: 739, unchanged: 84 } }`). An import is idempotent: a second run of the
 * same data reports nothing new or updated.
 */
export interface ImportReport {
  counts: Record<string, number>;
  changes: Record<string, Record<string, number | string[]>>;
}

export type Importer = (context: ImportContext) => Promise<ImportReport>;
