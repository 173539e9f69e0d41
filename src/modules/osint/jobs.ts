import { SYSTEM_ACTOR } from '../../db/unit-of-work.ts';
import { QueueName, type DynamicSchedule, type JobDefinition } from '../../jobs/types.ts';
import type { Services } from '../../services.ts';
import { SyncInProgressError } from '../data-sources/sync.ts';
import { feedRepeat, feedScheduleId, SYNC_FEED_JOB } from './service.ts';
import { syncFeed } from './sync.ts';

/** The recurring sync of every enabled feed with a schedule. */
async function feedSchedules(services: Services): Promise<DynamicSchedule[]> {
  const feeds = await services.prisma.osintFeed.findMany({ orderBy: { name: 'asc' } });
  return feeds.flatMap((feed) => {
    const repeat = feedRepeat(services, feed);
    return repeat ? [{ id: feedScheduleId(feed.id), repeat, data: { feedId: feed.id, trigger: 'schedule' } }] : [];
  });
}

export const osintJobs: JobDefinition[] = [
  {
    name: SYNC_FEED_JOB,
    queue: QueueName.intel,
    description: 'Sync a threat-intelligence feed',
    // A failed sync is recorded as a run; the next scheduled or requested sync is the retry.
    attempts: 1,
    schedules: feedSchedules,
    async run(data, services) {
      const feed = await services.prisma.osintFeed.findUnique({ where: { id: String(data.feedId) } });
      if (!feed) return { skipped: 'unknown feed' };
      if (!feedRepeat(services, feed)) return { skipped: 'not scheduled' };
      try {
        return { ...(await syncFeed(services, feed.id, SYSTEM_ACTOR, 'schedule')) };
      } catch (error) {
        if (!(error instanceof SyncInProgressError)) throw error;
        return { skipped: 'in progress' };
      }
    },
  },
];
