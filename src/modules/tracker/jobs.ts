import { QueueName, type JobDefinition } from '../../jobs/types.ts';
import { SYNC_JOB, SYNC_LINK_JOB, syncDue, syncLink } from './sync.ts';

export const trackerJobs: JobDefinition[] = [
  {
    name: SYNC_JOB,
    queue: QueueName.webhooks,
    description: 'Read linked tracker issues back and apply their status (files pending issues, delivers reopens)',
    async schedules(services) {
      return [{ id: SYNC_JOB, repeat: { every: services.config.TRACKER_SYNC_INTERVAL }, data: {} }];
    },
    describe: (data) => (data.connectionId ? `tracker sync of connection ${String(data.connectionId)}` : 'tracker sync'),
    async run(data, services) {
      return syncDue(services, data.connectionId ? String(data.connectionId) : undefined);
    },
  },
  {
    name: SYNC_LINK_JOB,
    queue: QueueName.webhooks,
    description: 'Sync one linked tracker issue (after a tracker webhook, a failed retest or a retry)',
    describe: (data) => `tracker issue ${String(data.linkId)}`,
    async run(data, services) {
      return { outcome: await syncLink(services, String(data.linkId)) };
    },
  },
];
