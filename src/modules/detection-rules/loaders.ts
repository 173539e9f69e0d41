import { createContextCache } from '@pothos/core';
import DataLoader from 'dataloader';
import type { DetectionRule } from '../../generated/prisma/client.ts';
import type { Context } from '../../graphql/context.ts';

/**
 * Active rules per technique id, batched per request: one query for all techniques of a response. A rule
 * appears under every technique it names (an exact id match; a rule for T1059.001 is not listed under T1059).
 */
/** Most rules one technique lists (Sigma tags at most a few hundred rules with one technique). */
export const RULES_PER_TECHNIQUE_MAX = 1000;

export const rulesByTechnique = createContextCache(
  (context: Context) =>
    new DataLoader<string, DetectionRule[]>(async (ttpIds) => {
      const rules = await context.services.prisma.detectionRule.findMany({
        where: { isActive: true, techniqueIds: { hasSome: [...ttpIds] } },
        orderBy: [{ title: 'asc' }, { id: 'asc' }],
      });
      return ttpIds.map((ttpId) => rules.filter((rule) => rule.techniqueIds.includes(ttpId)).slice(0, RULES_PER_TECHNIQUE_MAX));
    }),
);
