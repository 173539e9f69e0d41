import { Prisma } from '../../generated/prisma/client.ts';
import type { Db } from '../../db/client.ts';
import { validationIs } from './validation-states.ts';

/**
 * Detection confidence of a technique, 0–100 (docs/detection-lifecycle.md):
 *
 *   confidence = round(100 × (ASSET_WEIGHT × a + VALIDATION_WEIGHT × v) × CHANGE_FACTOR^c)
 *
 * a: active linked assets, min(n, 2) / 2 (one asset 0.5, two or more 1);
 * v: the freshest validation's remaining life, max over fresh validations of 1 − age / (valid_until − validated_at)
 *    (fresh as validation-states.ts defines it; 0 without one);
 * c: infrastructure changes touching the technique (directly, through a linked asset, or a linked asset's
 *    platform) recorded after its latest validation (0 without any validation).
 */
export const ASSET_WEIGHT = 0.2;
export const VALIDATION_WEIGHT = 0.8;
export const CHANGE_FACTOR = 0.5;
export const ASSETS_FOR_FULL_TERM = 2;

export interface ConfidenceRow {
  techniqueId: string;
  ttpId: string;
  name: string;
  activeAssets: number;
  assetTerm: number;
  freshValidations: number;
  validationTerm: number;
  lastValidatedAt: Date | null;
  changesSinceValidation: number;
  changeFactor: number;
  confidence: number;
}

/** Each technique's latest validation (columns technique_id, validated_at, valid_until, invalidated_at, invalidated_reason). */
export const LATEST_VALIDATIONS = Prisma.sql`
  SELECT DISTINCT ON (technique_id) technique_id, validated_at, valid_until, invalidated_at, invalidated_reason
    FROM detection_validations ORDER BY technique_id, validated_at DESC, created_at DESC`;

/** The techniques with a fresh validation: not invalidated, not yet expired (column technique_id). */
export const FRESHLY_VALIDATED = Prisma.sql`
  SELECT DISTINCT technique_id FROM detection_validations WHERE ${validationIs('fresh')}`;

/**
 * Per technique with a linked asset: how many are active, and every linked asset id and platform an
 * infrastructure change may name (columns technique_id, active, asset_ids, platforms).
 */
export const TECHNIQUE_LINKS = Prisma.sql`
  SELECT l.technique_id, (count(*) FILTER (WHERE a.status = 'active'))::int AS active,
         array_agg(a.id) AS asset_ids, array_agg(DISTINCT a.platform) FILTER (WHERE a.platform IS NOT NULL) AS platforms
    FROM detection_asset_techniques l JOIN detection_assets a ON a.id = l.asset_id
   GROUP BY l.technique_id`;

/**
 * Whether infrastructure change `c` touches a technique: it names the technique, one of its linked assets, or the
 * platform of one (platforms are stored lower-case). `links` is the technique's TECHNIQUE_LINKS row (or null).
 */
export const changeTouches = (technique: Prisma.Sql, links: Prisma.Sql) =>
  Prisma.sql`(${technique} = ANY(c.technique_ids) OR c.asset_ids && ${links}.asset_ids OR c.platforms && ${links}.platforms)`;

/** The rows of the techniques that have a linked asset or a validation (all of them, or those in `techniqueIds`). */
export function confidenceRows(db: Db, techniqueIds?: readonly string[]): Promise<ConfidenceRow[]> {
  const only = techniqueIds ? Prisma.sql`WHERE s.technique_id = ANY(${[...techniqueIds]}::uuid[])` : Prisma.empty;
  return db.$queryRaw<ConfidenceRow[]>`
    WITH subjects AS (
      SELECT technique_id FROM detection_asset_techniques UNION SELECT technique_id FROM detection_validations
    ), assets AS (${TECHNIQUE_LINKS}
    ), validations AS (
      SELECT technique_id,
             (count(*) FILTER (WHERE ${validationIs('fresh')}))::int AS fresh,
             coalesce(max(greatest(0, 1 - extract(epoch FROM now() - validated_at)
                                      / nullif(extract(epoch FROM valid_until - validated_at), 0)))
                        FILTER (WHERE ${validationIs('fresh')}), 0)::float8 AS term,
             max(validated_at) AS last_validated_at
        FROM detection_validations GROUP BY technique_id
    ), base AS (
      SELECT s.technique_id, coalesce(a.active, 0) AS active_assets, a.asset_ids, a.platforms,
             coalesce(v.fresh, 0) AS fresh_validations, coalesce(v.term, 0) AS validation_term, v.last_validated_at
        FROM subjects s
        LEFT JOIN assets a ON a.technique_id = s.technique_id
        LEFT JOIN validations v ON v.technique_id = s.technique_id
        ${only}
    ), changes AS (
      -- Changes touching the technique since its latest validation.
      SELECT b.technique_id, count(*)::int AS n
        FROM base b JOIN infrastructure_changes c
          ON c.changed_at > b.last_validated_at AND ${changeTouches(Prisma.sql`b.technique_id`, Prisma.sql`b`)}
       GROUP BY b.technique_id
    ), scored AS (
      SELECT b.*, t.ttp_id, t.name,
             (least(b.active_assets, ${ASSETS_FOR_FULL_TERM})::float8 / ${ASSETS_FOR_FULL_TERM}) AS asset_term,
             coalesce(ch.n, 0) AS changes
        FROM base b JOIN techniques t ON t.id = b.technique_id LEFT JOIN changes ch ON ch.technique_id = b.technique_id
    )
    SELECT technique_id AS "techniqueId", ttp_id AS "ttpId", name,
           active_assets AS "activeAssets", round(asset_term::numeric, 4)::float8 AS "assetTerm",
           fresh_validations AS "freshValidations", round(validation_term::numeric, 4)::float8 AS "validationTerm",
           last_validated_at AS "lastValidatedAt", changes AS "changesSinceValidation",
           power(${CHANGE_FACTOR}::float8, changes)::float8 AS "changeFactor",
           round(100 * (${ASSET_WEIGHT}::float8 * asset_term + ${VALIDATION_WEIGHT}::float8 * validation_term)
                 * power(${CHANGE_FACTOR}::float8, changes))::int AS confidence
      FROM scored
     ORDER BY confidence, ttp_id`;
}
