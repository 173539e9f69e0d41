import { SYSTEM_ACTOR } from '../../db/unit-of-work.ts';
import { QueueName, type JobDefinition } from '../../jobs/types.ts';
import { runIntelScan } from './service.ts';

/** Every six hours, on the hour (UTC). */
export const INTEL_SCAN_SCHEDULE = { pattern: '0 */6 * * *', tz: 'UTC' } as const;

export const intelJobs: JobDefinition[] = [
  {
    name: 'intel-scan',
    queue: QueueName.intel,
    description: 'Report threat-actor technique uses that appeared since the last scan',
    repeat: INTEL_SCAN_SCHEDULE,
    async run(_data, services) {
      const { scan, baseline, newItems } = await runIntelScan(services, SYSTEM_ACTOR);
      services.log.info({ scanId: scan.id, baseline, newItems }, 'intel scan completed');
      return { scanId: scan.id, baseline, newItems };
    },
  },
];
