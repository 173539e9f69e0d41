import { QueueName, type JobDefinition } from '../../jobs/types.ts';
import { runCampaignOccurrence, type OccurrenceJobData } from './occurrences.ts';
import { campaignSchedules, OCCURRENCE_JOB } from './schedule.ts';

export const campaignsJobs: JobDefinition[] = [
  {
    name: OCCURRENCE_JOB,
    queue: QueueName.maintenance,
    description: 'Run an occurrence of a recurring campaign',
    describe: (data) => `Run campaign "${String(data.name ?? data.campaignId)}"`,
    schedules: campaignSchedules,
    run: (data, services) => runCampaignOccurrence(services, data as unknown as OccurrenceJobData),
  },
];
