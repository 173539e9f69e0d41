import './types.ts';
import { body, type Route } from '../../../rest-adapter/types.ts';
import { testRoles } from './permissions.ts';
import { TRANSITIONS, type TransitionInput } from './state-machine.ts';

/** Every field of a test in the spec's snake_case. */
export const TEST_FIELDS = `id techniqueId technique { id ttpId name tactic statusGlobal }
  name description platform procedureText toolUsed attackSuccess redSummary
  detectionResult blueSummary state validTransitions
  executionDate redSubmittedAt blueSubmittedAt
  redValidationStatus redValidationNotes redValidatedById redValidatedAt
  blueValidationStatus blueValidationNotes blueValidatedById blueValidatedAt
  pendingValidationSides decidedAt
  remediationSteps remediationStatus remediation_assignee: remediationAssigneeId
  remediationCompletedAt dataClassification
  createdById assignedToId campaignId templateId
  retestOfId lineageId elapsedSeconds timerRunning timerStartedAt
  version createdAt updatedAt`;

/**
 * A test's evidence and detection-rule evaluations in the spec's snake_case: the test detail carries them, and the
 * evidence and detection-rules routes answer with the same fields.
 */
export const EVIDENCE_FIELDS = `id testId team fileName contentType sizeBytes
  sha256Hash uploadedAt uploadedById downloadUrl downloadUrlExpiresAt`;
export const DETECTION_EVALUATION_FIELDS = `id testId ruleId ruleTitle ruleSource
  ruleExternalId ruleAuthor triggered notes evaluatedById evaluatedAt`;

/** The single read adds the attached evidence and the detection rules evaluated on the test. */
const TEST_DETAIL_FIELDS = `${TEST_FIELDS}
  evidences { ${EVIDENCE_FIELDS} }
  detectionEvaluations { ${DETECTION_EVALUATION_FIELDS} }
  trackerIssue { id status issueKey issueUrl trackerStatus lastError }`;

const EVENT_FIELDS = `id kind fromState toState actorId actorName at details`;

const TRANSITION_INPUT_TYPES: Record<TransitionInput, string> = {
  redValidation: 'ValidateTestRedInput!',
  blueValidation: 'ValidateTestBlueInput!',
  legacyValidation: 'LegacyValidateTestInput',
  legacyRejection: 'RejectTestInput',
};

/** POST /tests/{id}/<action>: one row per row of the transition table. */
const transitionRoutes: Route[] = TRANSITIONS.map(
  (row): Route => ({
    method: 'POST',
    path: `/tests/:id/${row.path}`,
    tag: 'Tests',
    summary: row.summary,
    roles: row.roles,
    document: row.input
      ? `mutation ($id: UUID!, $input: ${TRANSITION_INPUT_TYPES[row.input]}) { ${row.mutation}(id: $id, input: $input) { ${TEST_FIELDS} } }`
      : `mutation ($id: UUID!) { ${row.mutation}(id: $id) { ${TEST_FIELDS} } }`,
    variables: row.input ? { input: body() } : {},
  }),
);

const update = (
  method: 'PATCH' | 'POST',
  suffix: string,
  mutation: string,
  input: string | null,
  roles: Route['roles'],
  summary: string,
): Route => ({
  method,
  path: `/tests/:id${suffix}`,
  tag: 'Tests',
  summary,
  roles,
  document: input
    ? `mutation ($id: UUID!, $input: ${input}!) { ${mutation}(id: $id, input: $input) { ${TEST_FIELDS} } }`
    : `mutation ($id: UUID!) { ${mutation}(id: $id) { ${TEST_FIELDS} } }`,
  variables: input ? { input: body() } : {},
});

