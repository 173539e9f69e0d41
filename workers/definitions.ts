import { QueueName, type JobDefinition } from '../src/jobs/types.ts';
import { dataSourcesJobs } from '../src/modules/data-sources/jobs.ts';
import { intelJobs } from '../src/modules/intel/jobs.ts';
import { campaignsJobs } from '../src/modules/campaigns/jobs.ts';
import { snapshotsJobs } from '../src/modules/snapshots/jobs.ts';

const HOUR = 3_600_000;

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
  ...dataSourcesJobs,
  ...intelJobs,
  ...campaignsJobs,
  ...snapshotsJobs,
];
