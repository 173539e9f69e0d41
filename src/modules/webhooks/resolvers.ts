import { queryFromInfo } from '@pothos/plugin-prisma';
import { allow } from '../../graphql/access.ts';
import { pageArgs, pagedList, pagingOf } from '../../graphql/pagination.ts';
import { builder } from '../../graphql/builder.ts';
import { principalOf } from '../../graphql/context.ts';
import { WEBHOOK_EVENTS } from './events.ts';
import * as webhooks from './service.ts';
import { CreateWebhookInput, UpdateWebhookInput, WebhookDeliveryPage, WebhookTestResult } from './types.ts';
import { webhookRoles } from './permissions.ts';

builder.queryFields((t) => ({
  webhookEvents: t.stringList({
    description: 'The event names a webhook may subscribe to (`webhook.test` pings come whatever it lists). Admins only.',
    authScopes: allow(webhookRoles.manage),
    resolve: () => [...WEBHOOK_EVENTS],
  }),
  webhooks: t.prismaField({
    type: ['Webhook'],
    ...pagedList(webhooks.WEBHOOK_PAGE, (paging) => `Webhooks, newest first (${paging}). Admins only.`),
    authScopes: allow(webhookRoles.manage),
    args: { ...pageArgs(t.arg) },
    resolve: (query, _root, args, context) => webhooks.listWebhooks(context.services, pagingOf(args), query),
  }),
  webhook: t.prismaField({
    type: 'Webhook',
    authScopes: allow(webhookRoles.manage),
    args: { id: t.arg({ type: 'UUID', required: true }) },
    resolve: (query, _root, { id }, context) => webhooks.getWebhook(context.services, String(id), query),
  }),
  webhookDeliveries: t.field({
    type: WebhookDeliveryPage,
    ...pagedList(webhooks.DELIVERY_PAGE, (paging) => `A webhook's deliveries, newest first (${paging}), each with its attempts.`),
    authScopes: allow(webhookRoles.manage),
    args: {
      webhookId: t.arg({ type: 'UUID', required: true }),
      ...pageArgs(t.arg),
    },
    resolve: (_root, args, context, info) =>
      webhooks.listDeliveries(context.services, String(args.webhookId), pagingOf(args), queryFromInfo({ context, info, path: ['items'] })),
  }),
}));

builder.mutationFields((t) => ({
  createWebhook: t.prismaField({
    type: 'Webhook',
    authScopes: allow(webhookRoles.manage),
    args: { input: t.arg({ type: CreateWebhookInput, required: true }) },
    resolve: (query, _root, { input }, context) => webhooks.createWebhook(context.services, principalOf(context), input, query),
  }),
  updateWebhook: t.prismaField({
    type: 'Webhook',
    authScopes: allow(webhookRoles.manage),
    args: { id: t.arg({ type: 'UUID', required: true }), input: t.arg({ type: UpdateWebhookInput, required: true }) },
    resolve: (query, _root, { id, input }, context) =>
      webhooks.updateWebhook(context.services, principalOf(context), String(id), input, query),
  }),
  deleteWebhook: t.boolean({
    description: 'Deletes a webhook and its delivery log for good.',
    authScopes: allow(webhookRoles.manage),
    args: { id: t.arg({ type: 'UUID', required: true }) },
    resolve: (_root, { id }, context) => webhooks.deleteWebhook(context.services, principalOf(context), String(id)),
  }),
  testWebhook: t.field({
    type: WebhookTestResult,
    description: 'Queues a `webhook.test` delivery (payload webhook_id and message).',
    authScopes: allow(webhookRoles.manage),
    args: { id: t.arg({ type: 'UUID', required: true }) },
    resolve: (_root, { id }, context) => webhooks.sendTestDelivery(context.services, principalOf(context), String(id)),
  }),
  redeliverWebhookDelivery: t.prismaField({
    type: 'WebhookDelivery',
    description: 'Sends a finished delivery again with the same webhook-id and body.',
    authScopes: allow(webhookRoles.manage),
    args: { webhookId: t.arg({ type: 'UUID', required: true }), deliveryId: t.arg({ type: 'UUID', required: true }) },
    resolve: (query, _root, args, context) =>
      webhooks.redeliver(context.services, principalOf(context), String(args.webhookId), String(args.deliveryId), query),
  }),
}));
