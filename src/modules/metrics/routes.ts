import { query, type GraphqlRoute, type Route } from '../../../rest-adapter/types.ts';
import { metricsRoles } from './permissions.ts';

const SUMMARY = `total_techniques: totalTechniques validated partial not_covered: notCovered in_progress: inProgress
  not_evaluated: notEvaluated coverage_percentage: coveragePercentage`;
const TACTIC = `tactic short_name: shortName tactic_id: tacticId matrix_order: matrixOrder total validated partial
  not_covered: notCovered not_evaluated: notEvaluated in_progress: inProgress covered coverage_percentage: coveragePercentage`;
const PIPELINE = `total draft red_executing: redExecuting blue_evaluating: blueEvaluating in_review: inReview rejected validated`;
const LEAD = `approved rejected decided approval_rate: approvalRate rejection_rate: rejectionRate`;
const SECONDS = `count mean_seconds: meanSeconds median_seconds: medianSeconds p90_seconds: p90Seconds`;
const HOURS = `count mean_hours: meanHours median_hours: medianHours p90_hours: p90Hours`;
const KPIS = `mttd { ${SECONDS} } mttr { ${HOURS} }
  efficacy { tests detected partially_detected: partiallyDetected not_detected: notDetected rate }`;

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
    `query { teamActivity { red_completed: redCompleted red_pending: redPending blue_completed: blueCompleted blue_pending: bluePending } }`,
  ),
  route(
    '/metrics/validation-rate',
    'Approval and rejection rates for the red lead and blue lead sides',
    `query { validationRates { red_lead: redLead { ${LEAD} } blue_lead: blueLead { ${LEAD} } } }`,
  ),
  route(
    '/metrics/recent-tests',
    'The 10 most recently updated tests',
    `query { recentTests { id name state technique_id: techniqueId ttp_id: ttpId technique_name: techniqueName updated_at: updatedAt } }`,
  ),
  route(
    '/metrics/operational',
    'MTTD (seconds), MTTR (hours) and detection efficacy with counts, medians and 90th percentiles; cached 5 minutes',
    `query { operationalKpis { ${KPIS} computed_at: computedAt } }`,
  ),
  route(
    '/metrics/operational/trend',
    'Weekly operational KPIs (query period: 30d, 90d or 1y; default 30d)',
    `query ($period: String) { operationalTrend(period: $period) { period from to weeks { week_start: weekStart ${KPIS} } computed_at: computedAt } }`,
    { period: query('period') },
  ),
  route(
    '/metrics/operational/by-team',
    'Red versus blue: executions, attack success and execution time; evaluations, detection rate, evaluation time and MTTD',
    `query { operationalByTeam {
      red { executions successful_attacks: successfulAttacks attack_success_rate: attackSuccessRate execution { ${SECONDS} } }
      blue { evaluations detected partially_detected: partiallyDetected not_detected: notDetected detection_rate: detectionRate
        evaluation { ${SECONDS} } mttd { ${SECONDS} } }
      computed_at: computedAt } }`,
  ),
  route(
    '/dashboard/kpis',
    'Total techniques, covered percentage, tests by state, campaigns by status',
    `query { dashboardKpis { total_techniques: totalTechniques covered_percentage: coveredPercentage coverage { ${SUMMARY} }
      tests { ${PIPELINE} } campaigns { total draft active completed } } }`,
  ),
  route(
    '/dashboard/executive',
    'Narrative executive summary with its figures',
    `query { executiveSummary { summary sentences coverage { ${SUMMARY} } strongest_tactic: strongestTactic { ${TACTIC} }
      weakest_tactic: weakestTactic { ${TACTIC} } tests_validated_last_30_days: testsValidatedLast30Days
      open_remediation: openRemediation efficacy_rate: efficacyRate efficacy_tests: efficacyTests generated_at: generatedAt } }`,
  ),
  route('/dashboard/coverage-by-tactic', 'Per-tactic coverage: counts and percentage', `query { coverageByTactic { ${TACTIC} } }`),
  route(
    '/dashboard/activity',
    'Recent activity from the audit log, newest first (query limit: default 20, max 100)',
    `query ($limit: Int) { activityFeed(limit: $limit) { id user_id: userId username action entity_type: entityType entity_id: entityId timestamp } }`,
    { limit: query('limit') },
  ),
];