export const testsRoutes: Route[] = [
  {
    method: 'GET',
    path: '/tests',
    tag: 'Tests',
    summary:
      'List tests, newest first (filters state, technique_id, campaign_id, assigned_to, platform, created_by, pending_validation_side; offset/limit, or after = next_cursor of the page before)',
    roles: testRoles.read,
    document: `query ($state: TestState, $techniqueId: String, $campaignId: UUID, $assignedTo: UUID, $platform: String, $createdBy: UUID,
        $pendingValidationSide: ValidationSide, $offset: Int, $limit: Int, $after: String) {
      tests(filter: { state: $state, techniqueId: $techniqueId, campaignId: $campaignId, assignedTo: $assignedTo, platform: $platform,
          createdBy: $createdBy, pendingValidationSide: $pendingValidationSide }, offset: $offset, limit: $limit, after: $after) {
        items { ${TEST_FIELDS} } total totalExact offset limit nextCursor
      }
    }`,
  },
  {
    method: 'POST',
    path: '/tests',
    tag: 'Tests',
    summary:
      'Create a test in draft (body technique_id, name or title, description or objective, platform, procedure_text, tool_used, assigned_to, campaign_id)',
    roles: testRoles.create,
    status: 201,
    document: `mutation ($input: CreateTestInput!) { createTest(input: $input) { ${TEST_FIELDS} } }`,
    variables: { input: body() },
  },
  {
    method: 'POST',
    path: '/tests/from-template',
    tag: 'Tests',
    summary:
      "Create a draft from a template (body template_id, technique_id: defaults to the template's technique; optional name, assigned_to, campaign_id)",
    roles: testRoles.create,
    status: 201,
    document: `mutation ($input: CreateTestFromTemplateInput!) { createTestFromTemplate(input: $input) { ${TEST_FIELDS} } }`,
    variables: { input: body() },
  },
  {
    method: 'GET',
    path: '/tests/:id',
    tag: 'Tests',
    summary: 'One test with every field, its evidences and its detection-rule evaluations',
    roles: testRoles.read,
    document: `query ($id: UUID!) { test(id: $id) { ${TEST_DETAIL_FIELDS} } }`,
  },
  update(
    'PATCH',
    '',
    'updateTest',
    'UpdateTestInput',
    testRoles.update,
    'General update (name or title, description or objective, platform, assigned_to, technique_id); draft or rejected only',
  ),
  update(
    'PATCH',
    '/classification',
    'setTestClassification',
    'TestClassificationInput',
    testRoles.classify,
    'Set data_classification (null clears it)',
  ),
  update(
    'PATCH',
    '/red',
    'updateTestRed',
    'UpdateTestRedInput',
    testRoles.updateRed,
    'Red-side update (procedure_text, tool_used, attack_success, red_summary); draft or red_executing',
  ),
  update(
    'PATCH',
    '/blue',
    'updateTestBlue',
    'UpdateTestBlueInput',
    testRoles.updateBlue,
    'Blue-side update (detection_result, blue_summary); blue_evaluating only',
  ),
  update(
    'PATCH',
    '/remediation',
    'updateTestRemediation',
    'UpdateTestRemediationInput',
    testRoles.updateRemediation,
    'Remediation update (remediation_steps, remediation_status, remediation_assignee); in_review, validated or rejected',
  ),
  ...transitionRoutes,
  update('POST', '/pause-timer', 'pauseTestTimer', null, testRoles.timer, 'Pause the elapsed-time counter (idempotent)'),
  update(
    'POST',
    '/resume-timer',
    'resumeTestTimer',
    null,
    testRoles.timer,
    'Resume the elapsed-time counter in red_executing or blue_evaluating (idempotent)',
  ),
  {
    ...update(
      'POST',
      '/retest',
      'createRetest',
      null,
      testRoles.retest,
      'Re-run a validated or rejected test: a new draft in the same retest lineage',
    ),
    status: 201,
  },
  {
    method: 'GET',
    path: '/tests/:id/timeline',
    tag: 'Tests',
    summary: 'Timeline of the test: creation, state changes, edits, validations and timer actions, oldest first',
    roles: testRoles.read,
    document: `query ($id: UUID!) { testTimeline(testId: $id) { ${EVENT_FIELDS} } }`,
  },
  {
    method: 'GET',
    path: '/tests/:id/retest-chain',
    tag: 'Tests',
    summary: 'Every test of the retest lineage, in creation order',
    roles: testRoles.read,
    document: `query ($id: UUID!) { retestChain(testId: $id) { ${TEST_FIELDS} } }`,
  },
];
