import { allow } from '../../graphql/access.ts';
import { pagedList } from '../../graphql/pagination.ts';
import { builder } from '../../graphql/builder.ts';
import { CATALOG_SHAPE } from '../catalog/catalog-shape.ts';
import { cappedListCost } from '../../graphql/cost.ts';
import { coverageByTactic, coverageSummary } from './coverage.ts';
import { ACTIVITY_PAGE, activityFeed, dashboardKpis, executiveSummary } from './dashboard.ts';
import { operationalByTeam, operationalKpis, operationalTrend, PERIODS } from './operational.ts';
import { metricsRoles } from './permissions.ts';
import {
  ActivityEntryType,
  DashboardKpisType,
  ExecutiveSummaryType,
  MetricsSummaryType,
  OperationalKpisType,
  OperationalTrendType,
  RecentTestType,
  TacticCoverageType,
  TeamActivityType,
  TeamBreakdownType,
  TestPipelineType,
  ValidationRatesType,
} from './types.ts';
import { RECENT_TESTS, recentTests, teamActivity, testPipeline, validationRates } from './workflow.ts';

const read = allow(metricsRoles.read);

builder.queryFields((t) => ({
  metricsSummary: t.field({
    type: MetricsSummaryType,
    description: 'Active techniques by coverage status, with the coverage percentage.',
    authScopes: read,
    resolve: (_root, _args, context) => coverageSummary(context.services),
  }),
  metricsByTactic: t.field({
    complexity: cappedListCost(CATALOG_SHAPE.tactics),
    type: [TacticCoverageType],
    description: 'Coverage per tactic in matrix order (tactics only custom techniques name last).',
    authScopes: read,
    resolve: (_root, _args, context) => coverageByTactic(context.services),
  }),
  testPipeline: t.field({
    type: TestPipelineType,
    description: 'Tests by state.',
    authScopes: read,
    resolve: (_root, _args, context) => testPipeline(context.services),
  }),
  teamActivity: t.field({
    type: TeamActivityType,
    description: 'Red and blue tests completed and pending.',
    authScopes: read,
    resolve: (_root, _args, context) => teamActivity(context.services),
  }),
  validationRates: t.field({
    type: ValidationRatesType,
    description: 'Approval and rejection rates of the red lead and blue lead sides.',
    authScopes: read,
    resolve: (_root, _args, context) => validationRates(context.services),
  }),
  recentTests: t.field({
    complexity: cappedListCost(RECENT_TESTS),
    type: [RecentTestType],
    description: `The ${RECENT_TESTS} most recently updated tests, newest first.`,
    authScopes: read,
    resolve: (_root, _args, context) => recentTests(context.services),
  }),
  operationalKpis: t.field({
    type: OperationalKpisType,
    description: 'MTTD, MTTR and detection efficacy (cached five minutes).',
    authScopes: read,
    resolve: (_root, _args, context) => operationalKpis(context.services),
  }),
  operationalTrend: t.field({
    type: OperationalTrendType,
    description: `Weekly operational KPIs; period one of ${Object.keys(PERIODS).join(', ')} (default 30d).`,
    authScopes: read,
    args: { period: t.arg.string({ required: false }) },
    resolve: (_root, { period }, context) => operationalTrend(context.services, { period: period ?? undefined }),
  }),
  operationalByTeam: t.field({
    type: TeamBreakdownType,
    description: 'Red versus blue operational figures.',
    authScopes: read,
    resolve: (_root, _args, context) => operationalByTeam(context.services),
  }),
  dashboardKpis: t.field({
    type: DashboardKpisType,
    description: 'Techniques and coverage, tests by state, campaigns by status.',
    authScopes: read,
    resolve: (_root, _args, context) => dashboardKpis(context.services),
  }),
  executiveSummary: t.field({
    type: ExecutiveSummaryType,
    description: 'Narrative executive summary written from the current figures.',
    authScopes: read,
    resolve: (_root, _args, context) => executiveSummary(context.services),
  }),
  coverageByTactic: t.field({
    complexity: cappedListCost(CATALOG_SHAPE.tactics),
    type: [TacticCoverageType],
    description: 'Per-tactic coverage with percentages (same rows as metricsByTactic).',
    authScopes: read,
    resolve: (_root, _args, context) => coverageByTactic(context.services),
  }),
  activityFeed: t.field({
    type: [ActivityEntryType],
    ...pagedList(
      ACTIVITY_PAGE,
      (paging) => `Latest audit entries, newest first (${paging}); account, API key and notification entries are left out.`,
      { offset: false },
    ),
    authScopes: read,
    args: { limit: t.arg.int({ required: false }) },
    resolve: (_root, { limit }, context) => activityFeed(context.services, { limit: limit ?? undefined }),
  }),
}));
