import type { Prisma } from '../../db/client.ts';
import { inTransaction, type Actor, type UnitOfWork } from '../../db/unit-of-work.ts';
import type { IntelScan } from '../../generated/prisma/client.ts';
import type { Services } from '../../services.ts';
import { page, parseInput } from '../../validation.ts';
import { pageOf } from '../../db/page-totals.ts';

type FindingQuery = { include?: Prisma.IntelFindingInclude; select?: Prisma.IntelFindingSelect };

export const INTEL_FINDING_PAGE = { defaultLimit: 50, maxLimit: 200 } as const;
const pageSchema = page(INTEL_FINDING_PAGE.defaultLimit, INTEL_FINDING_PAGE.maxLimit);

/** Concurrent scans queue on this transaction-scoped advisory lock instead of counting the same uses twice. */
const SCAN_LOCK = 'violet.intel_scan';
/** A full catalog's worth of uses is a handful of set-based statements; the margin covers a busy database. */
const SCAN_TRANSACTION = { timeout: 120_000, maxWait: 30_000, bulk: true } as const;

export interface IntelScanOutcome {
  scan: IntelScan;
  baseline: boolean;
  newItems: number;
  message: string;
}

interface ScanCounts {
  seen: number;
  found: number;
  actors: number;
  techniques: number;
  flagged: number;
}

const plural = (count: number, word: string) => `${count} ${word}${count === 1 ? '' : 's'}`;

/**
 * In one statement: marks every unseen use scanned, records a finding for each on an active, not yet validated
 * technique of an active actor, and flags those techniques for review. Marking and finding read the same rows,
 * so a use the catalog sync adds meanwhile waits for the next scan instead of being marked unseen.
 */
async function recordFindings(uow: UnitOfWork, scanId: string, now: Date): Promise<ScanCounts> {
  const [counts] = await uow.tx.$queryRaw<ScanCounts[]>`
    WITH seen AS (
      UPDATE threat_actor_techniques SET scanned_at = ${now}
      WHERE scanned_at IS NULL
      RETURNING id, actor_id, technique_id
    ), found AS (
      INSERT INTO intel_findings (id, scan_id, actor_technique_id, actor_id, technique_id, created_at)
      SELECT gen_random_uuid(), ${scanId}::uuid, seen.id, seen.actor_id, seen.technique_id, ${now}
      FROM seen
      JOIN techniques ON techniques.id = seen.technique_id
      JOIN threat_actors ON threat_actors.id = seen.actor_id
      WHERE techniques.status_global <> 'validated'
        AND NOT techniques.revoked AND NOT techniques.deprecated
        AND NOT threat_actors.revoked AND NOT threat_actors.deprecated
      ON CONFLICT (actor_technique_id) DO NOTHING
      RETURNING actor_id, technique_id
    ), flagged AS (
      UPDATE techniques SET review_required = true, updated_at = ${now}
      WHERE id IN (SELECT technique_id FROM found) AND NOT review_required
      RETURNING id
    )
    SELECT (SELECT count(*) FROM seen)::int AS seen,
           (SELECT count(*) FROM found)::int AS found,
           (SELECT count(DISTINCT actor_id) FROM found)::int AS actors,
           (SELECT count(DISTINCT technique_id) FROM found)::int AS techniques,
           (SELECT count(*) FROM flagged)::int AS flagged`;
  return counts;
}

/** The baseline marks every use seen and reports nothing. */
async function markBaseline(uow: UnitOfWork, now: Date): Promise<ScanCounts> {
  const { count } = await uow.tx.threatActorTechnique.updateMany({ where: { scannedAt: null }, data: { scannedAt: now } });
  return { seen: count, found: 0, actors: 0, techniques: 0, flagged: 0 };
}

function outcomeMessage(baseline: boolean, counts: ScanCounts): string {
  if (baseline) return `Baseline recorded: ${plural(counts.seen, 'known technique use')}; later scans report what appears after this one`;
  if (!counts.found) return 'No new intel items';
  return `${plural(counts.found, 'new intel item')}: ${plural(counts.actors, 'threat actor')} newly seen using ${plural(counts.techniques, 'technique')} not yet validated`;
}

/**
 * Looks at every technique use no scan has seen yet. The first scan that finds any is the baseline: it learns
 * what the catalog already holds and reports nothing. Later scans turn each new use on a technique that is not
 * validated into a finding and flag the technique for review; `intel.scan_completed` tells the leads (notice table). Idempotent: a re-run reports 0.
 */
export function runIntelScan(services: Services, actor: Actor): Promise<IntelScanOutcome> {
  return inTransaction(
    services,
    actor,
    async (uow) => {
      await uow.tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtext(${SCAN_LOCK}))`;
      const now = new Date();
      const baseline = !(await uow.tx.threatActorTechnique.findFirst({ where: { scannedAt: { not: null } }, select: { id: true } }));
      const started = await uow.tx.intelScan.create({ data: { startedAt: now, baseline }, select: { id: true } });
      const counts = baseline ? await markBaseline(uow, now) : await recordFindings(uow, started.id, now);
      const scan = await uow.tx.intelScan.update({ where: { id: started.id }, data: { finishedAt: new Date(), newItems: counts.found } });
      await uow.audit({
        action: 'run_intel_scan',
        entityType: 'intel_scan',
        entityId: scan.id,
        details: {
          baseline,
          new_items: counts.found,
          scanned_uses: counts.seen,
          actors: counts.actors,
          techniques: counts.techniques,
          flagged_techniques: counts.flagged,
        },
      });
      uow.emit('intel.scan_completed', {
        scanId: scan.id,
        newItems: counts.found,
        actors: counts.actors,
        techniques: counts.techniques,
        flagged: counts.flagged,
      });
      return { scan, baseline, newItems: counts.found, message: outcomeMessage(baseline, counts) };
    },
    SCAN_TRANSACTION,
  );
}

/** Findings of every scan, newest first. */
export async function listFindings(services: Services, paging: unknown, query: FindingQuery = {}) {
  const { offset, limit } = parseInput(pageSchema, paging);
  return pageOf({ offset, limit }, [
    services.prisma.intelFinding.findMany({
      ...query,
      orderBy: [{ createdAt: 'desc' }, { technique: { ttpId: 'asc' } }, { actor: { name: 'asc' } }, { id: 'asc' }],
      skip: offset,
      take: limit,
    }),
    services.prisma.intelFinding.count(),
  ]);
}
