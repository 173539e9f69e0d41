import { body, type Route } from '../../../rest-adapter/types.ts';
import { worklogRoles } from './permissions.ts';

const WORKLOG_FIELDS = 'id userId minutes date description testId campaignId createdAt updatedAt';
const FILTER_VARIABLES = '$userId: UUID, $from: String, $to: String, $testId: UUID, $campaignId: UUID';
const FILTER = 'filter: { userId: $userId, from: $from, to: $to, testId: $testId, campaignId: $campaignId }';
const tag = 'Worklogs';

export const worklogRoutes: Route[] = [
  {
    method: 'GET',
    path: '/worklogs',
    tag,
    summary:
      "Own worklogs (admins: everyone's), latest day first (filters user_id (admins), from, to (YYYY-MM-DD, inclusive), test_id, campaign_id); total_minutes sums every matching entry",
    roles: worklogRoles.own,
    document: `query (${FILTER_VARIABLES}, $offset: Int, $limit: Int) {
      worklogs(${FILTER}, offset: $offset, limit: $limit) { items { ${WORKLOG_FIELDS} } total totalMinutes offset limit }
    }`,
  },
  {
    method: 'POST',
    path: '/worklogs',
    tag,
    summary: 'Log own time (body minutes 1–1440, date YYYY-MM-DD, description; optional test_id, campaign_id)',
    roles: worklogRoles.own,
    status: 201,
    document: `mutation ($input: CreateWorklogInput!) { createWorklog(input: $input) { ${WORKLOG_FIELDS} } }`,
    variables: { input: body() },
  },
  {
    method: 'GET',
    path: '/worklogs/summary',
    tag,
    summary: "Minutes in all, per user and per campaign, over own entries (admins: everyone's); same filters as the list",
    roles: worklogRoles.own,
    document: `query (${FILTER_VARIABLES}) {
      worklogSummary(${FILTER}) {
        totalMinutes entries
        byUser { userId username displayName minutes entries }
        byCampaign { campaignId campaignName minutes entries }
      }
    }`,
  },
  {
    method: 'GET',
    path: '/worklogs/:id',
    tag,
    summary: "One own worklog (admins: anyone's; another user's is a 404)",
    roles: worklogRoles.own,
    document: `query ($id: UUID!) { worklog(id: $id) { ${WORKLOG_FIELDS} } }`,
  },
  {
    method: 'PATCH',
    path: '/worklogs/:id',
    tag,
    summary: "Change an own worklog (admins: anyone's): any of minutes, date, description, test_id, campaign_id",
    roles: worklogRoles.own,
    document: `mutation ($id: UUID!, $input: UpdateWorklogInput!) { updateWorklog(id: $id, input: $input) { ${WORKLOG_FIELDS} } }`,
    variables: { input: body() },
  },
  {
    method: 'DELETE',
    path: '/worklogs/:id',
    tag,
    summary: "Delete an own worklog (admins: anyone's)",
    roles: worklogRoles.own,
    status: 204,
    document: `mutation ($id: UUID!) { deleteWorklog(id: $id) { id } }`,
  },
];
