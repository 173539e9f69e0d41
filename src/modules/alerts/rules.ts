import { z } from 'zod';
import type { Prisma } from '../../generated/prisma/client.ts';
import type { Db } from '../../db/client.ts';
import type { AlertRuleType } from '../../generated/prisma/enums.ts';
import { ACTIVE_TECHNIQUES } from '../metrics/coverage.ts';
import { confidenceRows, FRESHLY_VALIDATED, LATEST_VALIDATIONS } from '../detection-lifecycle/confidence.ts';
import { validationIs } from '../detection-lifecycle/validation-states.ts';

const percent = z.number().min(0, 'must be 0 or more').max(100, 'must be at most 100');
const count = z.number().int().min(1, 'must be at least 1').max(10_000);

/** The parameters of each rule type, validated on save (unknown keys refused), stored in snake_case whatever the API. */
export const RULE_PARAMETERS = {
  coverage_below: z.strictObject({ threshold: percent }),
  coverage_drop: z.strictObject({ points: z.number().gt(0, 'must be more than 0').max(100, 'must be at most 100') }),
  validation_expired: z.strictObject({}),
  actor_technique_uncovered: z.strictObject({ min_actors: count }),
  confidence_below: z.strictObject({ threshold: percent }),
  rejected_tests: z.strictObject({ count, window_days: z.number().int().min(1).max(365).default(7) }),
  osint_uncovered_technique: z.strictObject({ window_days: z.number().int().min(1).max(365).default(7) }),
} satisfies Record<AlertRuleType, z.ZodType>;

export const RULE_DESCRIPTIONS: Record<AlertRuleType, string> = {
  coverage_below: 'Overall coverage % is below `threshold` (subject: global)',
  coverage_drop: 'Coverage % fell by at least `points` since the latest snapshot (subject: global)',
  validation_expired: 'A technique has no fresh validation and its latest validation expired (subject: the technique)',
  actor_technique_uncovered: 'A technique used by at least `min_actors` tracked threat actors is not covered (subject: the technique)',
  confidence_below: 'A technique with an active detection asset has detection confidence below `threshold` (subject: the technique)',
  rejected_tests: 'At least `count` tests were rejected in the last `window_days` days (subject: global)',
  osint_uncovered_technique:
    'A feed item stored in the last `window_days` days mentions a technique without validated coverage (subject: the technique)',
};

export interface Firing {
  subject: string;
  techniqueId: string | null;
  title: string;
  figures: Record<string, unknown>;
}

type Parameters<T extends AlertRuleType> = z.infer<(typeof RULE_PARAMETERS)[T]>;

type Condition<T extends AlertRuleType> = (db: Db, parameters: Parameters<T>) => Promise<Firing[]>;

const GLOBAL = 'global';
/** Most subjects one rule fires for in one evaluation (the rest fire at the next). */
export const MAX_FIRINGS_PER_RULE = 500;

async function coverageNow(db: Db): Promise<number> {
  const [row] = await db.$queryRaw<{ coverage: number }[]>`
    SELECT coalesce(round((100.0 * (count(*) FILTER (WHERE status_global = 'validated') + 0.5 * count(*) FILTER (WHERE status_global = 'partial'))
                           / nullif(count(*), 0))::numeric, 1), 0)::float8 AS coverage
      FROM techniques t WHERE ${ACTIVE_TECHNIQUES}`;
  return row.coverage;
}

const technique = (row: { techniqueId: string; ttpId: string }) => ({ subject: row.techniqueId, techniqueId: row.techniqueId });

