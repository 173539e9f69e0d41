import { createHmac } from 'node:crypto';
import type { Services } from '../../services.ts';

const WHSEC_PREFIX = 'whsec_';

/**
 * The HMAC key of a secret, as the Standard Webhooks libraries read it: the decoded bytes of a
 * `whsec_<base64>` secret, the UTF-8 bytes of any other.
 */
export function signingKey(secret: string): Buffer {
  if (secret.startsWith(WHSEC_PREFIX)) {
    const encoded = secret.slice(WHSEC_PREFIX.length);
    if (/^[A-Za-z0-9+/]+={0,2}$/.test(encoded)) return Buffer.from(encoded, 'base64');
  }
  return Buffer.from(secret, 'utf8');
}

/** Whether a `whsec_` secret is well formed (other secrets are taken as they are). */
export const isWellFormedSecret = (secret: string) =>
  !secret.startsWith(WHSEC_PREFIX) || /^[A-Za-z0-9+/]+={0,2}$/.test(secret.slice(WHSEC_PREFIX.length));

export interface SignedHeaders {
  'webhook-id': string;
  'webhook-timestamp': string;
  'webhook-signature'?: string;
}

/**
 * The Standard Webhooks headers of one attempt: `webhook-signature` is `v1,<base64 HMAC-SHA256 of
 * "id.timestamp.body">`; without a secret the message goes unsigned.
 */
export function signedHeaders(id: string, timestampSeconds: number, body: string, secret: string | null): SignedHeaders {
  const timestamp = String(timestampSeconds);
  if (secret === null) return { 'webhook-id': id, 'webhook-timestamp': timestamp };
  const signature = createHmac('sha256', signingKey(secret)).update(`${id}.${timestamp}.${body}`).digest('base64');
  return { 'webhook-id': id, 'webhook-timestamp': timestamp, 'webhook-signature': `v1,${signature}` };
}

/** The box that seals webhook secrets for storage (a key of their own, derived from the service secret). */
export const webhookSecrets = (services: Pick<Services, 'secrets'>) => services.secrets.box('webhook-secret');
