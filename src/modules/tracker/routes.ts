import type { Request } from 'express';
import { body, type Route } from '../../../rest-adapter/types.ts';
import { trackerRoles } from './permissions.ts';

const CONNECTION_FIELDS =
  'id name kind baseUrl project issueType username credential webhookSecret fieldMapping statusMapping isActive lastError lastErrorAt lastSyncAt consecutiveFailures createdBy createdAt updatedAt';
export const TRACKER_ISSUE_FIELDS =
  'id connectionId subjectType subjectId status validTransitions issueKey issueUrl trackerStatus assigneeAccountId retestId lastError nextAttemptAt lastSyncedAt fixedAt reopenedAt closedAt createdBy createdAt updatedAt';

const TAG = 'Tracker';

const CREATE_ISSUE = `mutation ($input: CreateTrackerIssueInput!) { createTrackerIssue(input: $input) { created issue { ${TRACKER_ISSUE_FIELDS} } } }`;
const RECEIVE_WEBHOOK =
  'mutation ($connectionId: UUID!, $payload: String!, $signature: String) { receiveTrackerWebhook(connectionId: $connectionId, payload: $payload, signature: $signature) { detail } }';

export const trackerRoutes: Route[] = [
  {
    method: 'GET',
    path: '/tracker/connections',
    tag: TAG,
    summary: 'Issue-tracker connections, newest first; credentials never shown',
    roles: trackerRoles.manage,
    document: `query ($offset: Int, $limit: Int) { trackerConnections(offset: $offset, limit: $limit) { ${CONNECTION_FIELDS} } }`,
  },
  {
    method: 'POST',
    path: '/tracker/connections',
    tag: TAG,
    summary:
      'Add a connection (body name, kind jira_cloud|jira_dc|github, base_url, project, issue_type, username, credential, webhook_secret, field_mapping, status_mapping, is_active)',
    roles: trackerRoles.manage,
    status: 201,
    document: `mutation ($input: CreateTrackerConnectionInput!) { createTrackerConnection(input: $input) { ${CONNECTION_FIELDS} } }`,
    variables: { input: body() },
  },
  {
    method: 'GET',
    path: '/tracker/connections/:id',
    tag: TAG,
    summary: 'One connection with its last error, credentials never shown',
    roles: trackerRoles.manage,
    document: `query ($id: UUID!) { trackerConnection(id: $id) { ${CONNECTION_FIELDS} } }`,
  },
  {
    method: 'PATCH',
    path: '/tracker/connections/:id',
    tag: TAG,
    summary: 'Update any field of a connection (a new credential clears the last error; webhook_secret null removes it)',
    roles: trackerRoles.manage,
    document: `mutation ($id: UUID!, $input: UpdateTrackerConnectionInput!) { updateTrackerConnection(id: $id, input: $input) { ${CONNECTION_FIELDS} } }`,
    variables: { input: body() },
  },
  {
    method: 'DELETE',
    path: '/tracker/connections/:id',
    tag: TAG,
    summary: 'Delete a connection and its issue links (the issues stay in the tracker)',
    roles: trackerRoles.manage,
    status: 204,
    document: 'mutation ($id: UUID!) { deleteTrackerConnection(id: $id) }',
  },
  {
    method: 'POST',
    path: '/tracker/connections/:id/sync',
    tag: TAG,
    summary: 'Queue a sync of every linked issue of the connection',
    roles: trackerRoles.manage,
    status: 202,
    document: 'mutation ($id: UUID!) { syncTrackerConnection(id: $id) { detail } }',
  },
  {
    method: 'GET',
    path: '/tracker/issues',
    tag: TAG,
    summary: 'Linked tracker issues, newest first, by status or connection_id',
    roles: trackerRoles.issues,
    document: `query ($offset: Int, $limit: Int, $status: TrackerIssueStatus, $connectionId: UUID) { trackerIssues(offset: $offset, limit: $limit, status: $status, connectionId: $connectionId) { ${TRACKER_ISSUE_FIELDS} } }`,
  },
  {
    method: 'POST',
    path: '/tracker/issues',
    tag: TAG,
    summary:
      'Open the tracker issue of a subject (body subject_type test|alert|revalidation, subject_id, connection_id): 201 filed, 202 pending ' +
      '(the tracker could not be reached: last_error says why, the sync retries), 200 when the subject already has one',
    roles: trackerRoles.issues,
    status: 201,
    requestType: 'application/json',
    documents: [CREATE_ISSUE],
    async handle(req: Request, res, { execute }) {
      const result = (await execute(CREATE_ISSUE, {
        input: { subjectType: req.body?.subject_type, subjectId: req.body?.subject_id, connectionId: req.body?.connection_id },
      })) as { created: boolean; issue: { status: string } };
      res.status(!result.created ? 200 : result.issue.status === 'pending' ? 202 : 201).json(result.issue);
    },
  },
  {
    method: 'GET',
    path: '/tracker/issues/:id',
    tag: TAG,
    summary: 'One linked tracker issue with its status and last error',
    roles: trackerRoles.issues,
    document: `query ($id: UUID!) { trackerIssue(id: $id) { ${TRACKER_ISSUE_FIELDS} } }`,
  },
  {
    method: 'POST',
    path: '/tracker/issues/:id/sync',
    tag: TAG,
    summary: 'Read the issue from the tracker now and apply its status (a tracker failure shows in last_error, never as a 5xx)',
    roles: trackerRoles.issues,
    document: `mutation ($id: UUID!) { syncTrackerIssue(id: $id) { ${TRACKER_ISSUE_FIELDS} } }`,
  },
  {
    method: 'POST',
    path: '/tracker/webhooks/:connection_id',
    tag: TAG,
    summary:
      'Inbound tracker webhook, signed with the connection secret (GitHub X-Hub-Signature-256, Jira X-Hub-Signature: sha256=<HMAC of the body>); ' +
      '202 queues the sync of the named issue; 401 TRACKER_SIGNATURE_INVALID without a valid signature, 404 for an unknown connection',
    roles: 'public',
    status: 202,
    errors: ['TRACKER_SIGNATURE_INVALID'],
    requestType: 'application/json',
    rawBody: true,
    documents: [RECEIVE_WEBHOOK],
    crossSiteAllowed:
      'the tracker posts it from its own servers; it authenticates by the HMAC signature of the body, never by the session cookie',
    async handle(req: Request & { rawBody?: Buffer }, res, { execute }) {
      const signature = req.get('x-hub-signature-256') ?? req.get('x-hub-signature');
      const result = await execute(RECEIVE_WEBHOOK, {
        connectionId: req.params.connection_id,
        payload: (req.rawBody ?? Buffer.alloc(0)).toString('utf8'),
        signature: signature ?? null,
      });
      res.status(202).json(result);
    },
  },
];
