import { body, type Route } from '../../../rest-adapter/types.ts';
import { DETECTION_EVALUATION_FIELDS } from '../test-runs/routes.ts';
import { detectionRuleRoles } from './permissions.ts';

const RULE_SUMMARY_FIELDS = `id title description source ttpTechniqueId techniqueIds severity status
  logSource externalId author references license sourceUrl isActive
  createdById createdAt updatedAt`;
const RULE_FIELDS = `${RULE_SUMMARY_FIELDS} content`;

export const detectionRulesRoutes: Route[] = [
  {
    method: 'GET',
    path: '/detection-rules',
    tag: 'Detection rules',
    summary: 'List detection rules by title (filters source, ttp_technique_id, severity, search, is_active); items omit content',
    roles: detectionRuleRoles.read,
    document: `query ($source: String, $ttpTechniqueId: String, $severity: DetectionRuleSeverity, $search: String, $isActive: Boolean, $offset: Int, $limit: Int) {
      detectionRules(filter: { source: $source, ttpTechniqueId: $ttpTechniqueId, severity: $severity, search: $search, isActive: $isActive }, offset: $offset, limit: $limit) {
        items { ${RULE_SUMMARY_FIELDS} } total offset limit
      }
    }`,
  },
  {
    method: 'POST',
    path: '/detection-rules',
    tag: 'Detection rules',
    summary:
      'Create a rule (body title; optional source, external_id, description, ttp_technique_id, technique_ids, severity, status, log_source, content, author, references, license, source_url, is_active)',
    roles: detectionRuleRoles.create,
    status: 201,
    document: `mutation ($input: CreateDetectionRuleInput!) { createDetectionRule(input: $input) { ${RULE_FIELDS} } }`,
    variables: { input: body() },
  },
  {
    method: 'POST',
    path: '/detection-rules/evaluate',
    tag: 'Detection rules',
    summary:
      'Record whether a rule triggered for a test (body test_id, rule_id, triggered, notes); test in blue_evaluating, in_review, validated or rejected',
    roles: detectionRuleRoles.evaluate,
    status: 201,
    document: `mutation ($input: EvaluateDetectionRuleInput!) { evaluateDetectionRule(input: $input) { ${DETECTION_EVALUATION_FIELDS} } }`,
    variables: { input: body() },
  },
  {
    method: 'GET',
    path: '/detection-rules/:id',
    tag: 'Detection rules',
    summary: 'One detection rule, with its content',
    roles: detectionRuleRoles.read,
    document: `query ($id: UUID!) { detectionRule(id: $id) { ${RULE_FIELDS} } }`,
  },
  {
    method: 'PATCH',
    path: '/detection-rules/:id',
    tag: 'Detection rules',
    summary: 'Update a rule (source and external_id are fixed; a Sigma re-import restores upstream fields of imported rules)',
    roles: detectionRuleRoles.update,
    document: `mutation ($id: UUID!, $input: UpdateDetectionRuleInput!) { updateDetectionRule(id: $id, input: $input) { ${RULE_FIELDS} } }`,
    variables: { input: body() },
  },
  {
    method: 'DELETE',
    path: '/detection-rules/:id',
    tag: 'Detection rules',
    summary: 'Delete a rule (its evaluations stay on their tests with the rule title, external id and author)',
    roles: detectionRuleRoles.delete,
    status: 204,
    document: `mutation ($id: UUID!) { deleteDetectionRule(id: $id) { id } }`,
  },
];
