import { isIP } from 'node:net';
import type { Config } from '../../config.ts';
import { parseAllowList, SMTP_PORTS, type HostAllowList } from '../../net/allow-list.ts';
import { allowedAddresses, DestinationRefusedError } from '../../net/destinations.ts';
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
export interface SmtpError extends Error {
  code?: string;
  responseCode?: number;
}

export type SmtpGuardConfig = Pick<Config, 'SMTP_URL' | 'SMTP_ALLOWED_HOSTS'>;

/**
 * The SMTP servers that may be reached although not public: SMTP_ALLOWED_HOSTS (an entry without a port admits
 * 25, 465 and 587), and SMTP_URL's own host and port, which the operator named.
 */
export function smtpAllowList(config: SmtpGuardConfig): HostAllowList {
  const listed = parseAllowList(config.SMTP_ALLOWED_HOSTS, SMTP_PORTS);
  const deployment = config.SMTP_URL;
  return {
    allowsHost: (hostname, port) =>
      (deployment !== undefined && deployment.host.toLowerCase() === hostname.toLowerCase() && deployment.port === port) ||
      listed.allowsHost(hostname, port),
    allowsAddress: listed.allowsAddress,
  };
}

/**
 * Sends `mail` with the given settings over a connection of its own; resolves with the server's answer. The host
 * is resolved once and the connection goes to an address the outgoing guard admits (public, or listed for the
 * port); TLS still verifies the certificate against the host name. Without a password, no login is attempted.
 */
export async function deliver(settings: SmtpSettings, mail: OutgoingMail, guard: SmtpGuardConfig): Promise<string> {
  if (settings.smtpPassword === 'unreadable') throw new SmtpPasswordUnreadableError();
  const host = settings.smtpHost ?? '';
  const [target] = await allowedAddresses(host, settings.smtpPort, smtpAllowList(guard));
  const password = settings.smtpPassword;
  const { createTransport } = await import('nodemailer');
  const transport = createTransport({
    host: target.address,
    port: settings.smtpPort,
    ...(isIP(host) ? {} : { tls: { servername: host } }),
    secure: settings.smtpSecurity === 'tls',
    requireTLS: settings.smtpSecurity === 'starttls',
    ignoreTLS: settings.smtpSecurity === 'none',
    auth: settings.smtpUsername && password ? { user: settings.smtpUsername, pass: password } : undefined,
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
 * Whether retrying cannot help: the server refused this message or its recipient for good (5xx), the stored
 * password is unreadable, or the outgoing guard refused the host. Connection failures, time-outs and 4xx answers are worth another attempt.
 */
export function isPermanent(error: unknown): boolean {
  if (error instanceof SmtpPasswordUnreadableError || error instanceof DestinationRefusedError) return true;
  const { code, responseCode } = error as SmtpError;
  return (code === 'EENVELOPE' || code === 'EMESSAGE') && typeof responseCode === 'number' && responseCode >= 500;
}
