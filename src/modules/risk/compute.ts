import { Prisma } from '../../generated/prisma/client.ts';
import { inTransaction, type Actor } from '../../db/unit-of-work.ts';
import type { Services } from '../../services.ts';
import {
  DEFAULT_TACTIC_WEIGHT,
  IMPACT_FLOOR,
  LEVEL_THRESHOLDS,
  LIKELIHOOD,
  RISK_MODEL_VERSION,
  TACTIC_WEIGHTS,
  type RiskLevel,
} from './model.ts';

export interface RiskComputation {
  /** Profiles written: one per active technique. */
  profiles: number;
  /** Profiles dropped because their technique was revoked or deprecated since. */
  removed: number;
  computedAt: Date;
  levels: Record<RiskLevel, number>;
}

const weights = Object.entries(TACTIC_WEIGHTS);
const likelihoods = Object.entries(LIKELIHOOD);

/** Number of `scores` (a column name) at each level, as columns named after the levels. */
const levelCounts = (scores: Prisma.Sql) =>
  Prisma.join(
    LEVEL_THRESHOLDS.map(({ level, min }, index) => {
      const below = index > 0 ? Prisma.sql`AND score < ${LEVEL_THRESHOLDS[index - 1].min}::float8` : Prisma.empty;
      return Prisma.sql`(SELECT count(*)::int FROM ${scores} WHERE score >= ${min}::float8 ${below}) AS ${Prisma.raw(level)}`;
    }),
  );

/**
 * Every active technique's impact, likelihood and score (see model.ts), upserted in one statement; profiles of
 * techniques revoked or deprecated since are dropped by the same statement.
 */
const COMPUTE = Prisma.sql`
  WITH weights(short_name, weight) AS (
    SELECT * FROM unnest(${weights.map(([name]) => name)}::text[], ${weights.map(([, weight]) => weight)}::float8[])
  ), likelihoods(status, likelihood) AS (
    SELECT * FROM unnest(${likelihoods.map(([status]) => status)}::text[], ${likelihoods.map(([, value]) => value)}::float8[])
  ), actor_uses AS (
    SELECT u.technique_id, u.actor_id
      FROM threat_actor_techniques u JOIN threat_actors a ON a.id = u.actor_id
     WHERE NOT a.revoked AND NOT a.deprecated
  ), credited AS (
    -- an actor using a sub-technique also uses its parent technique
    SELECT technique_id, actor_id FROM actor_uses
    UNION
    SELECT parent.id, au.actor_id
      FROM actor_uses au
      JOIN techniques sub ON sub.id = au.technique_id AND sub.parent_ttp_id IS NOT NULL AND NOT sub.revoked AND NOT sub.deprecated
      JOIN techniques parent ON parent.ttp_id = sub.parent_ttp_id
  ), counts AS (
    SELECT technique_id, count(*)::int AS actor_count FROM credited GROUP BY technique_id
  ), active AS (
    SELECT t.id, t.status_global::text AS status, t.tactics, COALESCE(c.actor_count, 0) AS actor_count,
           COALESCE(tw.weight, ${DEFAULT_TACTIC_WEIGHT}::float8) AS tactic_weight, tw.short_name AS weighted_tactic
      FROM techniques t
      LEFT JOIN counts c ON c.technique_id = t.id
      LEFT JOIN LATERAL (
        SELECT tactic AS short_name, COALESCE(w.weight, ${DEFAULT_TACTIC_WEIGHT}::float8) AS weight
          FROM unnest(t.tactics) AS tactic LEFT JOIN weights w ON w.short_name = tactic
         ORDER BY 2 DESC, 1
         LIMIT 1
      ) tw ON TRUE
     WHERE NOT t.revoked AND NOT t.deprecated
  ), terms AS (
    SELECT active.*, peak.max_actor_count, l.likelihood,
           CASE WHEN peak.max_actor_count > 0
                THEN ln(1 + active.actor_count::float8) / ln(1 + peak.max_actor_count::float8) ELSE 0 END AS prevalence
      FROM active
      CROSS JOIN (SELECT COALESCE(max(actor_count), 0) AS max_actor_count FROM active) peak
      JOIN likelihoods l ON l.status = active.status
  ), rated AS (
    SELECT terms.*,
           round((tactic_weight * (${IMPACT_FLOOR}::float8 + (1 - ${IMPACT_FLOOR}::float8) * prevalence))::numeric, 4)::float8 AS impact
      FROM terms
  ), scored AS (
    SELECT rated.*, round((impact * likelihood * 100)::numeric, 2)::float8 AS score FROM rated
  ), upserted AS (
    INSERT INTO risk_profiles (technique_id, impact, likelihood, score, actor_count, tactic_weight, details, computed_at)
    SELECT id, impact, likelihood, score, actor_count, tactic_weight,
           jsonb_build_object(
             'model_version', ${RISK_MODEL_VERSION}::int, 'status', status,
             'actor_count', actor_count, 'max_actor_count', max_actor_count, 'prevalence', round(prevalence::numeric, 4)::float8,
             'tactics', to_jsonb(tactics), 'weighted_tactic', weighted_tactic, 'tactic_weight', tactic_weight,
             'impact_floor', ${IMPACT_FLOOR}::float8, 'impact', impact, 'likelihood', likelihood, 'score', score),
           now()
      FROM scored
    ON CONFLICT (technique_id) DO UPDATE
       SET impact = EXCLUDED.impact, likelihood = EXCLUDED.likelihood, score = EXCLUDED.score,
           actor_count = EXCLUDED.actor_count, tactic_weight = EXCLUDED.tactic_weight,
           details = EXCLUDED.details, computed_at = EXCLUDED.computed_at
    RETURNING score, computed_at
  ), removed AS (
    DELETE FROM risk_profiles rp USING techniques t
     WHERE t.id = rp.technique_id AND (t.revoked OR t.deprecated)
    RETURNING 1
  )
  SELECT (SELECT count(*)::int FROM upserted) AS profiles,
         (SELECT count(*)::int FROM removed) AS removed,
         COALESCE((SELECT max(computed_at) FROM upserted), now()::timestamptz(3)) AS "computedAt",
         ${levelCounts(Prisma.sql`upserted`)}`;

type ComputeRow = { profiles: number; removed: number; computedAt: Date } & Record<RiskLevel, number>;

/** Recomputes the risk profile of every active technique in one transaction (audited; emits risk.computed). */
export async function computeRisk(services: Services, actor: Actor): Promise<RiskComputation> {
  return inTransaction(
    services,
    actor,
    async (uow) => {
      const [row] = await uow.tx.$queryRaw<ComputeRow[]>(COMPUTE);
      const { profiles, removed, computedAt, ...levels } = row;
      await uow.audit({
        action: 'compute_risk',
        entityType: 'risk_profile',
        details: { profiles, removed, computed_at: computedAt.toISOString(), levels },
      });
      uow.emit('risk.computed', { profiles });
      return { profiles, removed, computedAt, levels };
    },
    { timeout: 30_000, bulk: true },
  );
}
