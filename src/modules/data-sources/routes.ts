import { body, type Route } from '../../../rest-adapter/types.ts';
import { dataSourceRoles } from './permissions.ts';

const RUN_FIELDS = `id trigger status startedAt finishedAt changes committed error triggeredById`;
const DATA_SOURCE_FIELDS = `id kind name location enabled schedule status error lastRunAt lastSuccessAt
  itemCounts licence { name url notice } nextRunTime lastRun { ${RUN_FIELDS} } createdAt updatedAt`;

export const dataSourcesRoutes: Route[] = [
  {
    method: 'POST',
    path: '/system/sync-ttp',
    expensive: true,
    tag: 'System',
    summary: 'Run the ATT&CK catalog sync now; returns message, new and updated (techniques and sub-techniques)',
    roles: dataSourceRoles.syncTtp,
    document: 'mutation { syncTtp { message new updated } }',
  },
  {
    method: 'GET',
    path: '/data-sources',
    tag: 'Data sources',
    summary: 'List the data sources with their configuration, last run and next scheduled run',
    roles: dataSourceRoles.read,
    document: `query { dataSources { ${DATA_SOURCE_FIELDS} } }`,
  },
  {
    method: 'PATCH',
    path: '/data-sources/:id',
    tag: 'Data sources',
    summary: 'Update a source: location (http(s) URL, file: URL or absolute path), schedule (cron, UTC, or null), enabled',
    roles: dataSourceRoles.update,
    document: `mutation ($id: String!, $input: UpdateDataSourceInput!) { updateDataSource(id: $id, input: $input) { ${DATA_SOURCE_FIELDS} } }`,
    variables: { input: body() },
  },
  {
    method: 'POST',
    path: '/data-sources/:id/sync',
    expensive: true,
    tag: 'Data sources',
    summary:
      'Queue a manual sync: 202 with the queued source, run, job id, the number of workers of the sync queue and a detail ' +
      "(which says when the job waits for a worker); 409 SYNC_IN_PROGRESS while one is queued or holds the source's lease",
    roles: dataSourceRoles.sync,
    status: 202,
    document: `mutation ($id: String!) { syncDataSource(id: $id) { dataSource { ${DATA_SOURCE_FIELDS} } run { ${RUN_FIELDS} } jobId workers detail } }`,
  },
];
