import { z } from 'zod';
import { NotFoundError, ValidationError } from '../../errors.ts';
import type { CoverageStatus } from '../../generated/prisma/enums.ts';
import type { Services } from '../../services.ts';
import { parseInput, isUuid } from '../../validation.ts';
import { POINT_COLUMNS, SCORE_TERMS } from './formula.ts';
import { heatmapFilterSchema, heatmapRows, platformCondition } from './heatmap.ts';
import { ORGANIZATION_CACHE_MS } from './service.ts';
import {
  CHANGE_COLORS,
  CHANGE_GRADIENT,
  CHANGE_LABELS,
  dayOf,
  expandParents,
  layerOf,
  round2,
  SCORE_GRADIENT,
  STATUS_COLORS,
  STATUS_LABELS,
  STATUS_ORDER,
  statusLegend,
  type Annotation,
  type Change,
} from './layer.ts';

/** The live layer: colour from each technique's coverage status, score and breakdown from the scoring formula. */
async function liveLayer(services: Services, platform: string | null | undefined) {
  const { rows, tactics, platform: used } = await heatmapRows(services, { platform }, POINT_COLUMNS);
  const annotations: Annotation[] = rows.map((row) => {
    const terms = SCORE_TERMS.map((term) => `${term} ${row[`${term}_points`]}`).join(' + ');
    return {
      ttpId: row.ttp_id,
      tactics: row.tactics,
      isSubtechnique: row.is_subtechnique,
      parentTtpId: row.parent_ttp_id,
      score: row.score,
      color: STATUS_COLORS[row.status_global],
      comment: `${STATUS_LABELS[row.status_global]}; score ${row.score} = ${terms}`,
      metadata: [
        { name: 'status', value: row.status_global },
        { name: 'score', value: String(row.score) },
        ...SCORE_TERMS.map((term) => ({ name: `${term} points`, value: String(row[`${term}_points`]) })),
      ],
    };
  });
  expandParents(annotations, (annotation) => annotation.color !== STATUS_COLORS.not_evaluated);
  return layerOf(services, {
    name: 'Violet coverage',
    description: `Coverage of ${rows.length} active techniques${used ? ` on ${used}` : ''}: colour = coverage status, score = technique score (0–100).`,
    platform: used,
    annotations,
    gradient: SCORE_GRADIENT,
    legendItems: statusLegend(),
    expanded: 'none',
    metadata: [{ name: 'source', value: 'live' }],
    tactics,
  });
}

async function findSnapshot(services: Services, id: string) {
  const snapshot = isUuid(id)
    ? await services.prisma.snapshot.findUnique({ where: { id }, select: { id: true, name: true, createdAt: true } })
    : null;
  if (!snapshot) throw new NotFoundError('Snapshot', id);
  return snapshot;
}

const snapshotLabel = (snapshot: { name: string | null; createdAt: Date }) =>
  snapshot.name ? `${snapshot.name} (${snapshot.createdAt.toISOString()})` : snapshot.createdAt.toISOString();

interface StateRow {
  ttp_id: string;
  tactics: string[];
  is_subtechnique: boolean;
  parent_ttp_id: string | null;
  status: CoverageStatus;
  score: number | null;
}

/** The layer of the technique states a snapshot recorded. */
async function snapshotLayer(services: Services, id: string, platform: string | null | undefined) {
  const snapshot = await findSnapshot(services, id);
  const rows = await services.prisma.$queryRaw<StateRow[]>`
    SELECT st.ttp_id, t.tactics, t.is_subtechnique, t.parent_ttp_id, st.status::text AS status, st.score
      FROM snapshot_techniques st JOIN techniques t ON t.id = st.technique_id
     WHERE st.snapshot_id = ${snapshot.id}::uuid ${platformCondition(platform)}
     ORDER BY st.ttp_id COLLATE "C"`;
  const annotations: Annotation[] = rows.map((row) => ({
    ttpId: row.ttp_id,
    tactics: row.tactics,
    isSubtechnique: row.is_subtechnique,
    parentTtpId: row.parent_ttp_id,
    score: row.score,
    color: STATUS_COLORS[row.status],
    comment: `${STATUS_LABELS[row.status]}${row.score === null ? '' : `; score ${row.score}`} at snapshot ${snapshotLabel(snapshot)}`,
    metadata: [{ name: 'status', value: row.status }, ...(row.score === null ? [] : [{ name: 'score', value: String(row.score) }])],
  }));
  expandParents(annotations, (annotation) => annotation.color !== STATUS_COLORS.not_evaluated);
  return layerOf(services, {
    name: `Violet coverage at ${snapshot.name ?? dayOf(snapshot.createdAt)}`,
    description: `Coverage recorded by snapshot ${snapshotLabel(snapshot)}: colour = coverage status, score = technique score then (0–100).`,
    platform: platform ?? null,
    annotations,
    gradient: SCORE_GRADIENT,
    legendItems: statusLegend(),
    expanded: 'none',
    metadata: [
      { name: 'source', value: 'snapshot' },
      { name: 'snapshot_id', value: snapshot.id },
    ],
  });
}

