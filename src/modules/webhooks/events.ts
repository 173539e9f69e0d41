import type { Db } from '../../db/client.ts';
import type { DomainEventType, EventOf, TrackerIssueFacts } from '../../events/types.ts';

/** The domain events delivered to subscribed webhooks: the one catalogue subscriptions, docs and the consumer read. */
export const DELIVERED_EVENTS = [
  'test.validated',
  'test.state_changed',
  'campaign.completed',
  'alert.fired',
  'coverage.changed',
  'tracker.issue_created',
  'tracker.issue_status_changed',
  'tracker.issue_fixed',
  'tracker.issue_reopened',
] as const satisfies readonly DomainEventType[];
export type DeliveredEvent = (typeof DELIVERED_EVENTS)[number];

/** The events a webhook may subscribe to, by the spec's names: the delivered domain events and `webhook.test`. */
export const WEBHOOK_EVENTS = [...DELIVERED_EVENTS, 'webhook.test'] as const;
export type WebhookEvent = (typeof WEBHOOK_EVENTS)[number];

/** A tracker event's facts in snake_case: ids, the issue and its statuses; the connection only by id, never its credential. */
const trackerData = (facts: TrackerIssueFacts) => ({
  issue_id: facts.linkId,
  connection_id: facts.connectionId,
  subject_type: facts.subjectType,
  subject_id: facts.subjectId,
  test_id: facts.testId,
  issue_key: facts.issueKey,
  issue_url: facts.issueUrl,
  tracker_status: facts.trackerStatus,
});

/** The `data` of a delivery: the event's facts in the REST layer's snake_case, test events with the ATT&CK id. */
export async function deliveryData(event: EventOf<DeliveredEvent>, db: Db): Promise<Record<string, unknown>> {
  switch (event.type) {
    case 'test.state_changed':
    case 'test.validated': {
      const { testId, techniqueId, campaignId } = event.payload;
      const technique = await db.technique.findUnique({ where: { id: techniqueId }, select: { ttpId: true } });
      const common = { test_id: testId, technique_id: techniqueId, ttp_id: technique?.ttpId ?? null, campaign_id: campaignId };
      return event.type === 'test.validated'
        ? { ...common, detection_result: event.payload.detectionResult }
        : { ...common, from: event.payload.from, to: event.payload.to, actor_id: event.actorId };
    }
    case 'campaign.completed': {
      const { campaignId, name, testCount, validatedCount, percentage } = event.payload;
      return { campaign_id: campaignId, name, test_count: testCount, validated_count: validatedCount, percentage };
    }
    case 'alert.fired': {
      const { alertId, ruleId, ruleName, ruleType, severity, subject, techniqueId, title, figures } = event.payload;
      return {
        alert_id: alertId,
        rule_id: ruleId,
        rule_name: ruleName,
        rule_type: ruleType,
        severity,
        subject,
        technique_id: techniqueId,
        title,
        figures,
      };
    }
    case 'coverage.changed':
      return { technique_ids: event.payload.techniqueIds, reason: event.payload.reason };
    case 'tracker.issue_created':
      return trackerData(event.payload);
    case 'tracker.issue_status_changed': {
      const { from, to, remediationStatus } = event.payload;
      return { ...trackerData(event.payload), from, to, remediation_status: remediationStatus };
    }
    case 'tracker.issue_fixed':
      return { ...trackerData(event.payload), retest_id: event.payload.retestId };
    case 'tracker.issue_reopened':
      return { ...trackerData(event.payload), reason: event.payload.reason, retest_id: event.payload.retestId };
  }
}

/** The body of every delivery: `{ type, timestamp, data }`, serialised once so every attempt signs the same bytes. */
export const deliveryBody = (type: WebhookEvent, timestamp: string, data: Record<string, unknown>) =>
  JSON.stringify({ type, timestamp, data });
