import { createContextCache } from '@pothos/core';
import { builder } from '../../graphql/builder.ts';
import type { Context } from '../../graphql/context.ts';
import type { DataSource, DataSourceRun } from '../../generated/prisma/client.ts';
import { DataSourceKind, SyncStatus } from '../../generated/prisma/enums.ts';
import type { ScheduledJob } from '../../jobs/types.ts';
import { pageType } from '../../graphql/pagination.ts';
import { DATA_SOURCE_DEFAULTS, type DataLicence } from './defaults.ts';
import { visibleSyncError } from './permissions.ts';
import { scheduledSyncs } from './service.ts';
import type { SyncTtpResult } from './attack-sync.ts';

export const DataSourceKindEnum = builder.enumType(DataSourceKind, {
  name: 'DataSourceKind',
  description: 'The external feeds Violet imports.',
});
export const SyncStatusEnum = builder.enumType(SyncStatus, { name: 'SyncStatus' });

/** One scheduler read per request, however many sources are resolved. */
const scheduledSyncsOf = createContextCache((context: Context): Promise<Map<string, ScheduledJob>> => scheduledSyncs(context.services));

export const DataSourceRunType = builder.prismaObject('DataSourceRun', {
  description: 'One sync of a data source and what it changed.',
  fields: (t) => ({
    id: t.exposeID('id'),
    trigger: t.exposeString('trigger', { description: 'manual (POST …/sync), schedule, or api (a system endpoint such as sync-ttp).' }),
    status: t.expose('status', {
      type: SyncStatusEnum,
      description: 'queued, running, succeeded or failed (an interrupted run is failed, with the reason in error).',
    }),
    startedAt: t.expose('startedAt', { type: 'DateTime' }),
    finishedAt: t.expose('finishedAt', { type: 'DateTime', nullable: true }),
    changes: t.expose('changes', {
      type: 'JSON',
      description:
        'By kind of item: new, updated, unchanged, revoked … (counts or short id lists). A run that completed one whose process died adds ' +
        '`resumed`: the interrupted run ids and what they had committed.',
    }),
    committed: t.expose('committed', {
      type: 'JSON',
      description:
        "What the run's committed batches wrote, by kind of item and change (created, updated, removed …), counted as each batch commits.",
    }),
    error: t.string({
      nullable: true,
      description: 'Why the run failed: a short reason for admins (e.g. "file not found", "HTTP 404"), "failed" for everyone else.',
      resolve: (run, _args, context) => visibleSyncError(context.auth.principal, run.error),
    }),
    triggeredById: t.exposeString('triggeredById', { nullable: true, description: 'The user who asked for it; null for scheduled syncs.' }),
  }),
});

const DataLicenceType = builder.objectRef<DataLicence>('DataLicence').implement({
  description: "The licence of a feed's data, and the notice shown with it.",
  fields: (t) => ({
    name: t.exposeString('name'),
    url: t.exposeString('url'),
    notice: t.exposeString('notice'),
  }),
});

export const DataSourceType = builder.prismaObject('DataSource', {
  description: 'An external knowledge feed: where it is read from, when it syncs, how the last sync went.',
  fields: (t) => ({
    id: t.exposeID('id'),
    kind: t.expose('kind', { type: DataSourceKindEnum }),
    name: t.exposeString('name'),
    location: t.exposeString('location', { description: 'http(s) URL, file: URL or absolute path the importer reads.' }),
    enabled: t.exposeBoolean('enabled', { description: 'false pauses the scheduled syncs (manual syncs still run).' }),
    schedule: t.exposeString('schedule', { nullable: true, description: 'Cron pattern in UTC; null syncs only on request.' }),
    status: t.expose('status', { type: SyncStatusEnum }),
    error: t.string({
      nullable: true,
      description: 'Why the last sync failed: a short reason for admins (e.g. "file not found", "HTTP 404"), "failed" for everyone else.',
      resolve: (source, _args, context) => visibleSyncError(context.auth.principal, source.error),
    }),
    lastRunAt: t.expose('lastRunAt', { type: 'DateTime', nullable: true }),
    lastSuccessAt: t.expose('lastSuccessAt', { type: 'DateTime', nullable: true }),
    itemCounts: t.expose('itemCounts', { type: 'JSON', description: 'Items held after the last successful sync, by kind of item.' }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    updatedAt: t.expose('updatedAt', { type: 'DateTime' }),
    licence: t.field({
      type: DataLicenceType,
      description: 'Licence and attribution notice of the data this source imports.',
      resolve: (source) => DATA_SOURCE_DEFAULTS[source.kind].licence,
    }),
    nextRunTime: t.field({
      type: 'DateTime',
      nullable: true,
      description: 'When the scheduler runs the next sync; null when the source does not sync by itself.',
      resolve: async (source, _args, context) => (await scheduledSyncsOf(context)).get(source.kind)?.next_run_time ?? null,
    }),
    lastRun: t.field({
      type: DataSourceRunType,
      nullable: true,
      description: 'The most recent run, whatever its outcome.',
      select: (_args, _context, nestedSelection) => ({
        runs: nestedSelection({ take: 1, orderBy: [{ startedAt: 'desc' }, { id: 'desc' }] }),
      }),
      resolve: (source) => source.runs[0] ?? null,
    }),
  }),
});

export const DataSourceRunPage = pageType('DataSourceRunPage', DataSourceRunType);

export const DataSourceSyncRequestType = builder
  .objectRef<{ dataSource: DataSource; run: DataSourceRun; jobId: string; workers: number | null; detail: string }>('DataSourceSyncRequest')
  .implement({
    description: 'A sync queued as a background job.',
    fields: (t) => ({
      dataSource: t.field({ type: DataSourceType, resolve: (request) => request.dataSource, description: 'The source, now queued.' }),
      run: t.field({
        type: DataSourceRunType,
        resolve: (request) => request.run,
        description: 'The queued run; follow it with dataSourceRuns.',
      }),
      jobId: t.exposeString('jobId'),
      workers: t.exposeInt('workers', {
        nullable: true,
        description: 'How many processes work the sync queue now: 0 means the job waits until a worker starts; null when unknown.',
      }),
      detail: t.exposeString('detail', { description: 'What happens next, in words (e.g. that the job waits for a worker).' }),
    }),
  });

export const UpdateDataSourceInput = builder.inputType('UpdateDataSourceInput', {
  fields: (t) => ({
    location: t.string({ required: false, description: 'http(s) URL, file: URL or absolute path.' }),
    schedule: t.string({ required: false, description: 'Cron pattern (5 fields, UTC, at most hourly); null for manual syncs only.' }),
    enabled: t.boolean({ required: false }),
  }),
});

export const SyncTtpResultType = builder.objectRef<SyncTtpResult>('SyncTtpResult').implement({
  description: 'What a run of the ATT&CK catalog sync did.',
  fields: (t) => ({
    message: t.exposeString('message'),
    new: t.exposeInt('new', { description: 'New techniques and sub-techniques.' }),
    updated: t.exposeInt('updated', { description: 'Techniques and sub-techniques whose stored fields changed.' }),
    counts: t.expose('counts', {
      type: 'JSON',
      description: 'Items the catalog holds afterwards, by kind (techniques, sub_techniques, tactics, …).',
    }),
    changes: t.expose('changes', { type: 'JSON', description: 'new / updated / unchanged … by kind of item.' }),
  }),
});