interface DiffRow {
  ttp_id: string;
  tactics: string[];
  is_subtechnique: boolean;
  parent_ttp_id: string | null;
  before: CoverageStatus | null;
  after: CoverageStatus | null;
  score_before: number | null;
  score_after: number | null;
}

function changeOf(row: DiffRow): Change {
  if (row.before === null) return 'added';
  if (row.after === null) return 'removed';
  return STATUS_ORDER.indexOf(row.after) > STATUS_ORDER.indexOf(row.before) ? 'improved' : 'regressed';
}

/** The techniques whose status differs between two snapshots, coloured by the direction of the change. */
async function differenceLayer(services: Services, beforeId: string, afterId: string, platform: string | null | undefined) {
  const [before, after] = [await findSnapshot(services, beforeId), await findSnapshot(services, afterId)];
  const rows = await services.prisma.$queryRaw<DiffRow[]>`
    SELECT coalesce(x.ttp_id, y.ttp_id) AS ttp_id, t.tactics, t.is_subtechnique, t.parent_ttp_id,
           x.status::text AS before, y.status::text AS after, x.score AS score_before, y.score AS score_after
      FROM (SELECT * FROM snapshot_techniques WHERE snapshot_id = ${before.id}::uuid) x
      FULL JOIN (SELECT * FROM snapshot_techniques WHERE snapshot_id = ${after.id}::uuid) y ON y.technique_id = x.technique_id
      JOIN techniques t ON t.id = coalesce(x.technique_id, y.technique_id)
     WHERE x.status IS DISTINCT FROM y.status ${platformCondition(platform)}
     ORDER BY coalesce(x.ttp_id, y.ttp_id) COLLATE "C"`;
  const annotations: Annotation[] = rows.map((row) => {
    const change = changeOf(row);
    const delta = row.score_before !== null && row.score_after !== null ? round2(row.score_after - row.score_before) : null;
    const scores =
      row.score_before !== null || row.score_after !== null
        ? ` (score ${row.score_before ?? 'absent'} → ${row.score_after ?? 'absent'})`
        : '';
    return {
      ttpId: row.ttp_id,
      tactics: row.tactics,
      isSubtechnique: row.is_subtechnique,
      parentTtpId: row.parent_ttp_id,
      score: delta,
      color: CHANGE_COLORS[change],
      comment: `${row.before ?? 'absent'} → ${row.after ?? 'absent'}${scores}`,
      metadata: [
        { name: 'change', value: change },
        { name: 'before', value: row.before ?? 'absent' },
        { name: 'after', value: row.after ?? 'absent' },
        ...(delta === null ? [] : [{ name: 'score_change', value: String(delta) }]),
      ],
    };
  });
  expandParents(annotations, () => true);
  return layerOf(services, {
    name: `Violet coverage change ${before.name ?? dayOf(before.createdAt)} → ${after.name ?? dayOf(after.createdAt)}`,
    description: `Techniques whose coverage status changed from snapshot ${snapshotLabel(before)} to ${snapshotLabel(after)}: colour = direction of the change, score = score change.`,
    platform: platform ?? null,
    annotations,
    gradient: CHANGE_GRADIENT,
    legendItems: (Object.keys(CHANGE_COLORS) as Change[]).map((change) => ({ label: CHANGE_LABELS[change], color: CHANGE_COLORS[change] })),
    expanded: 'annotated',
    metadata: [
      { name: 'source', value: 'difference' },
      { name: 'before_snapshot_id', value: before.id },
      { name: 'after_snapshot_id', value: after.id },
      { name: 'changed_techniques', value: String(rows.length) },
    ],
  });
}

const layerSchema = heatmapFilterSchema
  .extend({
    snapshotId: z.string().trim().min(1).nullish(),
    before: z.string().trim().min(1).nullish(),
    after: z.string().trim().min(1).nullish(),
  })
  .superRefine((input, context) => {
    if (!!input.before !== !!input.after)
      context.addIssue({ code: 'custom', path: [input.before ? 'after' : 'before'], message: 'give both snapshots to compare' });
    if (input.snapshotId && input.before)
      context.addIssue({ code: 'custom', path: ['snapshotId'], message: 'give either one snapshot or two to compare, not both' });
  });

/**
 * An ATT&CK Navigator layer (format 4.5): the live coverage, the states of one snapshot, or the difference
 * between two snapshots (before → after).
 */
export async function navigatorLayer(services: Services, input: unknown) {
  const { platform, snapshotId, before, after } = parseInput(layerSchema, input ?? {});
  if (snapshotId) return snapshotLayer(services, snapshotId, platform);
  if (before && after) return differenceLayer(services, before, after, platform);
  // The live layer is the heatmap's data (≈ 650 KB for the full matrix): cached with it, cleared with it.
  return services.cache.remember('analytics', `scores:layer:${platform?.toLowerCase() ?? ''}`, ORGANIZATION_CACHE_MS, () =>
    liveLayer(services, platform),
  );
}

/** `compare=a,b` of GET /heatmap: the two snapshot ids, before then after. */
export function comparePair(text: string): { before: string; after: string } {
  const ids = text.split(',').map((id) => id.trim());
  if (ids.length !== 2 || ids.some((id) => !id))
    throw new ValidationError('compare', 'must be two snapshot ids separated by a comma (before,after)');
  return { before: ids[0], after: ids[1] };
}
