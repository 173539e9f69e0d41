import './types.ts';
import { body, path, type Route, type VariableSource } from '../../../rest-adapter/types.ts';
import { campaignRoles } from './permissions.ts';
import { CAMPAIGN_TRANSITIONS } from './state-machine.ts';

/** A campaign in the spec's snake_case, with its test counts. */
const CAMPAIGN_FIELDS = `id name description type status validTransitions threatActorId
  startDate endDate recurrence activatedAt completedAt
  createdById version createdAt updatedAt testCount validatedCount`;

const PROGRESS_FIELDS = `validated total percentage
  byState { draft redExecuting blueEvaluating inReview rejected validated }`;

/** The single read adds the next occurrence, the actor, the progress and the tests. */
const CAMPAIGN_DETAIL_FIELDS = `${CAMPAIGN_FIELDS} nextOccurrence
  threatActor { id externalId name }
  progress { ${PROGRESS_FIELDS} }
  tests { id name state techniqueId technique { id ttpId name } detectionResult
    executionDate assignedToId templateId retestOfId lineageId
    createdAt updatedAt }`;

const EVENT_FIELDS = `id kind from_state: fromStatus to_state: toStatus actorId actorName at details`;
const EXECUTION_FIELDS = `id occurrence startedAt finishedAt testsCreated testIds`;

const mutation = (
  method: 'POST' | 'PATCH' | 'DELETE',
  suffix: string,
  document: string,
  roles: Route['roles'],
  summary: string,
  variables?: Record<string, VariableSource>,
): Route => ({
  method,
  path: `/campaigns/:id${suffix}`,
  tag: 'Campaigns',
  summary,
  roles,
  document,
  variables,
});

/** POST /campaigns/{id}/<action>: one row per row of the transition table. */
const transitionRoutes: Route[] = CAMPAIGN_TRANSITIONS.map((row) =>
  mutation(
    'POST',
    `/${row.path}`,
    `mutation ($id: UUID!) { ${row.mutation}(id: $id) { ${CAMPAIGN_DETAIL_FIELDS} } }`,
    row.roles,
    row.summary,
  ),
);

export const campaignsRoutes: Route[] = [
  {
    method: 'GET',
    path: '/campaigns',
    tag: 'Campaigns',
    summary:
      'List campaigns, newest first, with test_count and validated_count (filters status, type, search, date_from, date_to: campaigns whose period overlaps the range)',
    roles: campaignRoles.read,
    document: `query ($status: CampaignStatus, $type: String, $search: String, $dateFrom: DateTime, $dateTo: DateTime, $offset: Int, $limit: Int) {
      campaigns(filter: { status: $status, type: $type, search: $search, dateFrom: $dateFrom, dateTo: $dateTo }, offset: $offset, limit: $limit) {
        items { ${CAMPAIGN_FIELDS} } total offset limit
      }
    }`,
  },
  {
    method: 'POST',
    path: '/campaigns',
    tag: 'Campaigns',
    summary: 'Create a campaign in draft (body name, description, type, threat_actor_id, start_date, end_date, recurrence)',
    roles: campaignRoles.create,
    status: 201,
    document: `mutation ($input: CreateCampaignInput!) { createCampaign(input: $input) { ${CAMPAIGN_DETAIL_FIELDS} } }`,
    variables: { input: body() },
  },
  {
    method: 'POST',
    path: '/campaigns/from-threat-actor/:actor_id',
    tag: 'Campaigns',
    summary:
      'Create a threat_actor campaign with one draft test per distinct active technique the actor uses, each pre-filled from its first active template when there is one (optional body name, description)',
    roles: campaignRoles.fromThreatActor,
    status: 201,
    document: `mutation ($actorId: ID!, $input: CampaignFromThreatActorInput) {
      createCampaignFromThreatActor(actorId: $actorId, input: $input) { ${CAMPAIGN_DETAIL_FIELDS} }
    }`,
    variables: { input: body() },
  },
  {
    method: 'GET',
    path: '/campaigns/:id',
    tag: 'Campaigns',
    summary: 'One campaign with its threat actor, progress and tests (oldest first; test_count is the total)',
    roles: campaignRoles.read,
    document: `query ($id: UUID!, $testsOffset: Int, $testsLimit: Int) {
      campaign(id: $id) { ${CAMPAIGN_DETAIL_FIELDS.replace('tests {', 'tests(offset: $testsOffset, limit: $testsLimit) {')} }
    }`,
  },
  mutation(
    'PATCH',
    '',
    `mutation ($id: UUID!, $input: UpdateCampaignInput!) { updateCampaign(id: $id, input: $input) { ${CAMPAIGN_DETAIL_FIELDS} } }`,
    campaignRoles.update,
    'Update name, description, type or threat_actor_id',
    { input: body() },
  ),
  {
    ...mutation(
      'DELETE',
      '',
      'mutation ($id: UUID!) { deleteCampaign(id: $id) }',
      campaignRoles.delete,
      'Delete a campaign (its creator or an admin); its tests stay, with no campaign',
      {},
    ),
    status: 204,
  },
  mutation(
    'POST',
    '/tests',
    `mutation ($id: UUID!, $input: AddCampaignTestInput!) { addCampaignTest(id: $id, input: $input) { ${CAMPAIGN_DETAIL_FIELDS} } }`,
    campaignRoles.manageTests,
    'Add an existing test (body test_id); a test of another campaign answers 409',
    { input: body() },
  ),
  mutation(
    'DELETE',
    '/tests/:ctid',
    `mutation ($id: UUID!, $testId: UUID!) { removeCampaignTest(id: $id, testId: $testId) { ${CAMPAIGN_DETAIL_FIELDS} } }`,
    campaignRoles.manageTests,
    'Remove a test (ctid: the test id) from the campaign; the test stays, with no campaign',
    { testId: path('ctid') },
  ),
  ...transitionRoutes,
  {
    method: 'GET',
    path: '/campaigns/:id/progress',
    tag: 'Campaigns',
    summary: 'Validated tests out of all tests of the campaign: validated, total, percentage, by_state',
    roles: campaignRoles.read,
    document: `query ($id: UUID!) { campaignProgress(id: $id) { ${PROGRESS_FIELDS} } }`,
  },
  mutation(
    'PATCH',
    '/schedule',
    `mutation ($id: UUID!, $input: CampaignScheduleInput!) { scheduleCampaign(id: $id, input: $input) { ${CAMPAIGN_DETAIL_FIELDS} } }`,
    campaignRoles.schedule,
    'Set start_date, end_date and recurrence (cron, 5 fields, UTC, at most hourly; null stops it); an active recurring campaign runs each occurrence as retests of its decided tests',
    { input: body() },
  ),
  {
    method: 'GET',
    path: '/campaigns/:id/history',
    tag: 'Campaigns',
    summary: 'History of the campaign (events: every change, oldest first) and the executions of its recurring occurrences',
    roles: campaignRoles.read,
    document: `query ($id: UUID!) { campaignHistory(id: $id) { events { ${EVENT_FIELDS} } executions { ${EXECUTION_FIELDS} } } }`,
  },
];
