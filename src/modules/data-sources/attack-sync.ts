import type { Actor } from '../../db/unit-of-work.ts';
import type { Services } from '../../services.ts';
import { syncDataSource } from './sync.ts';

export interface SyncTtpResult {
  message: string;
  /** New techniques and sub-techniques. */
  new: number;
  /** Techniques and sub-techniques whose stored fields changed. */
  updated: number;
  counts: Record<string, number>;
  changes: Record<string, Record<string, number | string[]>>;
}

const count = (value: number | string[] | undefined) => (typeof value === 'number' ? value : 0);

/** Runs the attack_enterprise data source now (POST /system/sync-ttp). */
export async function syncTtp(services: Services, actor: Actor): Promise<SyncTtpResult> {
  const report = await syncDataSource(services, 'attack_enterprise', actor, 'api');
  const techniques = report.changes.techniques ?? {};
  const created = count(techniques.new);
  const updated = count(techniques.updated);
  const active = count(report.counts.techniques) + count(report.counts.sub_techniques);
  return {
    message: `ATT&CK catalog synchronised: ${created} new and ${updated} updated techniques; ${active} active techniques and sub-techniques`,
    new: created,
    updated,
    counts: report.counts,
    changes: report.changes,
  };
}
