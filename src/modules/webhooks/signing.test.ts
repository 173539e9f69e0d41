import { Webhook } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import { isWellFormedSecret, signedHeaders, signingKey } from './signing.ts';

const body = JSON.stringify({ type: 'webhook.test', timestamp: '2026-11-25T10:00:00.000Z', data: { message: 'é' } });

describe('Standard Webhooks signing', () => {
  it('verifies with the standardwebhooks library for a whsec_ secret (its decoded bytes are the key)', () => {
    const secret = `whsec_${Buffer.from('0123456789abcdef0123456789abcdef').toString('base64')}`;
    const now = Math.floor(Date.now() / 1000);
    const headers = signedHeaders('3f1c6a3e-0d8e-4c1e-9c9f-8a6c2f1d0b7a', now, body, secret);
    expect(new Webhook(secret).verify(body, { ...headers })).toEqual(JSON.parse(body));
    expect(signingKey(secret).toString()).toBe('0123456789abcdef0123456789abcdef');
  });

  it('uses the UTF-8 bytes of any other secret, which the library verifies in raw format', () => {
    const secret = 'a plain shared secret ✓';
    const now = Math.floor(Date.now() / 1000);
    const headers = signedHeaders('msg-1', now, body, secret);
    expect(new Webhook(Buffer.from(secret, 'utf8'), { format: 'raw' }).verify(body, { ...headers })).toEqual(JSON.parse(body));
  });

  it('refuses a changed body, id or timestamp, and signs nothing without a secret', () => {
    const secret = 'shared';
    const now = Math.floor(Date.now() / 1000);
    const headers = signedHeaders('msg-1', now, body, secret);
    const verifier = new Webhook(Buffer.from(secret), { format: 'raw' });
    expect(() => verifier.verify(`${body} `, { ...headers })).toThrow();
    expect(() => verifier.verify(body, { ...headers, 'webhook-id': 'msg-2' })).toThrow();
    expect(() => verifier.verify(body, { ...headers, 'webhook-timestamp': String(now + 1) })).toThrow();
    expect(signedHeaders('msg-1', now, body, null)).toEqual({ 'webhook-id': 'msg-1', 'webhook-timestamp': String(now) });
  });

  it('knows a malformed whsec_ secret', () => {
    expect(isWellFormedSecret('whsec_AAAA')).toBe(true);
    expect(isWellFormedSecret('whsec_not base64!')).toBe(false);
    expect(isWellFormedSecret('anything else')).toBe(true);
  });
});
