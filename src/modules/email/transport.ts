import { createTransport } from 'nodemailer';
import type { SmtpSettings } from './settings.ts';

/** Seconds count twice here: a test e-mail is sent while an admin's request waits, and a job must not hang. */
export const SMTP_TIMEOUTS_MS = { connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 30_000 } as const;
/** The sender's display name. */
export const SENDER_NAME = 'Violet';
const MAX_DETAIL = 500;

/** One rendered e-mail to one address. */
export interface OutgoingMail {
  to: string;
  subject: string;
  text: string;
  html: string;
}

/** The stored SMTP password cannot be decrypted (the service secret changed): only setting it again helps. */
export class SmtpPasswordUnreadableError extends Error {
  constructor() {
    super('The stored SMTP password cannot be decrypted (was the service secret changed?); set smtp_password again');
  }
}

/** nodemailer's errors carry the SMTP server's answer. */
interface SmtpError extends Error {
  code?: string;
  responseCode?: number;
}

/** Sends `mail` with the given settings over a connection of its own; resolves with the server's answer. */
export async function deliver(settings: SmtpSettings, mail: OutgoingMail): Promise<string> {
  if (settings.smtpPassword === 'unreadable') throw new SmtpPasswordUnreadableError();
  const transport = createTransport({
    host: settings.smtpHost ?? undefined,
    port: settings.smtpPort,
    secure: settings.smtpSecurity === 'tls',
    requireTLS: settings.smtpSecurity === 'starttls',
    ignoreTLS: settings.smtpSecurity === 'none',
    auth: settings.smtpUsername ? { user: settings.smtpUsername, pass: settings.smtpPassword ?? '' } : undefined,
    ...SMTP_TIMEOUTS_MS,
    // Rendered messages only: never let content make the transport read files or fetch URLs.
    disableFileAccess: true,
    disableUrlAccess: true,
  });
  try {
    const info = await transport.sendMail({
      from: { name: SENDER_NAME, address: settings.fromAddress ?? '' },
      to: mail.to,
      subject: mail.subject,
      text: mail.text,
      html: mail.html,
    });
    return String(info.response ?? 'accepted');
  } finally {
    transport.close();
  }
}

/** What went wrong, in the SMTP server's or the network's words (for admins and the log). */
export function smtpErrorText(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  return text.length > MAX_DETAIL ? `${text.slice(0, MAX_DETAIL - 1)}…` : text;
}

/**
 * Whether retrying cannot help: the server refused this message or its recipient for good (5xx), or the stored
 * password is unreadable. Connection failures, time-outs and 4xx answers are worth another attempt.
 */
export function isPermanent(error: unknown): boolean {
  if (error instanceof SmtpPasswordUnreadableError) return true;
  const { code, responseCode } = error as SmtpError;
  return (code === 'EENVELOPE' || code === 'EMESSAGE') && typeof responseCode === 'number' && responseCode >= 500;
}
