import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../../test/helpers/app.ts';
import { SYSTEM_ACTOR } from '../../db/unit-of-work.ts';
import type { DataSourceKind } from '../../generated/prisma/enums.ts';
import { syncDataSource } from './sync.ts';
import { referenceData } from '../../../test/helpers/reference-data.ts';

const app = useTestApp({
  SOURCE_SYNC_SCHEDULES: 'false',
  ATTACK_ENTERPRISE_SOURCE: referenceData('attack', 'enterprise-attack-18.1.json'),
  D3FEND_SOURCE: referenceData('d3fend'),
  NIST_800_53_SOURCE: referenceData('ctid', 'nist_800_53-rev5_attack-16.1-enterprise.json'),
  CSA_CCM_SOURCE: referenceData('ctid', 'csa_ccm-4.1_attack-17.1-enterprise.json'),
  ATOMIC_RED_TEAM_SOURCE: referenceData('atomic-red-team'),
  SIGMA_SOURCE: referenceData('sigma', 'rules'),
});

/** What the audit entries naming `runId` say they wrote, by entity type and change, as the run counts it. */
async function auditedBy(runId: string): Promise<Record<string, Record<string, number>>> {
  const rows = await app.services.prisma.$queryRaw<{ entity_type: string; word: string; total: bigint }[]>`
    SELECT entity_type, word, sum(CASE jsonb_typeof(details -> word) WHEN 'array' THEN jsonb_array_length(details -> word) ELSE (details ->> word)::int END) AS total
    FROM audit_logs, unnest(ARRAY['created', 'updated', 'removed', 'deactivated', 'reactivated']) AS word
    WHERE details ->> 'run_id' = ${runId} AND details ? word
    GROUP BY entity_type, word`;
  const audited: Record<string, Record<string, number>> = {};
  for (const row of rows) if (Number(row.total)) (audited[row.entity_type] ??= {})[row.word] = Number(row.total);
  return audited;
}

describe("every importer's committed batches", () => {
  // ATT&CK first: the mappings of D3FEND, CTID, Atomic Red Team and Sigma point at its techniques.
  const kinds: DataSourceKind[] = ['attack_enterprise', 'd3fend', 'nist_800_53', 'csa_ccm', 'atomic_red_team', 'sigma'];

  it.each(kinds)(
    "%s: each batch's audit entry names the run, and the run's committed counts are the audited ones",
    async (kind) => {
      await syncDataSource(app.services, kind, SYSTEM_ACTOR);
      const run = await app.services.prisma.dataSourceRun.findFirstOrThrow({
        where: { dataSource: { kind } },
        orderBy: { startedAt: 'desc' },
      });
      expect(run.status, run.error ?? '').toBe('succeeded');
      const committed = run.committed as Record<string, Record<string, number>>;
      expect(Object.keys(committed).length, `${kind} committed nothing`).toBeGreaterThan(0);
      expect(committed).toEqual(await auditedBy(run.id));
    },
    180_000,
  );

  it('a second sync of an unchanged source commits nothing', async () => {
    await syncDataSource(app.services, 'sigma', SYSTEM_ACTOR);
    const run = await app.services.prisma.dataSourceRun.findFirstOrThrow({
      where: { dataSource: { kind: 'sigma' } },
      orderBy: { startedAt: 'desc' },
    });
    expect(run).toMatchObject({ status: 'succeeded', committed: {} });
  }, 120_000);
});
