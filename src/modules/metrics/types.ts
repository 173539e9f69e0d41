import { builder } from '../../graphql/builder.ts';
import { stateCountsType } from '../test-runs/state-counts.ts';
import { cappedListCost } from '../../graphql/cost.ts';
import { statusCountFields } from '../techniques/types.ts';
import { TestStateEnum } from '../test-runs/types.ts';
import type { CoverageCounts, TacticCoverage } from './coverage.ts';
import type { ActivityEntry, CampaignCounts, DashboardKpis, ExecutiveSummary } from './dashboard.ts';
import type {
  Efficacy,
  HoursStats,
  OperationalKpis,
  OperationalTrend,
  OperationalWeek,
  SecondsStats,
  TeamBreakdown,
} from './operational.ts';
import type { LeadValidation, RecentTest, TeamActivity, TestPipeline, ValidationRates } from './workflow.ts';

/** Weeks of the longest trend period (1y). */
export const WEEKS_IN_A_YEAR = 53;

const COVERAGE = 'Coverage percentage: (validated + 0.5 × partial) / total × 100, one decimal.';

export const MetricsSummaryType = builder.objectRef<CoverageCounts>('MetricsSummary').implement({
  description: 'Active techniques (neither revoked nor deprecated, sub-techniques included) by coverage status.',
  fields: (t) => ({
    totalTechniques: t.exposeInt('total'),
    ...statusCountFields(t),
    coveragePercentage: t.exposeFloat('coveragePercentage', { description: `${COVERAGE} 0 without techniques.` }),
  }),
});

export const TacticCoverageType = builder.objectRef<TacticCoverage>('TacticCoverage').implement({
  description: 'Coverage of the active techniques of one tactic; a technique counts under each of its tactics.',
  fields: (t) => ({
    tactic: t.exposeString('tactic', { description: 'Display name, e.g. Defense Evasion.' }),
    shortName: t.exposeString('shortName', { description: 'ATT&CK short name, e.g. defense-evasion.' }),
    tacticId: t.exposeString('tacticId', { nullable: true, description: 'TA id; null for a tactic only custom techniques name.' }),
    matrixOrder: t.exposeInt('matrixOrder', { nullable: true, description: 'Position in the matrix; null for a custom tactic.' }),
    total: t.exposeInt('total'),
    ...statusCountFields(t),
    covered: t.int({ description: 'Validated plus partial techniques.', resolve: (row) => row.validated + row.partial }),
    coveragePercentage: t.exposeFloat('coveragePercentage', { description: `${COVERAGE} 0 for a tactic without techniques.` }),
  }),
});

export const TestPipelineType = stateCountsType<TestPipeline>('TestPipeline', 'Tests by state (every state, zeros included).', {
  total: true,
});

export const TeamActivityType = builder.objectRef<TeamActivity>('TeamActivity').implement({
  description: "Each team's part of the tests, done or still to do, from the tests' current states.",
  fields: (t) => ({
    redCompleted: t.exposeInt('redCompleted', { description: 'Red side submitted: blue_evaluating, in_review, rejected or validated.' }),
    redPending: t.exposeInt('redPending', { description: 'Red side still to do: draft or red_executing.' }),
    blueCompleted: t.exposeInt('blueCompleted', { description: 'Blue side submitted: in_review, rejected or validated.' }),
    bluePending: t.exposeInt('bluePending', { description: 'Blue side still to do: blue_evaluating.' }),
  }),
});

const LeadValidationType = builder.objectRef<LeadValidation>('LeadValidation').implement({
  description: "One lead side's decisions standing on tests now.",
  fields: (t) => ({
    approved: t.exposeInt('approved'),
    rejected: t.exposeInt('rejected'),
    decided: t.exposeInt('decided', { description: 'Approved plus rejected.' }),
    approvalRate: t.exposeFloat('approvalRate', {
      nullable: true,
      description: 'approved / decided × 100, one decimal; null before any decision.',
    }),
    rejectionRate: t.exposeFloat('rejectionRate', {
      nullable: true,
      description: 'rejected / decided × 100, one decimal; null before any decision.',
    }),
  }),
});

export const ValidationRatesType = builder.objectRef<ValidationRates>('ValidationRates').implement({
  description: 'Approval and rejection rates of the red lead and blue lead sides.',
  fields: (t) => ({
    redLead: t.field({ type: LeadValidationType, resolve: (rates) => rates.redLead }),
    blueLead: t.field({ type: LeadValidationType, resolve: (rates) => rates.blueLead }),
  }),
});

