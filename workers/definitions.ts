import { consumerJob } from '../src/events/consumers.ts';
import { QueueName, type JobDefinition } from '../src/jobs/types.ts';
import { eventConsumers } from './consumers.ts';
import { dataSourcesJobs } from '../src/modules/data-sources/jobs.ts';
import { intelJobs } from '../src/modules/intel/jobs.ts';
import { campaignsJobs } from '../src/modules/campaigns/jobs.ts';
import { snapshotsJobs } from '../src/modules/snapshots/jobs.ts';
import { webhookJobs } from '../src/modules/webhooks/jobs.ts';
import { alertsJobs } from '../src/modules/alerts/jobs.ts';
import { ownershipJobs } from '../src/modules/ownership/jobs.ts';
import { emailJobs } from '../src/modules/email/delivery.ts';
import { osintJobs } from '../src/modules/osint/jobs.ts';
import { trackerJobs } from '../src/modules/tracker/jobs.ts';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

/** Every background job of the service. API processes schedule them; workers (or the embedded runner) run them. */
export const jobDefinitions: JobDefinition[] = [
  {
    name: 'purge-revoked-tokens',
    queue: QueueName.maintenance,
    description: 'Forget revoked session tokens that have expired',
    repeat: { every: HOUR },
    async run(_data, services) {
      const purged = await services.revocations.purgeExpired();
      services.log.info({ purged }, 'expired token revocations purged');
      return { purged };
    },
  },
  {
    name: 'reconcile-schedules',
    queue: QueueName.maintenance,
    description: 'Bring the scheduler in line with the database (repairs a schedule change whose queue update failed)',
    repeat: { every: 10 * MINUTE },
    async run(_data, services) {
      await services.jobs.reconcileSchedules();
      return { reconciled: true };
    },
  },
  ...dataSourcesJobs,
  ...intelJobs,
  ...campaignsJobs,
  ...snapshotsJobs,
  ...webhookJobs,
  ...alertsJobs,
  ...ownershipJobs,
  ...emailJobs,
  ...osintJobs,
  ...trackerJobs,
  consumerJob(eventConsumers) as unknown as JobDefinition,
];
