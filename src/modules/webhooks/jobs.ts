import { QueueName, type JobDefinition } from '../../jobs/types.ts';
import { DELIVER_JOB, deliver, SWEEP_JOB, sweepDeliveries } from './delivery.ts';

export const webhookJobs: JobDefinition[] = [
  {
    name: DELIVER_JOB,
    queue: QueueName.webhooks,
    description: 'Deliver one webhook message (one attempt; retries are scheduled by the delivery itself)',
    describe: (data) => `webhook delivery ${String(data.deliveryId)}`,
    async run(data, services) {
      return { outcome: await deliver(services, String(data.deliveryId)) };
    },
  },
  {
    name: SWEEP_JOB,
    queue: QueueName.webhooks,
    description: 'Queue again webhook deliveries whose attempt was lost',
    repeat: { every: 60_000 },
    runAtStart: true,
    async run(data, services) {
      return { queued: await sweepDeliveries(services, data.atStart === true) };
    },
  },
];
