import type { EventConsumer } from '../src/events/consumers.ts';
import { alertEvaluation, testValidationRecords } from '../src/modules/alerts/jobs.ts';
import { campaignCompletionNotices } from '../src/modules/campaigns/workflow.ts';
import { emailNotices } from '../src/modules/email/notices.ts';
import { testStateNotices } from '../src/modules/test-runs/notifications.ts';
import { webhookDeliveries } from '../src/modules/webhooks/delivery.ts';

/** Every consumer of domain events: each runs after commit, once per event, as a queued job. */
export const eventConsumers: EventConsumer[] = [
  testStateNotices,
  campaignCompletionNotices,
  webhookDeliveries,
  ...emailNotices,
  testValidationRecords,
  alertEvaluation,
];
