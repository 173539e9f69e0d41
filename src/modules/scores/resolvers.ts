import { createContextCache } from '@pothos/core';
import DataLoader from 'dataloader';
import { allow } from '../../graphql/access.ts';
import { builder } from '../../graphql/builder.ts';
import { actorOf, type Context } from '../../graphql/context.ts';
import { getScoreConfig, updateScoreConfig } from './config.ts';
import { heatmap } from './heatmap.ts';
import { navigatorLayer } from './navigator.ts';
import { scoreRoles } from './permissions.ts';
import * as scores from './service.ts';
import { techniqueScores } from './technique-scores.ts';
import {
  HeatmapType,
  OrganizationScoreType,
  ScoreConfigType,
  ScoreHistoryType,
  TacticScoreType,
  TechniqueScoreType,
  ThreatActorScoreType,
  UpdateScoreConfigInput,
} from './types.ts';

builder.queryFields((t) => ({
  techniqueScore: t.field({
    type: TechniqueScoreType,
    description: 'A technique score with its breakdown (404 for an unknown technique).',
    authScopes: allow(scoreRoles.read),
    args: { ttpId: t.arg.string({ required: true }) },
    resolve: (_root, { ttpId }, context) => scores.techniqueScore(context.services, ttpId),
  }),
  tacticScore: t.field({
    type: TacticScoreType,
    description: 'The average score of a tactic, named by TA id, short name or display name.',
    authScopes: allow(scoreRoles.read),
    args: { tactic: t.arg.string({ required: true }) },
    resolve: (_root, { tactic }, context) => scores.tacticScore(context.services, tactic),
  }),
  threatActorScore: t.field({
    type: ThreatActorScoreType,
    description: 'Coverage against a threat actor (uuid or ATT&CK group id such as G0007).',
    authScopes: allow(scoreRoles.read),
    args: { id: t.arg.string({ required: true }) },
    resolve: (_root, { id }, context) => scores.threatActorScore(context.services, id),
  }),
  organizationScore: t.field({
    type: OrganizationScoreType,
    authScopes: allow(scoreRoles.read),
    resolve: (_root, _args, context) => scores.organizationScore(context.services),
  }),
  scoreHistory: t.field({
    type: ScoreHistoryType,
    description: 'Weekly organisation score and coverage from snapshots (period 30d, 90d or 1y; default 90d).',
    authScopes: allow(scoreRoles.read),
    args: { period: t.arg.string({ required: false }) },
    resolve: (_root, { period }, context) => scores.scoreHistory(context.services, { period: period ?? undefined }),
  }),
  scoreConfig: t.field({
    type: ScoreConfigType,
    authScopes: allow(scoreRoles.config),
    resolve: (_root, _args, context) => getScoreConfig(context.services),
  }),
  heatmap: t.field({
    type: HeatmapType,
    description: 'Every active technique in matrix order with status and score (optional platform, any case).',
    authScopes: allow(scoreRoles.heatmap),
    args: { platform: t.arg.string({ required: false }) },
    resolve: (_root, args, context) => heatmap(context.services, args),
  }),
  navigatorLayer: t.field({
    type: 'JSON',
    description:
      'An ATT&CK Navigator layer (format 4.5): live coverage, one snapshot (snapshotId), or the change between two snapshots (before and after).',
    authScopes: allow(scoreRoles.heatmap),
    args: {
      platform: t.arg.string({ required: false }),
      snapshotId: t.arg.string({ required: false }),
      before: t.arg.string({ required: false, description: 'Earlier snapshot of a comparison.' }),
      after: t.arg.string({ required: false, description: 'Later snapshot of a comparison.' }),
    },
    resolve: (_root, args, context) => navigatorLayer(context.services, args),
  }),
}));

builder.mutationFields((t) => ({
  updateScoreConfig: t.field({
    type: ScoreConfigType,
    description: 'Changes scoring weights; together they must add up to 1.',
    authScopes: allow(scoreRoles.config),
    args: { input: t.arg({ type: UpdateScoreConfigInput, required: true }) },
    resolve: (_root, { input }, context) => updateScoreConfig(context.services, actorOf(context), input),
  }),
}));

const scoreOf = createContextCache(
  (context: Context) =>
    new DataLoader<string, number | null>(async (ids) => {
      const found = await techniqueScores(context.services, ids);
      return ids.map((id) => found.get(id)?.score ?? null);
    }),
);

builder.prismaObjectField('Technique', 'score', (t) =>
  t.float({
    nullable: true,
    description: 'Technique score (0–100, see techniqueScore for the breakdown); null for revoked and deprecated techniques.',
    select: { id: true },
    resolve: (technique, _args, context) => scoreOf(context).load(technique.id),
  }),
);
