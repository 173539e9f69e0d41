import { delayUntil, lostRows, queueRows, WHEN_DUE } from '../../jobs/queue-rows.ts';
import { QueueName, type JobDefinition } from '../../jobs/types.ts';
import { BACKOFF_BASE_MS } from '../../jobs/types.ts';
import type { UnitOfWork } from '../../db/unit-of-work.ts';
import type { Services } from '../../services.ts';
import type { renderMail } from './messages.ts';
import { describeOutcome, failureOutcome } from './outcome.ts';
import { isConfigured, smtpSettings } from './settings.ts';
import { deliver, isPermanent, SMTP_TIMEOUTS_MS, smtpErrorText } from './transport.ts';

export const SEND_EMAIL_JOB = 'send-email';
export const SWEEP_EMAIL_JOB = 'sweep-email-deliveries';
/** Retries after 2, 4, 8 and 16 s: about half a minute in all. */
export const SEND_EMAIL_ATTEMPTS = 5;
/** How long one attempt may hold an e-mail: every SMTP time-out in a row, and a margin. */
const LEASE_MS = SMTP_TIMEOUTS_MS.connectionTimeout + SMTP_TIMEOUTS_MS.greetingTimeout + SMTP_TIMEOUTS_MS.socketTimeout + 10_000;
const SWEEP_BATCH = 500;
/** Timers may fire a little before the time they were set for. */
const CLOCK_SLACK_MS = 1_000;
/** Sent and failed e-mails are kept this long (for inspection), then deleted. */
export const EMAIL_RETENTION_MS = 7 * 24 * 3_600_000;
const DISABLED = 'Not sent: e-mail was disabled or unconfigured after it was queued';

/** Queues an attempt of each e-mail; a queue outage only delays them until the sweep finds them. */
const queueEmails = (services: Services, deliveries: readonly { id: string; delayMs?: number }[]) =>
  queueRows(services, SEND_EMAIL_JOB, 'deliveryId', deliveries, 'e-mail');

/** Writes one pending e-mail per recipient in the consumer's transaction and queues them once it commits. */
export async function createEmails(
  uow: UnitOfWork,
  services: Services,
  message: { notice: string; eventId: string; mail: ReturnType<typeof renderMail> },
  to: readonly { id: string; email: string }[],
): Promise<void> {
  const { notice, eventId, mail } = message;
  const nextAttemptAt = new Date();
  await uow.tx.emailDelivery.createMany({
    data: to.map((user) => ({ notice, eventId, userId: user.id, toAddress: user.email, ...mail, nextAttemptAt })),
    skipDuplicates: true,
  });
  const rows = await uow.tx.emailDelivery.findMany({
    where: { notice, eventId, userId: { in: to.map((user) => user.id) }, status: 'pending' },
    select: { id: true },
  });
  uow.afterCommit(() => queueEmails(services, rows));
}

export type EmailOutcome = 'sent' | 'retrying' | 'failed' | 'skipped';

/**
 * Makes one attempt of a pending e-mail: claims it (one process at a time), sends it with the settings in force,
 * and records it sent, the next retry (4xx, connection failures) or the final failure (5xx, the guard's refusal).
 */
export async function sendEmail(services: Services, deliveryId: string): Promise<EmailOutcome> {
  const now = new Date();
  const claimed = await services.prisma.emailDelivery.updateMany({
    where: {
      id: deliveryId,
      status: 'pending',
      // A job queued early (by the sweep, next to a retry's own) waits its turn rather than send before it.
      nextAttemptAt: { lte: new Date(now.getTime() + CLOCK_SLACK_MS) },
      OR: [{ leaseUntil: null }, { leaseUntil: { lt: now } }],
    },
    data: { leaseUntil: new Date(now.getTime() + LEASE_MS) },
  });
  if (!claimed.count) return 'skipped';
  const row = await services.prisma.emailDelivery.findUniqueOrThrow({ where: { id: deliveryId } });
  const context = { notice: row.notice, event: row.eventId, user: row.userId };
  const attempts = row.attempts + 1;
  const settings = await smtpSettings(services.prisma, services);
  let error: unknown = null;
  if (!settings.enabled || !isConfigured(settings)) error = DISABLED;
  else {
    try {
      const response = await deliver(
        settings,
        { to: row.toAddress, subject: row.subject, text: row.text, html: row.html },
        services.config,
      );
      services.log.info({ ...context, response }, 'e-mail delivered');
    } catch (failure) {
      error = failure;
      services.log.warn({ ...context, detail: smtpErrorText(failure) }, 'e-mail not delivered');
    }
  }
  const done = new Date();
  if (error === null) {
    await finish(services, deliveryId, { status: 'sent', attempts, lastError: null, completedAt: done });
    return 'sent';
  }
  const lastError = typeof error === 'string' ? error : describeOutcome(failureOutcome(error), error);
  if (typeof error === 'string' || isPermanent(error) || attempts >= SEND_EMAIL_ATTEMPTS) {
    await finish(services, deliveryId, { status: 'failed', attempts, lastError, completedAt: done });
    return 'failed';
  }
  const delayMs = BACKOFF_BASE_MS * 2 ** (attempts - 1);
  await finish(services, deliveryId, { status: 'pending', attempts, lastError, nextAttemptAt: new Date(done.getTime() + delayMs) });
  await queueEmails(services, [{ id: deliveryId, delayMs }]);
  return 'retrying';
}

function finish(
  services: Services,
  id: string,
  data: { status: 'sent' | 'failed' | 'pending'; attempts: number; lastError: string | null; completedAt?: Date; nextAttemptAt?: Date },
) {
  return services.prisma.emailDelivery.update({
    where: { id },
    data: { nextAttemptAt: null, ...data, leaseUntil: null },
  });
}

/**
 * Queues again the pending e-mails whose job was lost, and deletes e-mails finished before the retention period.
 * Jobs in memory die with their process: at its start, every pending e-mail is queued for when it is due and its
 * lease (an attempt cut by the process's end) has run out.
 */
export async function sweepEmails(services: Services, atStart = false): Promise<{ queued: number; purged: number }> {
  const now = Date.now();
  const due = await services.prisma.emailDelivery.findMany({
    where: lostRows(services, atStart, now),
    orderBy: { nextAttemptAt: 'asc' },
    select: WHEN_DUE,
    take: SWEEP_BATCH,
  });
  await queueEmails(
    services,
    due.map((row) => delayUntil(row, now)),
  );
  const purged = await services.prisma.emailDelivery.deleteMany({
    where: { status: { in: ['sent', 'failed'] }, completedAt: { lt: new Date(now - EMAIL_RETENTION_MS) } },
  });
  return { queued: due.length, purged: purged.count };
}

export const emailJobs: JobDefinition[] = [
  {
    name: SEND_EMAIL_JOB,
    queue: QueueName.email,
    description: 'Send one notification e-mail (one attempt; retries are scheduled by the attempt itself)',
    describe: (data) => `e-mail ${String(data.deliveryId)}`,
    attempts: 1,
    async run(data, services) {
      return { outcome: await sendEmail(services, String(data.deliveryId)) };
    },
  },
  {
    name: SWEEP_EMAIL_JOB,
    // Not on `email`: a recurring job always waits in its queue, and the e-mails waiting there are counted.
    queue: QueueName.maintenance,
    description: 'Queue again notification e-mails whose attempt was lost; delete old sent ones',
    repeat: { every: 60_000 },
    runAtStart: true,
    run: (data, services) => sweepEmails(services, data.atStart === true),
  },
];
