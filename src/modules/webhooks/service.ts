import { z } from 'zod';
import type { Principal } from '../../auth/access.ts';
import type { Prisma } from '../../db/client.ts';
import { inTransaction } from '../../db/unit-of-work.ts';
import { ConflictError, NotFoundError, ValidationError } from '../../errors.ts';
import { HTTP_PORTS, parseAllowList } from '../../net/allow-list.ts';
import { assertDestinationAllowed, DestinationRefusedError } from '../../net/guarded-fetch.ts';
import type { Services } from '../../services.ts';
import { page, parseInput } from '../../validation.ts';
import { createDeliveries, queueDeliveries } from './delivery.ts';
import { deliveryBody, WEBHOOK_EVENTS } from './events.ts';
import { webhookSecrets, isWellFormedSecret } from './signing.ts';
import { pageOf } from '../../db/page-totals.ts';

export const WEBHOOK_PAGE = { defaultLimit: 50, maxLimit: 200 } as const;
export const DELIVERY_PAGE = { defaultLimit: 50, maxLimit: 200 } as const;
const URL_MAX = 2_048;

const pageSchema = page(WEBHOOK_PAGE.defaultLimit, WEBHOOK_PAGE.maxLimit);
const deliveryPageSchema = page(DELIVERY_PAGE.defaultLimit, DELIVERY_PAGE.maxLimit);

const secret = z
  .string()
  .min(16, 'must be at least 16 characters')
  .max(256, 'must be at most 256 characters')
  .refine(isWellFormedSecret, 'a whsec_ secret must continue with base64');

const fields = {
  url: z.string().trim().min(1, 'must not be empty').max(URL_MAX, `must be at most ${URL_MAX} characters`),
  events: z
    .array(z.enum(WEBHOOK_EVENTS, { error: `must be one of ${WEBHOOK_EVENTS.join(', ')}` }))
    .min(1, 'must name at least one event')
    .transform((events) => [...new Set(events)]),
  secret: secret.nullable(),
  description: z.string().trim().max(500, 'must be at most 500 characters').nullable(),
  isActive: z.boolean(),
};

const createSchema = z.object({ ...fields, secret: fields.secret.optional(), description: fields.description.optional() });
const updateSchema = z.object(fields).partial();

type Query = { select?: Prisma.WebhookSelect };
type DeliveryQuery = { select?: Prisma.WebhookDeliverySelect };

/** The URL if a webhook may point at it now; otherwise 400 VALIDATION_ERROR naming `url`. */
async function checkedUrl(services: Services, url: string): Promise<string> {
  try {
    return (await assertDestinationAllowed(url, { allowList: parseAllowList(services.config.WEBHOOK_ALLOWED_HOSTS, HTTP_PORTS) })).href;
  } catch (error) {
    if (error instanceof DestinationRefusedError) throw new ValidationError('url', error.message);
    throw error;
  }
}

async function existing(services: Services, id: string) {
  const webhook = await services.prisma.webhook.findUnique({ where: { id }, select: { id: true, url: true } });
  if (!webhook) throw new NotFoundError('Webhook', id);
  return webhook;
}

export async function listWebhooks(services: Services, paging: unknown, query: Query = {}) {
  const { offset, limit } = parseInput(pageSchema, paging);
  return services.prisma.webhook.findMany({ ...query, orderBy: [{ createdAt: 'desc' }, { id: 'desc' }], skip: offset, take: limit });
}

export async function getWebhook(services: Services, id: string, query: Query = {}) {
  const webhook = await services.prisma.webhook.findUnique({ ...query, where: { id } });
  if (!webhook) throw new NotFoundError('Webhook', id);
  return webhook;
}

export async function createWebhook(services: Services, principal: Principal, input: unknown, query: Query = {}) {
  const { url, events, secret, description, isActive } = parseInput(createSchema, input);
  const href = await checkedUrl(services, url);
  return inTransaction(services, principal, async (uow) => {
    const { id } = await uow.tx.webhook.create({
      select: { id: true },
      data: {
        url: href,
        events,
        description: description ?? null,
        isActive,
        secretSealed: secret ? webhookSecrets(services).seal(secret) : null,
        createdById: principal.userId,
      },
    });
    await uow.audit({
      action: 'create_webhook',
      entityType: 'webhook',
      entityId: id,
      details: { url: href, events, signed: Boolean(secret) },
    });
    return uow.tx.webhook.findUniqueOrThrow({ ...query, where: { id } });
  });
}

