import { allow } from '../../graphql/access.ts';
import { builder } from '../../graphql/builder.ts';
import { cappedListCost } from '../../graphql/cost.ts';
import { EfficacyType, HoursStatsType, SecondsStatsType, WEEKS_IN_A_YEAR } from '../metrics/types.ts';
import { analytics, type Analytics, type AnalyticsPoint } from './service.ts';
import { analyticsRoles } from './permissions.ts';

const AnalyticsPointType = builder.objectRef<AnalyticsPoint>('AnalyticsPoint').implement({
  description: 'One UTC week (Monday 00:00) of the trend series.',
  fields: (t) => ({
    weekStart: t.expose('weekStart', { type: 'DateTime' }),
    coveragePercentage: t.exposeFloat('coveragePercentage', { nullable: true, description: 'Of the latest snapshot by the week’s end.' }),
    validatedTechniques: t.exposeInt('validatedTechniques', { nullable: true, description: 'Of the same snapshot.' }),
    testsExecuted: t.exposeInt('testsExecuted', { description: 'Tests whose execution started in the week.' }),
    efficacy: t.field({ type: EfficacyType, resolve: (point) => point.efficacy }),
    mttd: t.field({ type: SecondsStatsType, resolve: (point) => point.mttd }),
    mttr: t.field({ type: HoursStatsType, resolve: (point) => point.mttr }),
    alertsFired: t.exposeInt('alertsFired'),
    detectionConfidence: t.exposeFloat('detectionConfidence', {
      nullable: true,
      description: "Average over validated techniques of the freshest validation's remaining life at the week's end, × 100.",
    }),
  }),
});

const AnalyticsType = builder.objectRef<Analytics>('Analytics').implement({
  fields: (t) => ({
    period: t.exposeString('period'),
    from: t.expose('from', { type: 'DateTime' }),
    to: t.expose('to', { type: 'DateTime' }),
    points: t.field({ type: [AnalyticsPointType], complexity: cappedListCost(WEEKS_IN_A_YEAR + 1), resolve: (result) => result.points }),
    computedAt: t.exposeString('computedAt'),
  }),
});

builder.queryFields((t) => ({
  analytics: t.field({
    type: AnalyticsType,
    description:
      'Trend series per week over a period (30d, 90d, 1y): coverage, validated techniques, tests executed, efficacy, MTTD, MTTR, alerts fired, detection confidence.',
    authScopes: allow(analyticsRoles.read),
    args: { period: t.arg.string({ description: '30d (default), 90d or 1y.' }) },
    resolve: (_root, args, context) => analytics(context.services, { period: args.period ?? undefined }),
  }),
}));
