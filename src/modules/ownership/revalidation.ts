import { Prisma } from '../../generated/prisma/client.ts';
import { inTransaction, type SYSTEM_ACTOR, type UnitOfWork } from '../../db/unit-of-work.ts';
import type { Principal } from '../../auth/access.ts';
import type { Services } from '../../services.ts';
import { FRESH_DAYS } from '../scores/formula.ts';
import { changeTouches, FRESHLY_VALIDATED, LATEST_VALIDATIONS, TECHNIQUE_LINKS } from '../detection-lifecycle/confidence.ts';
import { validationIs } from '../detection-lifecycle/validation-states.ts';

/**
 * Why each technique needs re-testing now, one row per technique and reason:
 * - validation_expired: no fresh validation and the latest one ran out;
 * - validation_invalidated: no fresh validation and the latest one was invalidated;
 * - infrastructure_change: a change touching it was recorded after its latest validation;
 * - coverage_stale: covered (validated or partial), but its latest validated test is older than FRESH_DAYS.
 */
const CANDIDATES = Prisma.sql`
  WITH latest AS (${LATEST_VALIDATIONS}
  ), links AS (${TECHNIQUE_LINKS}
  ), fresh AS (${FRESHLY_VALIDATED}
  ), candidates AS (
    SELECT l.technique_id, 'validation_expired' AS reason,
           'The latest validation expired on ' || to_char(l.valid_until AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS detail, l.valid_until AS since
      FROM latest l
     WHERE ${validationIs('expired', 'l')} AND l.technique_id NOT IN (SELECT technique_id FROM fresh)
    UNION ALL
    SELECT l.technique_id, 'validation_invalidated',
           'The latest validation was invalidated: ' || coalesce(l.invalidated_reason, 'no reason given'), l.invalidated_at
      FROM latest l
     WHERE ${validationIs('invalidated', 'l')} AND l.technique_id NOT IN (SELECT technique_id FROM fresh)
    UNION ALL
    SELECT l.technique_id, 'infrastructure_change', 'Infrastructure change since the latest validation: ' || ch.title, ch.changed_at
      FROM latest l
      LEFT JOIN links k ON k.technique_id = l.technique_id
      JOIN LATERAL (SELECT c.title, c.changed_at FROM infrastructure_changes c
                     WHERE c.changed_at > l.validated_at AND ${changeTouches(Prisma.sql`l.technique_id`, Prisma.sql`k`)}
                     ORDER BY c.changed_at DESC LIMIT 1) ch ON true
    UNION ALL
    SELECT t.id, 'coverage_stale',
           'Coverage last validated on ' || to_char(v.decided_at AT TIME ZONE 'UTC', 'YYYY-MM-DD'),
           v.decided_at + make_interval(days => ${FRESH_DAYS})
      FROM techniques t
      JOIN LATERAL (SELECT max(decided_at) AS decided_at FROM tests WHERE technique_id = t.id AND state = 'validated') v ON true
     WHERE t.status_global IN ('validated', 'partial') AND NOT t.revoked AND NOT t.deprecated
       AND v.decided_at < now() - make_interval(days => ${FRESH_DAYS})
  )`;

export interface QueueChange {
  techniqueId: string;
  reason: string;
  inserted: boolean;
}

/**
 * Rebuilds the revalidation queue in the caller's transaction: entries whose reason no longer holds go, the
 * others are inserted or refreshed (risk score from the technique's risk profile). Techniques that gain an entry
 * are announced (`revalidation.queued`: their owners are told). Returns what was inserted or refreshed, and how many entries were removed.
 */
export async function regenerateQueue(uow: UnitOfWork): Promise<{ entries: QueueChange[]; removed: number }> {
  const [{ removed }] = await uow.tx.$queryRaw<{ removed: number }[]>`
    ${CANDIDATES}, removed AS (
      DELETE FROM revalidation_entries e
       WHERE NOT EXISTS (SELECT 1 FROM candidates c WHERE c.technique_id = e.technique_id AND c.reason = e.reason::text)
      RETURNING 1
    )
    SELECT count(*)::int AS removed FROM removed`;
  const entries = await uow.tx.$queryRaw<QueueChange[]>`
    ${CANDIDATES}
    INSERT INTO revalidation_entries (id, technique_id, reason, detail, risk_score, since)
    SELECT gen_random_uuid(), c.technique_id, c.reason::"RevalidationReason", c.detail, coalesce(r.score, 0), c.since
      FROM candidates c LEFT JOIN risk_profiles r ON r.technique_id = c.technique_id
    ON CONFLICT (technique_id, reason) DO UPDATE
       SET detail = EXCLUDED.detail, since = EXCLUDED.since, risk_score = EXCLUDED.risk_score
    RETURNING technique_id AS "techniqueId", reason::text AS reason, (xmax = 0) AS inserted`;
  const fresh = entries.filter((entry) => entry.inserted);
  if (fresh.length) uow.emit('revalidation.queued', { techniqueIds: [...new Set(fresh.map((entry) => entry.techniqueId))] });
  return { entries, removed };
}

/** POST /ownership/revalidation-queue/generate and the daily job: rebuilds the queue, audited. */
export function generateQueue(services: Services, actor: Principal | typeof SYSTEM_ACTOR) {
  return inTransaction(
    services,
    actor,
    async (uow) => {
      const { entries, removed } = await regenerateQueue(uow);
      const added = entries.filter((entry) => entry.inserted).length;
      await uow.audit({
        action: 'generate_revalidation_queue',
        entityType: 'revalidation_queue',
        details: { added, kept: entries.length - added, removed },
      });
      return { added, kept: entries.length - added, removed, total: entries.length };
    },
    { timeout: 30_000, bulk: true },
  );
}