export async function updateWebhook(services: Services, principal: Principal, id: string, input: unknown, query: Query = {}) {
  const changes = parseInput(updateSchema, input);
  await existing(services, id);
  const href = changes.url === undefined ? undefined : await checkedUrl(services, changes.url);
  return inTransaction(services, principal, async (uow) => {
    const webhook = await uow.tx.webhook.update({
      ...query,
      where: { id },
      data: {
        url: href,
        events: changes.events,
        description: changes.description,
        secretSealed: changes.secret === undefined ? undefined : changes.secret && webhookSecrets(services).seal(changes.secret),
        // Enabling (again) starts a new failure streak.
        ...(changes.isActive === undefined
          ? {}
          : changes.isActive
            ? { isActive: true, consecutiveFailures: 0, disabledAt: null, disabledReason: null }
            : { isActive: false }),
      },
    });
    const { secret: newSecret, ...visible } = changes;
    await uow.audit({
      action: 'update_webhook',
      entityType: 'webhook',
      entityId: id,
      details: {
        ...visible,
        ...(href ? { url: href } : {}),
        ...(newSecret === undefined ? {} : { secret: newSecret ? 'changed' : 'removed' }),
      },
    });
    return webhook;
  });
}

export async function deleteWebhook(services: Services, principal: Principal, id: string): Promise<boolean> {
  const webhook = await existing(services, id);
  return inTransaction(services, principal, async (uow) => {
    await uow.tx.webhook.delete({ where: { id } });
    await uow.audit({ action: 'delete_webhook', entityType: 'webhook', entityId: id, details: { url: webhook.url } });
    return true;
  });
}

/** Queues a `webhook.test` message to the webhook (whatever it subscribes to, enabled or not). */
export async function sendTestDelivery(
  services: Services,
  principal: Principal,
  id: string,
): Promise<{ detail: string; deliveryId: string }> {
  await existing(services, id);
  return inTransaction(services, principal, async (uow) => {
    services.jobs.assertAvailable();
    const body = deliveryBody('webhook.test', new Date().toISOString(), {
      webhook_id: id,
      message: `Test delivery from Violet, sent by ${principal.username}`,
    });
    const [deliveryId] = await createDeliveries(uow, services, [id], { type: 'webhook.test', eventId: null, body });
    await uow.audit({ action: 'test_webhook', entityType: 'webhook', entityId: id, details: { delivery_id: deliveryId } });
    return { detail: 'Test delivery queued', deliveryId };
  });
}

export async function listDeliveries(services: Services, webhookId: string, paging: unknown, query: DeliveryQuery = {}) {
  const { offset, limit } = parseInput(deliveryPageSchema, paging);
  await existing(services, webhookId);
  const where = { webhookId };
  return pageOf({ offset, limit }, [
    services.prisma.webhookDelivery.findMany({
      ...query,
      where,
      orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
      skip: offset,
      take: limit,
    }),
    services.prisma.webhookDelivery.count({ where }),
  ]);
}

/** Sends a finished delivery again, same `webhook-id` and body; the retry schedule continues from its attempts so far. */
export async function redeliver(
  services: Services,
  principal: Principal,
  webhookId: string,
  deliveryId: string,
  query: DeliveryQuery = {},
) {
  return inTransaction(services, principal, async (uow) => {
    const delivery = await uow.tx.webhookDelivery.findFirst({ where: { id: deliveryId, webhookId }, select: { id: true } });
    if (!delivery) throw new NotFoundError('Webhook delivery', deliveryId);
    services.jobs.assertAvailable();
    // Only while finished: of two concurrent redeliveries, the second finds the delivery pending again.
    const { count } = await uow.tx.webhookDelivery.updateMany({
      where: { id: deliveryId, status: { not: 'pending' } },
      data: { status: 'pending', nextAttemptAt: new Date(), completedAt: null },
    });
    if (!count) throw new ConflictError('The delivery is still being attempted');
    uow.afterCommit(() => queueDeliveries(services, [{ id: deliveryId }]));
    const updated = await uow.tx.webhookDelivery.findUniqueOrThrow({ ...query, where: { id: deliveryId } });
    await uow.audit({ action: 'redeliver_webhook', entityType: 'webhook', entityId: webhookId, details: { delivery_id: deliveryId } });
    return updated;
  });
}
