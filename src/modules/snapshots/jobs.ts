import { QueueName, type JobDefinition } from '../../jobs/types.ts';
import { takeDailySnapshot } from './service.ts';

/** Every day at midnight UTC. */
export const DAILY_SNAPSHOT_SCHEDULE = { pattern: '0 0 * * *', tz: 'UTC' } as const;

export const dailySnapshotJob: JobDefinition = {
  name: 'daily-snapshot',
  queue: QueueName.maintenance,
  description: 'Record the coverage of every technique once per UTC day (posture history)',
  repeat: DAILY_SNAPSHOT_SCHEDULE,
  async run(_data, services) {
    const result = await takeDailySnapshot(services);
    services.log.info(result, result.created ? 'daily snapshot taken' : 'daily snapshot already taken today');
    return result;
  },
};

export const snapshotsJobs: JobDefinition[] = [dailySnapshotJob];