export const CONDITIONS: { [T in AlertRuleType]: Condition<T> } = {
  async coverage_below(db, { threshold }) {
    const coverage = await coverageNow(db);
    return coverage < threshold
      ? [
          {
            subject: GLOBAL,
            techniqueId: null,
            title: `Coverage ${coverage}% is below ${threshold}%`,
            figures: { coverage_percentage: coverage, threshold },
          },
        ]
      : [];
  },
  async coverage_drop(db, { points }) {
    const snapshot = await db.snapshot.findFirst({
      orderBy: { createdAt: 'desc' },
      select: { id: true, coveragePercentage: true, createdAt: true },
    });
    if (!snapshot) return [];
    const coverage = await coverageNow(db);
    const drop = Math.round((snapshot.coveragePercentage - coverage) * 10) / 10;
    return drop >= points
      ? [
          {
            subject: GLOBAL,
            techniqueId: null,
            title: `Coverage fell ${drop} points since the snapshot of ${snapshot.createdAt.toISOString().slice(0, 10)}`,
            figures: {
              coverage_percentage: coverage,
              snapshot_percentage: snapshot.coveragePercentage,
              drop,
              points,
              snapshot_id: snapshot.id,
            },
          },
        ]
      : [];
  },
  async validation_expired(db) {
    // The revalidation queue's rule: no fresh validation, and the latest one ran out (an invalidated one does not count).
    const rows = await db.$queryRaw<{ techniqueId: string; ttpId: string; validUntil: Date }[]>`
      SELECT l.technique_id AS "techniqueId", t.ttp_id AS "ttpId", l.valid_until AS "validUntil"
        FROM (${LATEST_VALIDATIONS}) l JOIN techniques t ON t.id = l.technique_id
       WHERE ${validationIs('expired', 'l')} AND l.technique_id NOT IN (${FRESHLY_VALIDATED})
       ORDER BY l.valid_until, t.ttp_id LIMIT ${MAX_FIRINGS_PER_RULE}`;
    return rows.map((row) => ({
      ...technique(row),
      title: `${row.ttpId}: detection validation expired`,
      figures: { ttp_id: row.ttpId, valid_until: row.validUntil.toISOString() },
    }));
  },
  async actor_technique_uncovered(db, { min_actors: minActors }) {
    const rows = await db.$queryRaw<{ techniqueId: string; ttpId: string; actors: number; status: string }[]>`
      SELECT t.id AS "techniqueId", t.ttp_id AS "ttpId", count(DISTINCT u.actor_id)::int AS actors, t.status_global::text AS status
        FROM techniques t
        JOIN threat_actor_techniques u ON u.technique_id = t.id
        JOIN threat_actors a ON a.id = u.actor_id AND NOT a.revoked AND NOT a.deprecated
       WHERE ${ACTIVE_TECHNIQUES} AND t.status_global NOT IN ('validated', 'partial')
       GROUP BY t.id HAVING count(DISTINCT u.actor_id) >= ${minActors}
       ORDER BY actors DESC, t.ttp_id LIMIT ${MAX_FIRINGS_PER_RULE}`;
    return rows.map((row) => ({
      ...technique(row),
      title: `${row.ttpId} is used by ${row.actors} tracked actors and not covered`,
      figures: { ttp_id: row.ttpId, actors: row.actors, min_actors: minActors, status: row.status },
    }));
  },
  async confidence_below(db, { threshold }) {
    const rows = (await confidenceRows(db)).filter((row) => row.activeAssets > 0 && row.confidence < threshold);
    return rows.slice(0, MAX_FIRINGS_PER_RULE).map((row) => ({
      ...technique(row),
      title: `${row.ttpId}: detection confidence ${row.confidence} is below ${threshold}`,
      figures: {
        ttp_id: row.ttpId,
        confidence: row.confidence,
        threshold,
        active_assets: row.activeAssets,
        validation_term: row.validationTerm,
        changes_since_validation: row.changesSinceValidation,
      },
    }));
  },
  async rejected_tests(db, { count: atLeast, window_days: windowDays }) {
    const since = new Date(Date.now() - windowDays * 86_400_000);
    const rejected = await db.test.count({ where: { state: 'rejected', decidedAt: { gte: since } } });
    return rejected >= atLeast
      ? [
          {
            subject: GLOBAL,
            techniqueId: null,
            title: `${rejected} tests rejected in the last ${windowDays} days`,
            figures: { rejected, count: atLeast, window_days: windowDays },
          },
        ]
      : [];
  },
  async osint_uncovered_technique(db, { window_days: windowDays }) {
    const since = new Date(Date.now() - windowDays * 86_400_000);
    const rows = await db.$queryRaw<{ techniqueId: string; ttpId: string; items: number; latest: Date; status: string }[]>`
      SELECT t.id AS "techniqueId", t.ttp_id AS "ttpId", count(*)::int AS items, max(m.created_at) AS latest,
             t.status_global::text AS status
        FROM techniques t JOIN osint_item_techniques m ON m.technique_id = t.id
       WHERE ${ACTIVE_TECHNIQUES} AND t.status_global <> 'validated' AND m.created_at >= ${since}
       GROUP BY t.id ORDER BY latest DESC, t.ttp_id LIMIT ${MAX_FIRINGS_PER_RULE}`;
    return rows.map((row) => ({
      ...technique(row),
      title: `${row.ttpId}: ${row.items} new intel item${row.items === 1 ? '' : 's'} on a technique without validated coverage`,
      figures: {
        ttp_id: row.ttpId,
        items: row.items,
        latest_item_at: row.latest.toISOString(),
        window_days: windowDays,
        status: row.status,
      },
    }));
  },
};

/** What a rule fires for now. */
export function evaluateCondition(db: Db, ruleType: AlertRuleType, parameters: Prisma.JsonValue): Promise<Firing[]> {
  const parsed = RULE_PARAMETERS[ruleType].parse(parameters ?? {});
  return (CONDITIONS[ruleType] as Condition<AlertRuleType>)(db, parsed as never);
}
