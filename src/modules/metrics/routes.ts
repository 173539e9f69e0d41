import type { GraphqlRoute, Route } from '../../../rest-adapter/types.ts';
import { metricsRoles } from './permissions.ts';

const SUMMARY = `totalTechniques validated partial notCovered inProgress
  notEvaluated coveragePercentage`;
const TACTIC = `tactic shortName tacticId matrixOrder total validated partial
  notCovered notEvaluated inProgress covered coveragePercentage`;
const PIPELINE = `total draft redExecuting blueEvaluating inReview rejected validated`;
const LEAD = `approved rejected decided approvalRate rejectionRate`;
const SECONDS = `count meanSeconds medianSeconds p90Seconds`;
const HOURS = `count meanHours medianHours p90Hours`;
const KPIS = `mttd { ${SECONDS} } mttr { ${HOURS} }
  efficacy { tests detected partiallyDetected notDetected rate }`;

/** Every metrics and dashboard route is a read open to every signed-in role. */
const route = (path: string, summary: string, document: string, variables?: GraphqlRoute['variables']): GraphqlRoute => ({
  method: 'GET',
  path,
  tag: path.startsWith('/dashboard') ? 'Dashboard' : 'Metrics',
  summary,
  roles: metricsRoles.read,
  document,
  variables,
});

export const metricsRoutes: Route[] = [
  route(
    '/metrics/summary',
    'Active techniques by coverage status; coverage_percentage = (validated + 0.5 × partial) / total × 100',
    `query { metricsSummary { ${SUMMARY} } }`,
  ),
  route('/metrics/by-tactic', 'Coverage counts per tactic, in matrix order', `query { metricsByTactic { ${TACTIC} } }`),
  route('/metrics/test-pipeline', 'Test counts by state', `query { testPipeline { ${PIPELINE} } }`),
  route(
    '/metrics/team-activity',
    'Red and blue tests completed and pending',
    `query { teamActivity { redCompleted redPending blueCompleted bluePending } }`,
  ),
  route(
    '/metrics/validation-rate',
    'Approval and rejection rates for the red lead and blue lead sides',
    `query { validationRates { redLead { ${LEAD} } blueLead { ${LEAD} } } }`,
  ),
  route(
    '/metrics/recent-tests',
    'The 10 most recently updated tests',
    `query { recentTests { id name state techniqueId ttpId techniqueName updatedAt } }`,
  ),
  route(
    '/metrics/operational',
    'MTTD (seconds), MTTR (hours) and detection efficacy with counts, medians and 90th percentiles; cached 5 minutes',
    `query { operationalKpis { ${KPIS} computedAt } }`,
  ),
  route(
    '/metrics/operational/trend',
    'Weekly operational KPIs (query period: 30d, 90d or 1y; default 30d)',
    `query ($period: String) { operationalTrend(period: $period) { period from to weeks { weekStart ${KPIS} } computedAt } }`,
  ),
  route(
    '/metrics/operational/by-team',
    'Red versus blue: executions, attack success and execution time; evaluations, detection rate, evaluation time and MTTD',
    `query { operationalByTeam {
      red { executions successfulAttacks attackSuccessRate execution { ${SECONDS} } }
      blue { evaluations detected partiallyDetected notDetected detectionRate
        evaluation { ${SECONDS} } mttd { ${SECONDS} } }
      computedAt } }`,
  ),
  route(
    '/dashboard/kpis',
    'Total techniques, covered percentage, tests by state, campaigns by status',
    `query { dashboardKpis { totalTechniques coveredPercentage coverage { ${SUMMARY} }
      tests { ${PIPELINE} } campaigns { total draft active completed } } }`,
  ),
  route(
    '/dashboard/executive',
    'Narrative executive summary with its figures',
    `query { executiveSummary { summary sentences coverage { ${SUMMARY} } strongestTactic { ${TACTIC} }
      weakestTactic { ${TACTIC} } tests_validated_last_30_days: testsValidatedLast30Days
      openRemediation efficacyRate efficacyTests generatedAt } }`,
  ),
  route('/dashboard/coverage-by-tactic', 'Per-tactic coverage: counts and percentage', `query { coverageByTactic { ${TACTIC} } }`),
  route(
    '/dashboard/activity',
    'Recent activity from the audit log, newest first',
    `query ($limit: Int) { activityFeed(limit: $limit) { id userId username action entityType entityId timestamp } }`,
  ),
];