export const RecentTestType = builder.objectRef<RecentTest>('RecentTest').implement({
  description: 'A recently updated test with its technique.',
  fields: (t) => ({
    id: t.exposeID('id'),
    name: t.exposeString('name'),
    state: t.expose('state', { type: TestStateEnum }),
    techniqueId: t.exposeID('techniqueId'),
    ttpId: t.exposeString('ttpId', { description: "The technique's ttp id." }),
    techniqueName: t.exposeString('techniqueName'),
    updatedAt: t.expose('updatedAt', { type: 'DateTime' }),
  }),
});

export const SecondsStatsType = builder.objectRef<SecondsStats>('DurationSeconds').implement({
  description:
    'A duration in seconds over several tests: count, mean, median and 90th percentile (continuous), one decimal; null when count is 0.',
  fields: (t) => ({
    count: t.exposeInt('count'),
    meanSeconds: t.exposeFloat('meanSeconds', { nullable: true }),
    medianSeconds: t.exposeFloat('medianSeconds', { nullable: true }),
    p90Seconds: t.exposeFloat('p90Seconds', { nullable: true }),
  }),
});

export const HoursStatsType = builder.objectRef<HoursStats>('DurationHours').implement({
  description:
    'A duration in hours over several tests: count, mean, median and 90th percentile (continuous), two decimals; null when count is 0.',
  fields: (t) => ({
    count: t.exposeInt('count'),
    meanHours: t.exposeFloat('meanHours', { nullable: true }),
    medianHours: t.exposeFloat('medianHours', { nullable: true }),
    p90Hours: t.exposeFloat('p90Hours', { nullable: true }),
  }),
});

export const EfficacyType = builder.objectRef<Efficacy>('DetectionEfficacy').implement({
  description: 'Detection results that stand (tests in review or validated).',
  fields: (t) => ({
    tests: t.exposeInt('tests'),
    detected: t.exposeInt('detected'),
    partiallyDetected: t.exposeInt('partiallyDetected'),
    notDetected: t.exposeInt('notDetected'),
    rate: t.exposeFloat('rate', {
      nullable: true,
      description: '(detected + 0.5 × partially detected) / tests × 100, one decimal; null without tests.',
    }),
  }),
});

const OperationalFigures = builder
  .interfaceRef<{ mttd: SecondsStats; mttr: HoursStats; efficacy: Efficacy }>('OperationalFigures')
  .implement({
    description: 'MTTD, MTTR and detection efficacy.',
    fields: (t) => ({
      mttd: t.field({
        type: SecondsStatsType,
        description: 'Mean time to detect: execution_date → blue_submitted_at of detected and partially detected results.',
        resolve: (row) => row.mttd,
      }),
      mttr: t.field({
        type: HoursStatsType,
        description:
          'Mean time to remediate: gap recorded (blue_submitted_at of a not_detected result, else decided_at of a rejected test) → remediation_completed_at.',
        resolve: (row) => row.mttr,
      }),
      efficacy: t.field({ type: EfficacyType, resolve: (row) => row.efficacy }),
    }),
  });

export const OperationalKpisType = builder.objectRef<OperationalKpis>('OperationalKpis').implement({
  description: 'MTTD, MTTR and detection efficacy (cached five minutes; refreshed when a test changes state or coverage changes).',
  interfaces: [OperationalFigures],
  fields: (t) => ({
    computedAt: t.expose('computedAt', { type: 'DateTime', description: 'When the figures were computed.' }),
  }),
});

const OperationalWeekType = builder.objectRef<OperationalWeek>('OperationalWeek').implement({
  description: 'The operational KPIs of one UTC week (results by blue submission, repairs by remediation completion).',
  interfaces: [OperationalFigures],
  fields: (t) => ({
    weekStart: t.expose('weekStart', { type: 'DateTime', description: 'Monday 00:00 UTC.' }),
  }),
});

export const OperationalTrendType = builder.objectRef<OperationalTrend>('OperationalTrend').implement({
  description: 'Weekly operational KPIs over a period; every week that overlaps it is present, zero-filled.',
  fields: (t) => ({
    period: t.exposeString('period'),
    from: t.expose('from', { type: 'DateTime', description: 'Start of the first week.' }),
    to: t.expose('to', { type: 'DateTime', description: 'End (exclusive) of the last week, the current one.' }),
    weeks: t.field({ type: [OperationalWeekType], complexity: cappedListCost(WEEKS_IN_A_YEAR), resolve: (trend) => trend.weeks }),
    computedAt: t.expose('computedAt', { type: 'DateTime' }),
  }),
});

