import { body, type Route } from '../../../rest-adapter/types.ts';
import { ALERT_TRANSITIONS } from './lifecycle.ts';
import { alertRoles } from './permissions.ts';

const TAG = 'Alerts';
const ALERT_FIELDS =
  'id ruleId ruleType severity subject techniqueId title figures status firedAt acknowledgedAt resolvedAt dismissedAt changedBy note';
const RULE_FIELDS = 'id name ruleType severity parameters enabled cooldownMinutes createdBy lastEvaluatedAt createdAt updatedAt';
/** POST /alerts/{id}/<action>: one row per row of the transition table. */
const transitionRoutes = ALERT_TRANSITIONS.map(
  (row): Route => ({
    method: 'POST',
    path: `/alerts/:id/${row.path}`,
    tag: TAG,
    summary: `${row.summary} (optional body note); INVALID_TRANSITION otherwise`,
    roles: row.roles,
    document: `mutation ($id: UUID!, $note: String) { ${row.mutation}(id: $id, note: $note) { ${ALERT_FIELDS} } }`,
  }),
);

export const alertRoutes: Route[] = [
  {
    method: 'POST',
    path: '/alerts/evaluate',
    tag: TAG,
    summary: 'Evaluate every enabled rule now; answers rules_evaluated, fired and the new alert ids',
    roles: alertRoles.manage,
    expensive: true,
    document: 'mutation { evaluateAlerts { rulesEvaluated fired alertIds } }',
  },
  {
    method: 'GET',
    path: '/alerts/summary',
    tag: TAG,
    summary: 'Alert counts by status, severity and rule type',
    roles: alertRoles.read,
    document:
      'query { alertSummary { total byStatus { open acknowledged resolved dismissed } bySeverity { critical high medium low informational } byRuleType { coverage_below coverage_drop validation_expired actor_technique_uncovered confidence_below rejected_tests osint_uncovered_technique } } }',
  },
  {
    method: 'GET',
    path: '/alerts/rules',
    tag: TAG,
    summary: 'Alert rules, newest first',
    roles: alertRoles.read,
    document: `query ($offset: Int, $limit: Int) { alertRules(offset: $offset, limit: $limit) { items { ${RULE_FIELDS} } total offset limit } }`,
  },
  {
    method: 'POST',
    path: '/alerts/rules',
    tag: TAG,
    summary: 'Create a rule (body name, rule_type, severity, parameters per type, enabled, cooldown_minutes)',
    roles: alertRoles.manage,
    status: 201,
    document: `mutation ($input: CreateAlertRuleInput!) { createAlertRule(input: $input) { ${RULE_FIELDS} } }`,
    variables: { input: body() },
  },
  {
    method: 'GET',
    path: '/alerts/rules/:id',
    tag: TAG,
    summary: 'One rule',
    roles: alertRoles.read,
    document: `query ($id: UUID!) { alertRule(id: $id) { ${RULE_FIELDS} } }`,
  },
  {
    method: 'PATCH',
    path: '/alerts/rules/:id',
    tag: TAG,
    summary: 'Update a rule',
    roles: alertRoles.manage,
    document: `mutation ($id: UUID!, $input: UpdateAlertRuleInput!) { updateAlertRule(id: $id, input: $input) { ${RULE_FIELDS} } }`,
    variables: { input: body() },
  },
  {
    method: 'DELETE',
    path: '/alerts/rules/:id',
    tag: TAG,
    summary: 'Delete a rule and its alerts',
    roles: alertRoles.deleteRule,
    status: 204,
    document: 'mutation ($id: UUID!) { deleteAlertRule(id: $id) }',
  },
  {
    method: 'GET',
    path: '/alerts',
    tag: TAG,
    summary: 'Alerts, newest first (filters status, severity, rule_type, rule_id)',
    roles: alertRoles.read,
    document: `query ($status: AlertStatus, $severity: AlertSeverity, $ruleType: AlertRuleType, $ruleId: UUID, $offset: Int, $limit: Int) {
      alerts(status: $status, severity: $severity, ruleType: $ruleType, ruleId: $ruleId, offset: $offset, limit: $limit) { items { ${ALERT_FIELDS} } total offset limit } }`,
  },
  {
    method: 'GET',
    path: '/alerts/:id',
    tag: TAG,
    summary: 'One alert with its figures',
    roles: alertRoles.read,
    document: `query ($id: UUID!) { alert(id: $id) { ${ALERT_FIELDS} } }`,
  },
  ...transitionRoutes,
];
