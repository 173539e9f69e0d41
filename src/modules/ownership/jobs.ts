import { SYSTEM_ACTOR } from '../../db/unit-of-work.ts';
import { QueueName, type JobDefinition } from '../../jobs/types.ts';
import { generateQueue } from './revalidation.ts';

export const ownershipJobs: JobDefinition[] = [
  {
    name: 'generate-revalidation-queue',
    queue: QueueName.maintenance,
    description: 'Rebuild the revalidation queue from expiries, invalidations, infrastructure changes and stale coverage',
    repeat: { pattern: '0 3 * * *' },
    async run(_data, services) {
      return generateQueue(services, SYSTEM_ACTOR);
    },
  },
];
