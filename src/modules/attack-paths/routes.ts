import './types.ts';
import { body, path, type Route, type VariableSource } from '../../../rest-adapter/types.ts';
import { attackPathRoles } from './permissions.ts';
import { EXECUTION_TRANSITIONS } from './state-machine.ts';

const STEP_FIELDS = `id position techniqueId technique { id ttpId name } testTemplateId testTemplate { id name }
  expectedOutcome notes createdAt`;
const PATH_FIELDS = 'id name description version createdById createdAt updatedAt stepCount executionCount';
const PATH_DETAIL_FIELDS = `${PATH_FIELDS} steps { ${STEP_FIELDS} }`;

const EXECUTION_STEP_FIELDS = `id position sourceStepId techniqueId ttpId techniqueName testTemplateId expectedOutcome notes
  outcome outcomeNotes occurredAt recordedById recordedAt testId`;
const STEP_REFERENCE = 'id position ttpId techniqueName outcome occurredAt';
const SUMMARY_FIELDS = `summary { totalSteps counts { succeeded blocked detected notDetected skipped unrecorded }
  firstDetectedStep { ${STEP_REFERENCE} } firstBlockedStep { ${STEP_REFERENCE} } timeToDetectSeconds
  unnoticedSteps { ${STEP_REFERENCE} } }`;
const EXECUTION_FIELDS = `id attackPathId attackPathName status validTransitions notes createdById
  startedAt completedAt abortedAt abortReason version createdAt updatedAt`;
const EXECUTION_DETAIL_FIELDS = `${EXECUTION_FIELDS} steps { ${EXECUTION_STEP_FIELDS} } ${SUMMARY_FIELDS}`;

const TAG = 'Attack paths';

/** POST /executions/{id}/<action>: one row per row of the transition table. */
const transitionRoutes: Route[] = EXECUTION_TRANSITIONS.map((row): Route => {
  const takesInput = row.action !== 'complete';
  const input = row.action === 'start' ? 'StartAttackPathExecutionInput' : 'AbortAttackPathExecutionInput';
  const variables: Record<string, VariableSource> = takesInput ? { input: body() } : {};
  return {
    method: 'POST',
    path: `/executions/:id/${row.path}`,
    tag: TAG,
    summary: row.summary,
    roles: row.roles,
    document: takesInput
      ? `mutation ($id: UUID!, $input: ${input}) { ${row.mutation}(id: $id, input: $input) { ${EXECUTION_DETAIL_FIELDS} } }`
      : `mutation ($id: UUID!) { ${row.mutation}(id: $id) { ${EXECUTION_DETAIL_FIELDS} } }`,
    variables,
  };
});

