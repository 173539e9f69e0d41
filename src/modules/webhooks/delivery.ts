import { inTransaction, SYSTEM_ACTOR, type UnitOfWork } from '../../db/unit-of-work.ts';
import { delayUntil, lostRows, queueRows, WHEN_DUE } from '../../jobs/queue-rows.ts';
import { HTTP_PORTS, parseAllowList } from '../../net/allow-list.ts';
import { createGuardedFetch, DestinationRefusedError, type GuardedFetch } from '../../net/guarded-fetch.ts';
import type { Services } from '../../services.ts';
import { signedHeaders, webhookSecrets } from './signing.ts';

export const DELIVER_JOB = 'deliver-webhook';
export const SWEEP_JOB = 'sweep-webhook-deliveries';

/** Extra time a claimed attempt may take beyond the request timeout before another process may take it over. */
const LEASE_MARGIN_MS = 5_000;
const SWEEP_BATCH = 500;
/** The part of a failure's text kept in the attempt log. */
const ERROR_MAX = 500;

/** Attempts a delivery gets: the first plus one per retry delay. */
export const maxAttempts = (services: Services) => services.config.WEBHOOK_RETRY_SCHEDULE.length + 1;

/** Queues an attempt of each delivery; a queue outage only delays them until the sweep finds them. */
export const queueDeliveries = (services: Services, deliveries: readonly { id: string; delayMs?: number }[]) =>
  queueRows(services, DELIVER_JOB, 'deliveryId', deliveries, 'webhook delivery');

/** Creates the pending deliveries of one event for the given webhooks and queues them once committed. */
export async function createDeliveries(
  uow: UnitOfWork,
  services: Services,
  webhookIds: readonly string[],
  message: { type: string; eventId: string | null; body: string },
): Promise<string[]> {
  const now = new Date();
  const ids: string[] = [];
  for (const webhookId of webhookIds) {
    const existing = message.eventId
      ? await uow.tx.webhookDelivery.findUnique({
          where: { webhookId_eventId: { webhookId, eventId: message.eventId } },
          select: { id: true },
        })
      : null;
    if (existing) continue;
    const delivery = await uow.tx.webhookDelivery.create({
      data: { webhookId, eventType: message.type, eventId: message.eventId, body: message.body, nextAttemptAt: now },
      select: { id: true },
    });
    ids.push(delivery.id);
  }
  uow.afterCommit(() =>
    queueDeliveries(
      services,
      ids.map((id) => ({ id })),
    ),
  );
  return ids;
}

interface AttemptResult {
  statusCode: number | null;
  durationMs: number;
  error: string | null;
}

const fetchers = new WeakMap<Services, GuardedFetch>();

/** One guarded fetch per process: public addresses or WEBHOOK_ALLOWED_HOSTS only, checked on the connected address, no redirects. */
function webhookFetch(services: Services): GuardedFetch {
  let fetcher = fetchers.get(services);
  if (!fetcher) {
    fetcher = createGuardedFetch({ allowList: parseAllowList(services.config.WEBHOOK_ALLOWED_HOSTS, HTTP_PORTS), maxRedirects: 0 });
    fetchers.set(services, fetcher);
  }
  return fetcher;
}

/** Why an attempt got no answer, in words an admin can act on (no stack, no internals). */
function failureText(error: unknown, timeoutMs: number): string {
  if (error instanceof DestinationRefusedError) return `destination refused: ${error.message}`;
  if (error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError')) return `no answer within ${timeoutMs} ms`;
  for (let cause: unknown = error; cause instanceof Error; cause = cause.cause) {
    const code = (cause as NodeJS.ErrnoException).code;
    if (code) return `connection failed: ${code}`;
  }
  return error instanceof Error ? error.message.slice(0, ERROR_MAX) : 'delivery failed';
}

async function attempt(
  services: Services,
  delivery: { id: string; body: string },
  url: string,
  secret: string | null,
): Promise<AttemptResult> {
  const timeoutMs = services.config.WEBHOOK_TIMEOUT;
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  try {
    const response = await webhookFetch(services)(url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'user-agent': 'Violet-Webhooks/1.0',
        ...signedHeaders(delivery.id, Math.floor(Date.now() / 1000), delivery.body, secret),
      },
      body: delivery.body,
      signal: AbortSignal.timeout(timeoutMs),
    });
    await response.body?.cancel().catch(() => undefined);
    const ok = response.status >= 200 && response.status < 300;
    return { statusCode: response.status, durationMs: elapsed(), error: ok ? null : `receiver answered ${response.status}` };
  } catch (error) {
    return { statusCode: null, durationMs: elapsed(), error: failureText(error, timeoutMs) };
  }
}