const RedTeamType = builder.objectRef<TeamBreakdown['red']>('RedTeamFigures').implement({
  description: 'Red executions that stand (red side submitted; test in blue_evaluating, in_review or validated).',
  fields: (t) => ({
    executions: t.exposeInt('executions'),
    successfulAttacks: t.exposeInt('successfulAttacks'),
    attackSuccessRate: t.exposeFloat('attackSuccessRate', {
      nullable: true,
      description: 'successful / executions with attack_success recorded × 100.',
    }),
    execution: t.field({ type: SecondsStatsType, description: 'execution_date → red_submitted_at.', resolve: (red) => red.execution }),
  }),
});

const BlueTeamType = builder.objectRef<TeamBreakdown['blue']>('BlueTeamFigures').implement({
  description: 'Blue evaluations that stand (the same results as efficacy).',
  fields: (t) => ({
    evaluations: t.exposeInt('evaluations'),
    detected: t.exposeInt('detected'),
    partiallyDetected: t.exposeInt('partiallyDetected'),
    notDetected: t.exposeInt('notDetected'),
    detectionRate: t.exposeFloat('detectionRate', { nullable: true, description: 'Weighted as efficacy.' }),
    evaluation: t.field({
      type: SecondsStatsType,
      description: 'red_submitted_at → blue_submitted_at.',
      resolve: (blue) => blue.evaluation,
    }),
    mttd: t.field({ type: SecondsStatsType, description: 'As the operational MTTD.', resolve: (blue) => blue.mttd }),
  }),
});

export const TeamBreakdownType = builder.objectRef<TeamBreakdown>('OperationalByTeam').implement({
  description: 'Red versus blue operational figures (cached five minutes like the KPIs).',
  fields: (t) => ({
    red: t.field({ type: RedTeamType, resolve: (row) => row.red }),
    blue: t.field({ type: BlueTeamType, resolve: (row) => row.blue }),
    computedAt: t.expose('computedAt', { type: 'DateTime' }),
  }),
});

const CampaignCountsType = builder.objectRef<CampaignCounts>('CampaignCounts').implement({
  fields: (t) => ({
    total: t.exposeInt('total'),
    draft: t.exposeInt('draft'),
    active: t.exposeInt('active'),
    completed: t.exposeInt('completed'),
  }),
});

export const DashboardKpisType = builder.objectRef<DashboardKpis>('DashboardKpis').implement({
  description: 'Headline figures: techniques and coverage, tests by state, campaigns by status.',
  fields: (t) => ({
    totalTechniques: t.int({ resolve: (kpis) => kpis.coverage.total }),
    coveredPercentage: t.float({ description: `${COVERAGE}`, resolve: (kpis) => kpis.coverage.coveragePercentage }),
    coverage: t.field({ type: MetricsSummaryType, resolve: (kpis) => kpis.coverage }),
    tests: t.field({ type: TestPipelineType, resolve: (kpis) => kpis.tests }),
    campaigns: t.field({ type: CampaignCountsType, resolve: (kpis) => kpis.campaigns }),
  }),
});

export const ExecutiveSummaryType = builder.objectRef<ExecutiveSummary>('ExecutiveSummary').implement({
  description: 'A narrative summary written from the current figures, with the figures.',
  fields: (t) => ({
    summary: t.exposeString('summary', { description: 'The sentences as one paragraph.' }),
    sentences: t.exposeStringList('sentences'),
    coverage: t.field({ type: MetricsSummaryType, resolve: (summary) => summary.coverage }),
    strongestTactic: t.field({ type: TacticCoverageType, nullable: true, resolve: (summary) => summary.strongestTactic }),
    weakestTactic: t.field({ type: TacticCoverageType, nullable: true, resolve: (summary) => summary.weakestTactic }),
    testsValidatedLast30Days: t.exposeInt('testsValidatedLast30Days', { description: 'Tests that reached validated in the last 30 days.' }),
    openRemediation: t.exposeInt('openRemediation', { description: 'Tests whose remediation is pending or in progress.' }),
    efficacyRate: t.exposeFloat('efficacyRate', { nullable: true, description: 'Detection efficacy, as in the operational KPIs.' }),
    efficacyTests: t.exposeInt('efficacyTests'),
    generatedAt: t.expose('generatedAt', { type: 'DateTime' }),
  }),
});

export const ActivityEntryType = builder.objectRef<ActivityEntry>('ActivityEntry').implement({
  description: 'One entry of the activity feed: who did what to which record, and when.',
  fields: (t) => ({
    id: t.exposeID('id'),
    userId: t.exposeID('userId', { nullable: true }),
    username: t.exposeString('username'),
    action: t.exposeString('action'),
    entityType: t.exposeString('entityType'),
    entityId: t.exposeString('entityId', { nullable: true }),
    timestamp: t.expose('timestamp', { type: 'DateTime' }),
  }),
});
