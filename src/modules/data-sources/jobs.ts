import { SYSTEM_ACTOR, type Actor } from '../../db/unit-of-work.ts';
import type { DataSourceKind } from '../../generated/prisma/enums.ts';
import { QueueName, type JobDefinition } from '../../jobs/types.ts';
import type { Services } from '../../services.ts';
import { DATA_SOURCE_DEFAULTS } from './defaults.ts';
import { dataSourceSchedules, repeatOf, SYNC_JOB } from './service.ts';
import { runSync, SyncInProgressError, type SyncTrigger } from './sync.ts';

export interface SyncJobData {
  dataSourceId: string;
  kind?: DataSourceKind;
  /** The queued run a manual request created. */
  runId?: string;
  /** Who asked for a manual sync; scheduled syncs run as the system. */
  userId?: string | null;
  trigger: SyncTrigger;
}

async function actorOf(services: Services, userId: string | null | undefined): Promise<Actor> {
  if (!userId) return SYSTEM_ACTOR;
  const user = await services.prisma.user.findUnique({ where: { id: userId }, select: { username: true } });
  return { userId, username: user?.username ?? 'deleted user' };
}

/** Runs one sync; a sync that finds another one of the same source running is skipped, not failed. */
export async function runSyncJob(services: Services, data: SyncJobData) {
  const source = await services.prisma.dataSource.findUnique({ where: { id: data.dataSourceId } });
  if (!source) return { skipped: 'unknown data source' };
  // A schedule left in Redis from an older configuration: the source no longer syncs by itself.
  if (data.trigger === 'schedule' && !repeatOf(services, source)) return { skipped: 'not scheduled' };
  try {
    const report = await runSync(services, source, await actorOf(services, data.userId), data.trigger, data.runId);
    return { counts: report.counts };
  } catch (error) {
    if (!(error instanceof SyncInProgressError)) throw error;
    services.log.info({ dataSource: source.kind }, 'sync skipped: another sync of this source is running');
    return { skipped: 'in progress' };
  }
}

export const dataSourcesJobs: JobDefinition[] = [
  {
    name: SYNC_JOB,
    queue: QueueName.catalog,
    description: 'Sync a data source',
    // A failed sync is recorded as a run; the next scheduled or manual sync is the retry.
    attempts: 1,
    describe: (data) => `Sync ${DATA_SOURCE_DEFAULTS[data.kind as DataSourceKind]?.name ?? 'a data source'}`,
    schedules: dataSourceSchedules,
    run: (data, services) => runSyncJob(services, data as unknown as SyncJobData),
  },
];
