import { DestinationRefusedError } from '../../net/destinations.ts';
import { SmtpPasswordUnreadableError, type SmtpError } from './transport.ts';

/** What became of a test e-mail, as a stable code. */
export const TEST_EMAIL_OUTCOMES = [
  'delivered',
  'destination_refused',
  'connection_failed',
  'timed_out',
  'authentication_failed',
  'rejected',
  'password_unreadable',
] as const;
export type TestEmailOutcome = (typeof TEST_EMAIL_OUTCOMES)[number];

/** Violet's own words for each outcome: never the remote server's text, which may be anything but SMTP. */
const WORDS: Record<TestEmailOutcome, string> = {
  delivered: 'The SMTP server accepted the message',
  destination_refused: 'Not sent: the SMTP host is not a public address and not allowed on this port by SMTP_ALLOWED_HOSTS',
  connection_failed: 'Could not talk to the SMTP server (host not found, connection refused or closed, TLS failed, or not an SMTP server)',
  timed_out: 'The SMTP server did not answer in time',
  authentication_failed: 'The SMTP server refused the user name or password',
  rejected: 'The SMTP server rejected the message',
  password_unreadable: new SmtpPasswordUnreadableError().message,
};

/** The outcome of a failed send, from the error nodemailer or the outgoing guard threw. */
export function failureOutcome(error: unknown): TestEmailOutcome {
  if (error instanceof DestinationRefusedError) return 'destination_refused';
  if (error instanceof SmtpPasswordUnreadableError) return 'password_unreadable';
  const { code, responseCode } = error as SmtpError;
  if (code === 'EAUTH' || code === 'ENOAUTH') return 'authentication_failed';
  if (code === 'ETIMEDOUT') return 'timed_out';
  if ((code === 'EENVELOPE' || code === 'EMESSAGE') && typeof responseCode === 'number') return 'rejected';
  return 'connection_failed';
}

/** The outcome in words; a rejection names its SMTP status (a number, checked to be one). */
export function describeOutcome(outcome: TestEmailOutcome, error?: unknown): string {
  const status = (error as SmtpError | undefined)?.responseCode;
  const known = outcome === 'rejected' && Number.isInteger(status) && Number(status) >= 400 && Number(status) < 600;
  return known ? `${WORDS[outcome]} (SMTP ${status})` : WORDS[outcome];
}
