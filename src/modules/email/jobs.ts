import { UnrecoverableError } from 'bullmq';
import { QueueName, type JobDefinition } from '../../jobs/types.ts';
import type { Services } from '../../services.ts';
import { deliver, isPermanent, smtpErrorText, type OutgoingMail } from './transport.ts';
import { isConfigured, smtpSettings } from './settings.ts';

export const SEND_EMAIL_JOB = 'send-email';
/** With the runners' exponential backoff from 2 s: retries after 2, 4, 8 and 16 s, about half a minute in all. */
export const SEND_EMAIL_ATTEMPTS = 5;

/** One rendered e-mail to one recipient: ids and the message, never a password (the job reads the settings itself). */
export interface SendEmailData extends OutgoingMail, Record<string, unknown> {
  /** The notice (event consumer) that wrote it. */
  notice: string;
  eventId: string;
  userId: string;
}

/** Sends one e-mail through a transport built from the settings in force when it runs. */
export async function sendEmail(data: SendEmailData, services: Services): Promise<{ outcome: string; response?: string }> {
  const settings = await smtpSettings(services.prisma, services);
  const context = { notice: data.notice, event: data.eventId, user: data.userId };
  if (!settings.enabled || !isConfigured(settings)) {
    services.log.info(context, 'e-mail dropped: e-mail was disabled or unconfigured since it was queued');
    return { outcome: 'skipped' };
  }
  try {
    const response = await deliver(settings, data);
    services.log.info({ ...context, response }, 'e-mail delivered');
    return { outcome: 'delivered', response };
  } catch (error) {
    const detail = smtpErrorText(error);
    services.log.warn({ ...context, detail }, 'e-mail not delivered');
    // BullMQ and the in-process runner stop retrying on UnrecoverableError; the last failure is logged either way.
    if (isPermanent(error)) throw new UnrecoverableError(detail);
    throw error;
  }
}

export const emailJobs: JobDefinition[] = [
  {
    name: SEND_EMAIL_JOB,
    queue: QueueName.email,
    description: 'Send one notification e-mail',
    describe: (data) => `E-mail (${String(data.notice)}) to user ${String(data.userId)}`,
    attempts: SEND_EMAIL_ATTEMPTS,
    run: (data, services) => sendEmail(data as SendEmailData, services),
  },
];
