import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { SecretBox } from './secret-box.ts';

describe('SecretBox', () => {
  const box = new SecretBox(randomBytes(32));

  it('opens what it sealed, and seals the same text differently each time', () => {
    const sealed = box.seal('whsec_c2VjcmV0 – ünïcode');
    expect(sealed).toMatch(/^v1\.[A-Za-z0-9_-]+$/);
    expect(sealed).not.toContain('whsec');
    expect(box.open(sealed)).toBe('whsec_c2VjcmV0 – ünïcode');
    expect(box.seal('same')).not.toBe(box.seal('same'));
  });

  it('refuses a value sealed with another key', () => {
    expect(() => new SecretBox(randomBytes(32)).open(box.seal('secret'))).toThrow();
  });

  it('refuses an altered value and anything that is not sealed', () => {
    const sealed = box.seal('secret');
    const bytes = Buffer.from(sealed.slice(3), 'base64url');
    bytes[bytes.length - 1] ^= 1;
    expect(() => box.open(`v1.${bytes.toString('base64url')}`)).toThrow();
    for (const value of ['', 'secret', 'v2.AAAA', 'v1.', 'v1.AAAA']) expect(() => box.open(value)).toThrow();
  });

  it('needs a 32-byte key', () => {
    expect(() => new SecretBox(randomBytes(16))).toThrow();
  });
});
