import { builder } from '../../graphql/builder.ts';
import { pageType } from '../../graphql/pagination.ts';
import { cappedListCost } from '../../graphql/cost.ts';
import { WebhookDeliveryStatus } from '../../generated/prisma/enums.ts';
import { WEBHOOK_EVENTS } from './events.ts';

/** Most attempts one delivery lists: its retries plus redeliveries fit far below this. */
export const ATTEMPT_LOG_MAX = 50;
const ATTEMPTS = { orderBy: { attempt: 'asc' as const }, take: ATTEMPT_LOG_MAX };

export const WebhookDeliveryStatusEnum = builder.enumType(WebhookDeliveryStatus, {
  name: 'WebhookDeliveryStatus',
  description: 'pending: an attempt is due or running; succeeded: the receiver answered 2xx; failed: every attempt failed.',
});

export const WebhookType = builder.prismaObject('Webhook', {
  description: 'An outgoing webhook (admins only). Its secret is never shown: `***` when one is set, null when none.',
  fields: (t) => ({
    id: t.exposeID('id'),
    url: t.exposeString('url'),
    events: t.exposeStringList('events', { description: 'Event names it receives; `webhook.test` pings come whatever it lists.' }),
    secret: t.string({
      nullable: true,
      description: 'Masked: `***` when deliveries are signed, null when they are not.',
      select: { secretSealed: true },
      resolve: (webhook) => (webhook.secretSealed ? '***' : null),
    }),
    description: t.exposeString('description', { nullable: true }),
    isActive: t.exposeBoolean('isActive', { description: 'False when disabled by an admin or after too many failures in a row.' }),
    consecutiveFailures: t.exposeInt('consecutiveFailures', { description: 'Failed attempts in a row (0 after any success).' }),
    disabledAt: t.expose('disabledAt', { type: 'DateTime', nullable: true }),
    disabledReason: t.exposeString('disabledReason', { nullable: true }),
    createdBy: t.exposeID('createdById', { nullable: true, description: 'The id of the admin who created it.' }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    updatedAt: t.expose('updatedAt', { type: 'DateTime' }),
  }),
});

export const WebhookAttemptType = builder.prismaObject('WebhookAttempt', {
  description: 'One HTTP attempt of a delivery.',
  fields: (t) => ({
    attempt: t.exposeInt('attempt', { description: '1 for the first attempt.' }),
    statusCode: t.exposeInt('statusCode', { nullable: true, description: "The receiver's HTTP status; null when no answer came." }),
    durationMs: t.exposeInt('durationMs'),
    error: t.exposeString('error', { nullable: true, description: 'Why the attempt failed; null when it succeeded.' }),
    at: t.expose('at', { type: 'DateTime' }),
  }),
});

export const WebhookDeliveryType = builder.prismaObject('WebhookDelivery', {
  description: 'One message to one webhook. Its id is the `webhook-id` header, the same on every attempt and redelivery.',
  fields: (t) => ({
    id: t.exposeID('id'),
    event: t.exposeString('eventType', { description: 'The event name, e.g. test.validated.' }),
    status: t.expose('status', { type: WebhookDeliveryStatusEnum }),
    attempts: t.exposeInt('attempts', { description: 'Attempts made so far.' }),
    statusCode: t.int({
      nullable: true,
      description: "The last attempt's HTTP status.",
      select: { attemptsLog: ATTEMPTS },
      resolve: (delivery) => delivery.attemptsLog.at(-1)?.statusCode ?? null,
    }),
    durationMs: t.int({
      nullable: true,
      description: "The last attempt's duration.",
      select: { attemptsLog: ATTEMPTS },
      resolve: (delivery) => delivery.attemptsLog.at(-1)?.durationMs ?? null,
    }),
    error: t.string({
      nullable: true,
      description: 'Why the last attempt failed; null when it succeeded or none was made.',
      select: { attemptsLog: ATTEMPTS },
      resolve: (delivery) => delivery.attemptsLog.at(-1)?.error ?? null,
    }),
    nextAttemptAt: t.expose('nextAttemptAt', { type: 'DateTime', nullable: true }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    completedAt: t.expose('completedAt', { type: 'DateTime', nullable: true }),
    attemptLog: t.relation('attemptsLog', {
      description: `Every attempt, oldest first (at most ${ATTEMPT_LOG_MAX}).`,
      query: ATTEMPTS,
      complexity: cappedListCost(ATTEMPT_LOG_MAX),
    }),
  }),
});

export const CreateWebhookInput = builder.inputType('CreateWebhookInput', {
  fields: (t) => ({
    url: t.string({
      required: true,
      description: 'http(s); must resolve to public addresses unless its host is in WEBHOOK_ALLOWED_HOSTS.',
    }),
    events: t.stringList({
      required: true,
      description: `Event names (${WEBHOOK_EVENTS.join(', ')}).`,
    }),
    secret: t.string({
      required: false,
      description: 'Signing secret: `whsec_<base64>` (its bytes) or any 16+ character text (its UTF-8 bytes).',
    }),
    description: t.string({ required: false }),
    isActive: t.boolean({ required: false, defaultValue: true }),
  }),
});

export const UpdateWebhookInput = builder.inputType('UpdateWebhookInput', {
  fields: (t) => ({
    url: t.string({ required: false }),
    events: t.stringList({ required: false }),
    secret: t.string({ required: false, description: 'A new secret; null removes it (deliveries go unsigned).' }),
    description: t.string({ required: false }),
    isActive: t.boolean({ required: false, description: 'True re-enables a disabled webhook and resets its failure count.' }),
  }),
});

export const WebhookTestResult = builder.objectRef<{ detail: string; deliveryId: string }>('WebhookTestResult').implement({
  fields: (t) => ({
    detail: t.exposeString('detail'),
    deliveryId: t.exposeID('deliveryId', { description: 'The queued delivery, to follow in the delivery log.' }),
  }),
});

export const WebhookDeliveryPage = pageType('WebhookDeliveryPage', WebhookDeliveryType);
