import { allow } from '../../graphql/access.ts';
import { builder } from '../../graphql/builder.ts';
import { cappedListCost } from '../../graphql/cost.ts';
import { actorOf } from '../../graphql/context.ts';
import { dataSourceRoles } from './permissions.ts';
import * as dataSources from './service.ts';
import { requestSync } from './sync.ts';
import { syncTtp } from './attack-sync.ts';
import { DataSourceRunPage, DataSourceSyncRequestType, SyncTtpResultType, UpdateDataSourceInput } from './types.ts';
import { pageArgs, pagedList, pagingOf } from '../../graphql/pagination.ts';

/** Knowledge sources (one per kind: six today). */
const DATA_SOURCE_MAX = 20;

builder.queryFields((t) => ({
  dataSources: t.prismaField({
    complexity: cappedListCost(DATA_SOURCE_MAX),
    type: ['DataSource'],
    description: 'Every external data source with its configuration, sync status and next scheduled run.',
    authScopes: allow(dataSourceRoles.read),
    resolve: (query, _root, _args, context) => dataSources.listDataSources(context.services, query),
  }),
  dataSource: t.prismaField({
    type: 'DataSource',
    authScopes: allow(dataSourceRoles.read),
    args: { id: t.arg.string({ required: true, description: 'The id, or the kind (e.g. sigma).' }) },
    resolve: (query, _root, { id }, context) => dataSources.getDataSource(context.services, id, query),
  }),
  dataSourceRuns: t.field({
    type: DataSourceRunPage,
    ...pagedList(dataSources.RUNS_PAGE, 'Sync runs of one source, newest first'),
    authScopes: allow(dataSourceRoles.read),
    args: {
      id: t.arg.string({ required: true, description: 'The id, or the kind (e.g. sigma).' }),
      ...pageArgs(t.arg),
    },
    resolve: (_root, { id, offset, limit }, context) => dataSources.listRuns(context.services, id, pagingOf({ offset, limit })),
  }),
}));

builder.mutationFields((t) => ({
  updateDataSource: t.prismaField({
    type: 'DataSource',
    description: 'Changes where a source is read from, its schedule or whether it syncs by itself; the scheduler follows at once.',
    authScopes: allow(dataSourceRoles.update),
    args: { id: t.arg.string({ required: true }), input: t.arg({ type: UpdateDataSourceInput, required: true }) },
    resolve: (query, _root, { id, input }, context) => dataSources.updateDataSource(context.services, actorOf(context), id, input, query),
  }),
  syncDataSource: t.field({
    type: DataSourceSyncRequestType,
    description: 'Queues a sync of the source as a background job (SYNC_IN_PROGRESS while one is queued or running).',
    authScopes: allow(dataSourceRoles.sync),
    args: { id: t.arg.string({ required: true }) },
    resolve: (_root, { id }, context) => requestSync(context.services, actorOf(context), id),
  }),
}));

builder.mutationFields((t) => ({
  syncTtp: t.field({
    type: SyncTtpResultType,
    description: 'Synchronises the ATT&CK catalog now from the attack_enterprise data source.',
    authScopes: allow(dataSourceRoles.syncTtp),
    resolve: (_root, _args, context) => syncTtp(context.services, actorOf(context)),
  }),
}));
