import { z } from 'zod';
import { inTransaction, type Actor } from '../../db/unit-of-work.ts';
import { ValidationError } from '../../errors.ts';
import type { Services } from '../../services.ts';
import { parseInput } from '../../validation.ts';
import {
  DEFAULT_WEIGHTS,
  SCORE_CONFIG_ID,
  SCORE_TERMS,
  TERM_DESCRIPTIONS,
  WEIGHT_SUM_TOLERANCE,
  weightsOf,
  weightSum,
  type Weights,
} from './formula.ts';

const weight = z.number().min(0, 'must be 0 or more').max(1, 'must be at most 1');

/** GraphQL names the terms in camelCase; stored weights use the term names. */
const updateSchema = z.object({
  weights: z
    .object({ coverage: weight, detection: weight, validationFreshness: weight, detectionRate: weight })
    .partial()
    .strict()
    .refine((given) => Object.keys(given).length > 0, 'give at least one weight'),
});

export interface ScoreConfigView {
  weights: Weights;
  defaults: Weights;
  terms: { name: string; description: string }[];
  updatedAt: Date | null;
  updatedById: string | null;
}

const view = (row: { weights: unknown; updatedAt: Date | null; updatedById: string | null }): ScoreConfigView => ({
  weights: weightsOf(row.weights),
  defaults: { ...DEFAULT_WEIGHTS },
  terms: SCORE_TERMS.map((name) => ({ name, description: TERM_DESCRIPTIONS[name] })),
  updatedAt: row.updatedAt,
  updatedById: row.updatedById,
});

/** The scoring weights in force; the config row is created with the defaults the first time it is read. */
export async function getScoreConfig(services: Services): Promise<ScoreConfigView> {
  await services.prisma.scoreConfig.createMany({ data: [{ id: SCORE_CONFIG_ID, weights: { ...DEFAULT_WEIGHTS } }], skipDuplicates: true });
  const row = await services.prisma.scoreConfig.findUniqueOrThrow({ where: { id: SCORE_CONFIG_ID } });
  return view(row);
}

const round = (value: number) => Math.round(value * 1e6) / 1e6;

/**
 * Changes some or all weights. The result must add up to 1 (± 0.001); the row is locked while it is merged,
 * so two admins cannot each pass the check and together break it. Cached analytics are dropped after commit.
 */
export async function updateScoreConfig(services: Services, actor: Actor, input: unknown): Promise<ScoreConfigView> {
  const { weights: given } = parseInput(updateSchema, input);
  const changes: Partial<Weights> = {
    coverage: given.coverage,
    detection: given.detection,
    validation_freshness: given.validationFreshness,
    detection_rate: given.detectionRate,
  };
  const updated = await inTransaction(services, actor, async (uow) => {
    await uow.tx.scoreConfig.createMany({ data: [{ id: SCORE_CONFIG_ID, weights: { ...DEFAULT_WEIGHTS } }], skipDuplicates: true });
    const [locked] = await uow.tx.$queryRaw<
      { weights: unknown }[]
    >`SELECT weights FROM score_config WHERE id = ${SCORE_CONFIG_ID} FOR UPDATE`;
    const before = weightsOf(locked.weights);
    const after = { ...before };
    for (const term of SCORE_TERMS) if (changes[term] !== undefined) after[term] = changes[term];
    const sum = round(weightSum(after));
    if (Math.abs(sum - 1) > WEIGHT_SUM_TOLERANCE) {
      throw new ValidationError('weights', `must add up to 1 (± ${WEIGHT_SUM_TOLERANCE}); these add up to ${sum}`);
    }
    const row = await uow.tx.scoreConfig.update({ where: { id: SCORE_CONFIG_ID }, data: { weights: after, updatedById: actor.userId } });
    await uow.audit({
      action: 'update_score_config',
      entityType: 'score_config',
      entityId: String(SCORE_CONFIG_ID),
      details: { before, after },
    });
    return row;
  });
  await services.cache.invalidate('analytics');
  return view(updated);
}