export const attackPathsRoutes: Route[] = [
  {
    method: 'GET',
    path: '/attack-paths',
    tag: TAG,
    summary: 'List attack paths, newest first, with step_count and execution_count (search)',
    roles: attackPathRoles.read,
    document: `query ($search: String, $offset: Int, $limit: Int) {
      attackPaths(search: $search, offset: $offset, limit: $limit) { items { ${PATH_FIELDS} } total offset limit }
    }`,
  },
  {
    method: 'POST',
    path: '/attack-paths',
    tag: TAG,
    summary:
      'Create an attack path (body name, description, steps: the sequence of techniques, each technique (uuid or ttp id), test_template_id, expected_outcome, notes)',
    roles: attackPathRoles.write,
    status: 201,
    document: `mutation ($input: CreateAttackPathInput!) { createAttackPath(input: $input) { ${PATH_DETAIL_FIELDS} } }`,
    variables: { input: body() },
  },
  {
    method: 'GET',
    path: '/attack-paths/:id',
    tag: TAG,
    summary: 'One attack path with its steps in order',
    roles: attackPathRoles.read,
    document: `query ($id: UUID!) { attackPath(id: $id) { ${PATH_DETAIL_FIELDS} } }`,
  },
  {
    method: 'PATCH',
    path: '/attack-paths/:id',
    tag: TAG,
    summary: 'Update name or description',
    roles: attackPathRoles.write,
    document: `mutation ($id: UUID!, $input: UpdateAttackPathInput!) { updateAttackPath(id: $id, input: $input) { ${PATH_DETAIL_FIELDS} } }`,
    variables: { input: body() },
  },
  {
    method: 'DELETE',
    path: '/attack-paths/:id',
    tag: TAG,
    summary: 'Delete an attack path and its steps; its executions stay (attack_path_id null)',
    roles: attackPathRoles.delete,
    status: 204,
    document: 'mutation ($id: UUID!) { deleteAttackPath(id: $id) }',
  },
  {
    method: 'POST',
    path: '/attack-paths/:id/steps',
    tag: TAG,
    summary:
      'Add a technique step (body technique, test_template_id, expected_outcome, notes, position: default the end); answers the path',
    roles: attackPathRoles.write,
    status: 201,
    document: `mutation ($id: UUID!, $input: AddAttackPathStepInput!) { addAttackPathStep(id: $id, input: $input) { ${PATH_DETAIL_FIELDS} } }`,
    variables: { input: body() },
  },
  {
    method: 'DELETE',
    path: '/attack-paths/:id/steps/:sid',
    tag: TAG,
    summary: 'Remove a step; the later steps move up; answers the path',
    roles: attackPathRoles.write,
    document: `mutation ($id: UUID!, $stepId: UUID!) { removeAttackPathStep(id: $id, stepId: $stepId) { ${PATH_DETAIL_FIELDS} } }`,
    variables: { stepId: path('sid') },
  },
  {
    method: 'PUT',
    path: '/attack-paths/:id/steps/order',
    tag: TAG,
    summary: 'Reorder the steps (body step_ids: every step id once, in the new order); answers the path',
    roles: attackPathRoles.write,
    document: `mutation ($id: UUID!, $input: ReorderAttackPathStepsInput!) {
      reorderAttackPathSteps(id: $id, input: $input) { ${PATH_DETAIL_FIELDS} }
    }`,
    variables: { input: body() },
  },
  {
    method: 'GET',
    path: '/attack-paths/:id/navigator',
    tag: TAG,
    summary: 'ATT&CK Navigator layer (4.5) of the path: techniques coloured by expected outcome, step order in the comments',
    roles: attackPathRoles.read,
    document: 'query ($id: UUID!) { attackPathNavigatorLayer(id: $id) }',
  },
  {
    method: 'POST',
    path: '/attack-paths/:id/executions',
    tag: TAG,
    summary: "Create a pending execution over a copy of the path's steps (optional body notes)",
    roles: attackPathRoles.execute,
    status: 201,
    document: `mutation ($id: UUID!, $input: CreateAttackPathExecutionInput) {
      createAttackPathExecution(attackPathId: $id, input: $input) { ${EXECUTION_DETAIL_FIELDS} }
    }`,
    variables: { input: body() },
  },
  {
    method: 'GET',
    path: '/attack-paths/:id/executions',
    tag: TAG,
    summary: 'Executions of the path, newest first, with their summaries',
    roles: attackPathRoles.read,
    document: `query ($id: UUID!, $offset: Int, $limit: Int) {
      attackPathExecutions(attackPathId: $id, offset: $offset, limit: $limit) {
        items { ${EXECUTION_FIELDS} ${SUMMARY_FIELDS} } total offset limit
      }
    }`,
  },
  {
    method: 'GET',
    path: '/executions/:id',
    tag: TAG,
    summary: 'One execution with its steps and, once completed, its summary',
    roles: attackPathRoles.read,
    document: `query ($id: UUID!) { attackPathExecution(id: $id) { ${EXECUTION_DETAIL_FIELDS} } }`,
  },
  ...transitionRoutes,
  {
    method: 'POST',
    path: '/executions/:id/steps/:sid',
    tag: TAG,
    summary:
      'Record a step outcome while running (sid: the execution step or its path step; body outcome succeeded|blocked|detected|not_detected|skipped, notes, occurred_at: default now, not before the start)',
    roles: attackPathRoles.recordOutcome,
    document: `mutation ($id: UUID!, $stepId: UUID!, $input: RecordAttackStepOutcomeInput!) {
      recordAttackPathStepOutcome(id: $id, stepId: $stepId, input: $input) { ${EXECUTION_DETAIL_FIELDS} }
    }`,
    variables: { stepId: path('sid'), input: body() },
  },
  {
    method: 'POST',
    path: '/executions/:id/create-tests',
    tag: TAG,
    summary: "Create a draft test per step from the step's template; steps without one (or already done) are skipped and reported",
    roles: attackPathRoles.createTests,
    status: 201,
    document: `mutation ($id: UUID!) { createAttackPathExecutionTests(id: $id) {
      created { stepId position ttpId testId } skipped { stepId position ttpId reason testId }
      execution { ${EXECUTION_DETAIL_FIELDS} }
    } }`,
  },
  {
    method: 'GET',
    path: '/executions/:id/navigator',
    tag: TAG,
    summary: 'ATT&CK Navigator layer (4.5) of the execution: techniques coloured by recorded outcome, step order in the comments',
    roles: attackPathRoles.read,
    document: 'query ($id: UUID!) { attackPathExecutionNavigatorLayer(id: $id) }',
  },
];
