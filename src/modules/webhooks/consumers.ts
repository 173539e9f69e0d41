import { defineConsumer } from '../../events/consumers.ts';
import type { EventOf } from '../../events/types.ts';
import { createDeliveries } from './delivery.ts';
import { DELIVERED_EVENTS, deliveryBody, deliveryData, type DeliveredEvent } from './events.ts';

/** Turns committed domain events into deliveries to the active webhooks subscribed to them. */
export const webhookDeliveries = defineConsumer({
  name: 'webhook-deliveries',
  events: DELIVERED_EVENTS,
  async handle(event, uow, services) {
    const webhooks = await uow.tx.webhook.findMany({ where: { isActive: true, events: { has: event.type } }, select: { id: true } });
    if (!webhooks.length) return;
    const data = await deliveryData(event as EventOf<DeliveredEvent>, uow.tx);
    await createDeliveries(
      uow,
      services,
      webhooks.map((webhook) => webhook.id),
      { type: event.type, eventId: event.id, body: deliveryBody(event.type as DeliveredEvent, event.occurredAt, data) },
    );
  },
});
