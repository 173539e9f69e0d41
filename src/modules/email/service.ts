import { z } from 'zod';
import type { Principal } from '../../auth/access.ts';
import { SMTP_SECURITY } from '../../config.ts';
import type { Prisma } from '../../db/client.ts';
import { movesDestination } from '../../crypto/secret-binding.ts';
import { inTransaction } from '../../db/unit-of-work.ts';
import { DomainError, ValidationError } from '../../errors.ts';
import type { Services } from '../../services.ts';
import { parseInput } from '../../validation.ts';
import { linkTo, renderMail } from './messages.ts';
import {
  configView,
  EMAIL_CONFIG_ID,
  isConfigured,
  readConfigView,
  readRow,
  settingsInForce,
  smtpSettings,
  SMTP_DESTINATION,
  SMTP_PASSWORD_PURPOSE,
  type EmailConfigView,
} from './settings.ts';
import { describeOutcome, failureOutcome, type TestEmailOutcome } from './outcome.ts';
import { deliver, smtpErrorText } from './transport.ts';

/** E-mail is off, or no SMTP host or sender address is known: nothing can be sent. */
export class EmailNotConfiguredError extends DomainError {
  override readonly status = 409;
  override readonly code = 'EMAIL_NOT_CONFIGURED';
}

const HOST = /^(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*\.?$|^[0-9A-Fa-f:.]+$/;
const address = z.email('must be an e-mail address').max(254, 'must be at most 254 characters');

/** Every field may be left out (unchanged) or null (back to the deployment default). */
const updateSchema = z
  .object({
    enabled: z.boolean().nullable(),
    smtpHost: z
      .string()
      .trim()
      .min(1, 'must not be empty')
      .max(253, 'must be at most 253 characters')
      .regex(HOST, 'must be a host name or an IP address')
      .nullable(),
    smtpPort: z.number().int('must be an integer').min(1, 'must be from 1 to 65535').max(65535, 'must be from 1 to 65535').nullable(),
    smtpSecurity: z.enum(SMTP_SECURITY).nullable(),
    // An empty user name is kept: it turns authentication off although SMTP_URL names a user.
    smtpUsername: z.string().trim().max(254, 'must be at most 254 characters').nullable(),
    smtpPassword: z
      .string()
      .min(1, 'must not be empty (null removes the stored password)')
      .max(1024, 'must be at most 1024 characters')
      .nullable(),
    fromAddress: address.nullable(),
  })
  .partial();

type Changes = z.infer<typeof updateSchema>;

const settingsDeps = (services: Services) => ({ config: services.config, secrets: services.secrets });

export const getEmailConfig = (services: Services): Promise<EmailConfigView> => readConfigView(services.prisma, settingsDeps(services));

/** What the audit entry says of a change: every field as given, except the password, of which only set or cleared. */
function audited(changes: Changes): Prisma.InputJsonObject {
  const { smtpPassword, ...rest } = changes;
  return { ...rest, ...(smtpPassword !== undefined ? { smtpPassword: smtpPassword === null ? 'cleared' : 'set' } : {}) };
}

/**
 * Stores the given settings over the deployment defaults (null: back to the default). E-mail cannot be left
 * enabled without a host and a sender. The password is sealed before it is stored; the audit entry never holds it.
 */
export async function updateEmailConfig(services: Services, principal: Principal, input: unknown): Promise<EmailConfigView> {
  const changes = parseInput(updateSchema, input);
  const { smtpPassword, ...plain } = changes;
  return inTransaction(services, principal, async (uow) => {
    const before = await readRow(uow.tx);
    // A stored password stays with its destination: moved without a new one, it is dropped.
    const dropped =
      smtpPassword === undefined &&
      Boolean(before?.smtpPasswordEncrypted) &&
      movesDestination(
        SMTP_DESTINATION,
        settingsInForce(before, services.config),
        settingsInForce({ ...before, ...plain }, services.config),
      );
    const sealed =
      smtpPassword === undefined
        ? dropped
          ? { smtpPasswordEncrypted: null }
          : {}
        : { smtpPasswordEncrypted: smtpPassword === null ? null : services.secrets.box(SMTP_PASSWORD_PURPOSE).seal(smtpPassword) };
    const row = await uow.tx.emailConfig.upsert({
      where: { id: EMAIL_CONFIG_ID },
      create: { id: EMAIL_CONFIG_ID, ...plain, ...sealed, updatedById: principal.userId },
      update: { ...plain, ...sealed, updatedById: principal.userId },
    });
    const view = configView(row, settingsDeps(services));
    if (view.enabled && !view.configured) {
      const [field, variable] = view.smtpHost ? ['fromAddress', 'EMAIL_FROM'] : ['smtpHost', 'SMTP_URL'];
      throw new ValidationError(field, `is needed while e-mail is enabled (set it here or through ${variable})`);
    }
    const details = { changes: audited(changes), ...(dropped ? { smtpPassword: 'cleared: the destination changed' } : {}) };
    await uow.audit({ action: 'update_email_config', entityType: 'email_config', details });
    return view;
  });
}

export interface TestEmailResult {
  delivered: boolean;
  outcome: TestEmailOutcome;
  /** The outcome in Violet's words: never the remote server's text. */
  detail: string;
  to: string;
}

/**
 * Sends a test e-mail now, in this request (not queued), to `to` or the caller's own address, and answers whether
 * the SMTP server accepted it. A refusal or an unreachable server is an answer (delivered false), not an error; the
 * answer says what happened in Violet's words, the server's own text going to the log only.
 */
export async function sendTestEmail(services: Services, principal: Principal, input: unknown): Promise<TestEmailResult> {
  const { to: given } = parseInput(z.object({ to: address.nullish() }), input);
  const to = given ?? (await services.prisma.user.findUnique({ where: { id: principal.userId }, select: { email: true } }))?.email;
  if (!to) throw new ValidationError('to', 'is required: your account has no e-mail address');
  const settings = await smtpSettings(services.prisma, settingsDeps(services));
  if (!settings.enabled) throw new EmailNotConfiguredError('E-mail is disabled: enable it in the e-mail settings first');
  if (!isConfigured(settings)) throw new EmailNotConfiguredError('E-mail is not configured: an SMTP host and a sender address are needed');
  const mail = renderMail(
    {
      subject: 'Violet test e-mail',
      paragraphs: [`This is a test e-mail sent by ${principal.username} to check the e-mail settings. It arrived, so they work.`],
      link: { label: 'The e-mail settings', url: linkTo(services.config, 'system', 'email-config') },
    },
    null,
  );
  let result: TestEmailResult;
  const destination = { host: settings.smtpHost, port: settings.smtpPort, security: settings.smtpSecurity };
  try {
    const response = await deliver(settings, { to, ...mail }, services.config);
    services.log.info({ ...destination, response }, 'test e-mail delivered');
    result = { delivered: true, outcome: 'delivered', detail: describeOutcome('delivered'), to };
  } catch (error) {
    const outcome = failureOutcome(error);
    services.log.warn({ ...destination, outcome, detail: smtpErrorText(error) }, 'test e-mail not delivered');
    result = { delivered: false, outcome, detail: describeOutcome(outcome, error), to };
  }
  await inTransaction(services, principal, (uow) =>
    uow.audit({ action: 'send_test_email', entityType: 'email_config', details: { ...result } }),
  );
  return result;
}
