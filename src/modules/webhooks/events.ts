import type { Db } from '../../db/client.ts';
import type { DomainEventType, EventOf } from '../../events/types.ts';

/** The events a webhook may subscribe to, by the spec's names. */
export const WEBHOOK_EVENTS = [
  'test.validated',
  'test.state_changed',
  'campaign.completed',
  'alert.fired',
  'coverage.changed',
  'webhook.test',
] as const;
export type WebhookEvent = (typeof WEBHOOK_EVENTS)[number];

/** The domain events delivered to subscribed webhooks. */
export const DELIVERED_EVENTS = [
  'test.validated',
  'test.state_changed',
  'campaign.completed',
  'alert.fired',
  'coverage.changed',
] as const satisfies readonly (DomainEventType | WebhookEvent)[];
export type DeliveredEvent = (typeof DELIVERED_EVENTS)[number];

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
  }
}

/** The body of every delivery: `{ type, timestamp, data }`, serialised once so every attempt signs the same bytes. */
export const deliveryBody = (type: WebhookEvent, timestamp: string, data: Record<string, unknown>) =>
  JSON.stringify({ type, timestamp, data });
