import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';

const ALGORITHM = 'aes-256-gcm';
const VERSION = 'v1';
const IV_BYTES = 12;
const TAG_BYTES = 16;
const KEY_BYTES = 32;
const HKDF_SALT = 'violet';
const BASE64URL = /^[A-Za-z0-9_-]*$/;

/** A sealed value could not be opened: altered, sealed under another key or purpose, or not a sealed value at all. */
export class SecretBoxError extends Error {
  constructor() {
    super('The stored secret cannot be decrypted: it was altered or sealed with another key');
  }
}

/**
 * Encrypts small secrets kept in the database (AES-256-GCM) under a key derived from the service secret with
 * HKDF-SHA256, one key per purpose. The purpose is also authenticated data, so a value sealed for one column
 * cannot be moved to another. Sealed form: `v1.<iv>.<ciphertext>.<tag>`, each part base64url.
 */
export class SecretBox {
  private constructor(
    private readonly key: Buffer,
    private readonly purpose: string,
  ) {}

  static derive(serviceSecret: string, purpose: string): SecretBox {
    if (!serviceSecret) throw new Error('A secret box needs a non-empty service secret');
    const key = Buffer.from(hkdfSync('sha256', serviceSecret, HKDF_SALT, `stored-secret:${purpose}`, KEY_BYTES));
    return new SecretBox(key, purpose);
  }

  seal(plaintext: string): string {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv(ALGORITHM, this.key, iv, { authTagLength: TAG_BYTES });
    cipher.setAAD(Buffer.from(this.purpose));
    const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
    return [VERSION, iv, ciphertext, cipher.getAuthTag()]
      .map((part) => (typeof part === 'string' ? part : part.toString('base64url')))
      .join('.');
  }

  /** The plaintext of a value this box sealed; throws SecretBoxError for anything else. */
  open(sealed: string): string {
    const parts = sealed.split('.');
    if (parts.length !== 4 || parts[0] !== VERSION || !parts.slice(1).every((part) => BASE64URL.test(part))) throw new SecretBoxError();
    const [iv, ciphertext, tag] = parts.slice(1).map((part) => Buffer.from(part, 'base64url'));
    if (iv.length !== IV_BYTES || tag.length !== TAG_BYTES) throw new SecretBoxError();
    try {
      const decipher = createDecipheriv(ALGORITHM, this.key, iv, { authTagLength: TAG_BYTES });
      decipher.setAAD(Buffer.from(this.purpose));
      decipher.setAuthTag(tag);
      return Buffer.concat([decipher.update(ciphertext), decipher.final()]).toString('utf8');
    } catch {
      throw new SecretBoxError();
    }
  }
}

/** Hands out the secret box of each purpose, holding the service secret so nothing else needs to. */
export class SecretKeyring {
  private readonly boxes = new Map<string, SecretBox>();

  constructor(private readonly serviceSecret: string) {}

  box(purpose: string): SecretBox {
    let box = this.boxes.get(purpose);
    if (!box) this.boxes.set(purpose, (box = SecretBox.derive(this.serviceSecret, purpose)));
    return box;
  }
}
