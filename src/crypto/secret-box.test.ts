import { describe, expect, it } from 'vitest';
import { SecretBox, SecretBoxError, SecretKeyring } from './secret-box.ts';

const SECRET = 'a service secret of at least thirty-two characters';
const box = SecretBox.derive(SECRET, 'email.smtp_password');

/** Replaces one character of a base64url part with another valid one. */
const flip = (part: string, at = 0) => part.slice(0, at) + (part[at] === 'A' ? 'B' : 'A') + part.slice(at + 1);

describe('secret box', () => {
  it('opens what it sealed, and seals the same text differently each time', () => {
    for (const text of ['hunter2', 'pässwörd ✓ with spaces', '', 'x'.repeat(2000)]) {
      const sealed = box.seal(text);
      expect(sealed).toMatch(/^v1\.[\w-]{16}\.[\w-]*\.[\w-]{22}$/);
      expect(sealed).not.toContain(text || '\u0000');
      expect(box.open(sealed)).toBe(text);
    }
    expect(box.seal('hunter2')).not.toBe(box.seal('hunter2'));
  });

  it('refuses a sealed value whose nonce, ciphertext or tag was altered', () => {
    const [version, iv, ciphertext, tag] = box.seal('hunter2').split('.');
    for (const altered of [
      [version, flip(iv), ciphertext, tag],
      [version, iv, flip(ciphertext), tag],
      [version, iv, ciphertext, flip(tag, 3)],
      [version, iv, `${ciphertext}AA`, tag],
      [version, iv, ciphertext.slice(0, -2), tag],
    ]) {
      expect(() => box.open(altered.join('.'))).toThrow(SecretBoxError);
    }
  });

  it('refuses what is not a sealed value at all', () => {
    for (const text of ['', 'hunter2', 'v1.', 'v1.a.b.c', 'v2.AAAAAAAAAAAAAAAA.AA.AAAAAAAAAAAAAAAAAAAAAA', 'v1.!!!.AA.AAAA']) {
      expect(() => box.open(text)).toThrow(SecretBoxError);
    }
  });

  it('refuses a value sealed under another service secret or for another purpose', () => {
    const sealed = box.seal('hunter2');
    expect(() => SecretBox.derive(`${SECRET}!`, 'email.smtp_password').open(sealed)).toThrow(SecretBoxError);
    expect(() => SecretBox.derive(SECRET, 'webhooks.secret').open(sealed)).toThrow(SecretBoxError);
    expect(SecretBox.derive(SECRET, 'email.smtp_password').open(sealed)).toBe('hunter2');
  });

  it('a keyring hands out one box per purpose, keyed by its service secret', () => {
    const keyring = new SecretKeyring(SECRET);
    expect(keyring.box('email.smtp_password')).toBe(keyring.box('email.smtp_password'));
    expect(keyring.box('email.smtp_password').open(box.seal('hunter2'))).toBe('hunter2');
    expect(() => new SecretKeyring('another secret').box('email.smtp_password').open(box.seal('hunter2'))).toThrow(SecretBoxError);
  });
});
