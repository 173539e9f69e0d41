import { body, type Route } from '../../../rest-adapter/types.ts';
import { webhookRoles } from './permissions.ts';

const WEBHOOK_FIELDS =
  'id url events secret description isActive consecutiveFailures disabledAt disabledReason createdBy createdAt updatedAt';
const DELIVERY_FIELDS =
  'id event status attempts statusCode durationMs error nextAttemptAt createdAt completedAt attemptLog { attempt statusCode durationMs error at }';

const TAG = 'Webhooks';

export const webhookRoutes: Route[] = [
  {
    method: 'GET',
    path: '/webhooks',
    tag: TAG,
    summary: 'Webhooks, newest first, secrets masked',
    roles: webhookRoles.manage,
    document: `query ($offset: Int, $limit: Int) { webhooks(offset: $offset, limit: $limit) { ${WEBHOOK_FIELDS} } }`,
  },
  {
    method: 'POST',
    path: '/webhooks',
    tag: TAG,
    summary: 'Create a webhook (body url, events, secret, description, is_active); the URL must pass the SSRF guard',
    roles: webhookRoles.manage,
    status: 201,
    document: `mutation ($input: CreateWebhookInput!) { createWebhook(input: $input) { ${WEBHOOK_FIELDS} } }`,
    variables: { input: body() },
  },
  {
    method: 'GET',
    path: '/webhooks/:id',
    tag: TAG,
    summary: 'One webhook, secret masked',
    roles: webhookRoles.manage,
    document: `query ($id: UUID!) { webhook(id: $id) { ${WEBHOOK_FIELDS} } }`,
  },
  {
    method: 'PATCH',
    path: '/webhooks/:id',
    tag: TAG,
    summary: 'Update any of url, events, secret (null removes it), description, is_active (true re-enables)',
    roles: webhookRoles.manage,
    document: `mutation ($id: UUID!, $input: UpdateWebhookInput!) { updateWebhook(id: $id, input: $input) { ${WEBHOOK_FIELDS} } }`,
    variables: { input: body() },
  },
  {
    method: 'DELETE',
    path: '/webhooks/:id',
    tag: TAG,
    summary: 'Delete a webhook and its delivery log',
    roles: webhookRoles.manage,
    status: 204,
    document: 'mutation ($id: UUID!) { deleteWebhook(id: $id) }',
  },
  {
    method: 'POST',
    path: '/webhooks/:id/test',
    tag: TAG,
    summary: 'Queue a webhook.test delivery (payload webhook_id, message); answers detail and delivery_id',
    roles: webhookRoles.manage,
    status: 202,
    document: 'mutation ($id: UUID!) { testWebhook(id: $id) { detail deliveryId } }',
  },
  {
    method: 'GET',
    path: '/webhooks/:id/deliveries',
    tag: TAG,
    summary: 'Delivery log, newest first: event, status, attempts, last status code, duration and error, every attempt',
    roles: webhookRoles.manage,
    document: `query ($id: UUID!, $offset: Int, $limit: Int) { webhookDeliveries(webhookId: $id, offset: $offset, limit: $limit) { items { ${DELIVERY_FIELDS} } total offset limit } }`,
  },
  {
    method: 'POST',
    path: '/webhooks/:id/deliveries/:delivery_id/redeliver',
    tag: TAG,
    summary: 'Send a finished delivery again (same webhook-id and body); 409 while it is still being attempted',
    roles: webhookRoles.manage,
    status: 202,
    document: `mutation ($id: UUID!, $deliveryId: UUID!) { redeliverWebhookDelivery(webhookId: $id, deliveryId: $deliveryId) { ${DELIVERY_FIELDS} } }`,
  },
];
