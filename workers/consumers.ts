import type { EventConsumer } from '../src/events/consumers.ts';
import { alertEvaluation } from '../src/modules/alerts/consumers.ts';
import { testValidationRecords } from '../src/modules/detection-lifecycle/consumers.ts';
import { emailNotices } from '../src/modules/email/consumers.ts';
import { inAppNotices } from '../src/modules/notifications/consumers.ts';
import { revalidationAfterChange } from '../src/modules/ownership/consumers.ts';
import { webhookDeliveries } from '../src/modules/webhooks/consumers.ts';
import { trackerRetestOutcomes } from '../src/modules/tracker/consumers.ts';

/** Every consumer of domain events: each runs after commit, once per event, as a queued job. */
export const eventConsumers: EventConsumer[] = [
  inAppNotices,
  webhookDeliveries,
  emailNotices,
  testValidationRecords,
  alertEvaluation,
  revalidationAfterChange,
  trackerRetestOutcomes,
];
