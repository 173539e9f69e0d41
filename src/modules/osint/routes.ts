import { body, path, type Route } from '../../../rest-adapter/types.ts';
import { OSINT_REVIEW_TRANSITIONS } from './lifecycle.ts';
import { osintRoles } from './permissions.ts';

const TAG = 'OSINT';
const ITEM_FIELDS = `id feedId feedName key title summary link publishedAt createdAt mentionedTtps mentionedGroups mentionedSoftware cves review
  validTransitions reviewedAt reviewedById techniques { ttpId name mentioned } actors { externalId name mentioned }`;
const RUN_FIELDS = 'id feedId trigger status startedAt finishedAt itemsSeen itemsAdded flagged notes error triggeredById';
const FEED_FIELDS = `id name kind location collection addedAfter enabled schedule status error lastRunAt lastSuccessAt itemCount
  lastRun { ${RUN_FIELDS} } createdAt updatedAt`;
const ITEM_FILTERS =
  '$feedId: UUID, $actor: String, $software: String, $from: DateTime, $to: DateTime, $search: String, $review: OsintReviewStatus';
const ITEM_FILTER_ARGS = 'feedId: $feedId, actor: $actor, software: $software, from: $from, to: $to, search: $search, review: $review';

/** POST /osint/items/{id}/<action>: one row per row of the review transition table. */
const reviewRoutes = OSINT_REVIEW_TRANSITIONS.map(
  (row): Route => ({
    method: 'POST',
    path: `/osint/items/:id/${row.path}`,
    tag: TAG,
    summary: `${row.summary}; INVALID_TRANSITION otherwise`,
    roles: row.roles,
    document: `mutation ($id: UUID!) { ${row.mutation}(id: $id) { ${ITEM_FIELDS} } }`,
  }),
);

export const osintRoutes: Route[] = [
  {
    method: 'GET',
    path: '/osint/items',
    tag: TAG,
    summary: 'Feed items, newest first (filters feed_id, ttp_id, actor (G0007, name or alias), software (S0002), from, to, search, review)',
    roles: osintRoles.read,
    document: `query ($ttpId: String, ${ITEM_FILTERS}, $offset: Int, $limit: Int) {
      osintItems(ttpId: $ttpId, ${ITEM_FILTER_ARGS}, offset: $offset, limit: $limit) { items { ${ITEM_FIELDS} } total offset limit } }`,
  },
  {
    method: 'GET',
    path: '/osint/items/:id',
    tag: TAG,
    summary: 'One feed item with the techniques and actors it mentions',
    roles: osintRoles.read,
    document: `query ($id: UUID!) { osintItem(id: $id) { ${ITEM_FIELDS} } }`,
  },
  ...reviewRoutes,
  {
    method: 'GET',
    path: '/osint/techniques/:ttp_id/items',
    tag: TAG,
    summary: 'Recent feed items mentioning one technique, newest first (same filters as /osint/items)',
    roles: osintRoles.read,
    document: `query ($ttpId: String!, ${ITEM_FILTERS}, $offset: Int, $limit: Int) {
      osintItems(ttpId: $ttpId, ${ITEM_FILTER_ARGS}, offset: $offset, limit: $limit) { items { ${ITEM_FIELDS} } total offset limit } }`,
  },
  {
    method: 'GET',
    path: '/osint/feeds',
    tag: TAG,
    summary: 'Every feed with its configuration, item count and last run',
    roles: osintRoles.read,
    document: `query { osintFeeds { ${FEED_FIELDS} } }`,
  },
  {
    method: 'POST',
    path: '/osint/feeds',
    tag: TAG,
    summary: 'Add a feed (body name, kind rss|atom|stix|taxii, location, collection for TAXII, schedule (cron, UTC), enabled)',
    roles: osintRoles.manageFeeds,
    status: 201,
    document: `mutation ($input: CreateOsintFeedInput!) { createOsintFeed(input: $input) { ${FEED_FIELDS} } }`,
    variables: { input: body() },
  },
  {
    method: 'GET',
    path: '/osint/feeds/health',
    tag: TAG,
    summary: 'Per feed: last fetch, items held, items added (last run, last 7 days), the last error and failed runs in a row',
    roles: osintRoles.read,
    document:
      'query { osintFeedHealth { feedId name kind enabled status lastRunAt lastSuccessAt error itemCount itemsAddedLastRun itemsAddedLast7Days failedRunsInARow } }',
  },
  {
    method: 'GET',
    path: '/osint/feeds/:id',
    tag: TAG,
    summary: 'One feed',
    roles: osintRoles.read,
    document: `query ($id: UUID!) { osintFeed(id: $id) { ${FEED_FIELDS} } }`,
  },
  {
    method: 'PATCH',
    path: '/osint/feeds/:id',
    tag: TAG,
    summary: 'Update a feed (any of the create fields)',
    roles: osintRoles.manageFeeds,
    document: `mutation ($id: UUID!, $input: UpdateOsintFeedInput!) { updateOsintFeed(id: $id, input: $input) { ${FEED_FIELDS} } }`,
    variables: { input: body() },
  },
  {
    method: 'DELETE',
    path: '/osint/feeds/:id',
    tag: TAG,
    summary: 'Delete a feed with its runs and items',
    roles: osintRoles.manageFeeds,
    status: 204,
    document: 'mutation ($id: UUID!) { deleteOsintFeed(id: $id) }',
  },
  {
    method: 'POST',
    path: '/osint/feeds/:id/sync',
    expensive: true,
    tag: TAG,
    summary:
      'Sync the feed now and answer its run (a refused or unreadable feed is a failed run with the reason); 409 SYNC_IN_PROGRESS while one runs',
    roles: osintRoles.syncFeed,
    document: `mutation ($id: UUID!) { syncOsintFeed(id: $id) { ${RUN_FIELDS} } }`,
  },
  {
    method: 'GET',
    path: '/osint/feeds/:id/runs',
    tag: TAG,
    summary: 'Runs of one feed, newest first',
    roles: osintRoles.read,
    document: `query ($feedId: UUID!, $offset: Int, $limit: Int) { osintFeedRuns(feedId: $feedId, offset: $offset, limit: $limit) { items { ${RUN_FIELDS} } total offset limit } }`,
    variables: { feedId: path('id') },
  },
];