export type DeliveryOutcome = 'succeeded' | 'retrying' | 'failed' | 'skipped';

/**
 * Makes one attempt of a pending delivery: claims it (one process at a time), POSTs the signed body, and records
 * the attempt, the next retry or the final failure, and the webhook's failure streak (disabling it at the limit).
 */
export async function deliver(services: Services, deliveryId: string): Promise<DeliveryOutcome> {
  const now = new Date();
  const leaseUntil = new Date(now.getTime() + services.config.WEBHOOK_TIMEOUT + LEASE_MARGIN_MS);
  const claimed = await services.prisma.webhookDelivery.updateMany({
    where: { id: deliveryId, status: 'pending', OR: [{ leaseUntil: null }, { leaseUntil: { lt: now } }] },
    data: { leaseUntil },
  });
  if (!claimed.count) return 'skipped';
  const delivery = await services.prisma.webhookDelivery.findUniqueOrThrow({
    where: { id: deliveryId },
    select: {
      id: true,
      body: true,
      attempts: true,
      eventType: true,
      webhook: { select: { id: true, url: true, secretSealed: true, isActive: true } },
    },
  });
  const { webhook } = delivery;
  const result =
    webhook.isActive || delivery.eventType === 'webhook.test'
      ? await attempt(services, delivery, webhook.url, webhook.secretSealed ? webhookSecrets(services).open(webhook.secretSealed) : null)
      : { statusCode: null, durationMs: 0, error: 'the webhook is disabled' };
  const number = delivery.attempts + 1;
  const succeeded = result.error === null;
  const retryDelays = services.config.WEBHOOK_RETRY_SCHEDULE;
  const retryIn = succeeded || !webhook.isActive ? null : (retryDelays[number - 1] ?? null);
  return inTransaction(services, SYSTEM_ACTOR, async (uow) => {
    await uow.tx.webhookAttempt.create({ data: { deliveryId, attempt: number, ...result } });
    const done = new Date();
    await uow.tx.webhookDelivery.update({
      where: { id: deliveryId },
      data: {
        attempts: number,
        leaseUntil: null,
        status: succeeded ? 'succeeded' : retryIn === null ? 'failed' : 'pending',
        nextAttemptAt: retryIn === null ? null : new Date(done.getTime() + retryIn),
        completedAt: retryIn === null ? done : null,
      },
    });
    if (succeeded) {
      await uow.tx.webhook.updateMany({ where: { id: webhook.id, consecutiveFailures: { gt: 0 } }, data: { consecutiveFailures: 0 } });
      return 'succeeded';
    }
    if (webhook.isActive) await countFailure(uow, services, webhook.id);
    if (retryIn === null) return 'failed';
    uow.afterCommit(() => queueDeliveries(services, [{ id: deliveryId, delayMs: retryIn }]));
    return 'retrying';
  });
}

/** Adds a failed attempt to the webhook's streak; at WEBHOOK_DISABLE_AFTER it is disabled and the admins are told. */
async function countFailure(uow: UnitOfWork, services: Services, webhookId: string): Promise<void> {
  const webhook = await uow.tx.webhook.update({
    where: { id: webhookId },
    data: { consecutiveFailures: { increment: 1 } },
    select: { consecutiveFailures: true, isActive: true, url: true },
  });
  const limit = services.config.WEBHOOK_DISABLE_AFTER;
  if (!webhook.isActive || webhook.consecutiveFailures < limit) return;
  const reason = `${webhook.consecutiveFailures} failed delivery attempts in a row`;
  await uow.tx.webhook.update({ where: { id: webhookId }, data: { isActive: false, disabledAt: new Date(), disabledReason: reason } });
  await uow.audit({ action: 'disable_webhook', entityType: 'webhook', entityId: webhookId, details: { reason, url: webhook.url } });
  uow.emit('webhook.disabled', { webhookId, reason });
}

/**
 * Queues again the pending deliveries whose job was lost (a process stopped mid-attempt, a queue outage). Jobs in
 * memory die with their process: at its start, every pending delivery is queued for when it is due and its lease
 * (an attempt cut by the process's end) has run out.
 */
export async function sweepDeliveries(services: Services, atStart = false): Promise<number> {
  const now = Date.now();
  const due = await services.prisma.webhookDelivery.findMany({
    where: lostRows(services, atStart, now),
    orderBy: { nextAttemptAt: 'asc' },
    select: WHEN_DUE,
    take: SWEEP_BATCH,
  });
  await queueDeliveries(
    services,
    due.map((row) => delayUntil(row, now)),
  );
  return due.length;
}
