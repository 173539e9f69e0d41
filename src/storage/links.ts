import { createHmac, hkdfSync, randomBytes, timingSafeEqual } from 'node:crypto';
import { chmod, mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';

const KEY_FILE = 'download-link-key';
const SIGNATURE = /^[A-Za-z0-9_-]{43}$/;
const EXPIRES = /^\d{1,12}$/;

export type LinkCheck = 'valid' | 'expired' | 'invalid';

/**
 * Signs download links the service answers itself (the disk driver): HMAC-SHA256 over the evidence id and
 * the expiry, with a key derived from JWT_SECRET, or kept in DATA_DIR when no JWT_SECRET is configured.
 */
export class LinkSigner {
  private constructor(private readonly key: Buffer) {}

  static async create(jwtSecret: string | undefined, dataDir: string): Promise<LinkSigner> {
    if (jwtSecret) return new LinkSigner(Buffer.from(hkdfSync('sha256', jwtSecret, 'violet', 'evidence-download-links', 32)));
    return new LinkSigner(await persistedKey(resolve(dataDir, KEY_FILE)));
  }

  /** The signature of a link to `evidenceId` that expires at `expires` (Unix seconds), base64url. */
  sign(evidenceId: string, expires: number): string {
    return createHmac('sha256', this.key).update(`${evidenceId}\n${expires}`).digest('base64url');
  }

  /** Whether the parameters have the shape of a signed link at all (otherwise the request is malformed). */
  static wellFormed(expires: unknown, signature: unknown): expires is string {
    return typeof expires === 'string' && EXPIRES.test(expires) && typeof signature === 'string' && SIGNATURE.test(signature);
  }

  check(evidenceId: string, expires: string, signature: string, now = Date.now()): LinkCheck {
    const expected = Buffer.from(this.sign(evidenceId, Number(expires)));
    const given = Buffer.from(signature);
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return 'invalid';
    return Number(expires) * 1000 < now ? 'expired' : 'valid';
  }
}

async function persistedKey(file: string): Promise<Buffer> {
  try {
    return Buffer.from((await readFile(file, 'utf8')).trim(), 'base64url');
  } catch {
    await mkdir(dirname(file), { recursive: true });
    // 'wx' fails when another process created the key first; then its key is read back.
    await writeFile(file, randomBytes(32).toString('base64url'), { mode: 0o600, flag: 'wx' }).catch(() => undefined);
    await chmod(file, 0o600).catch(() => undefined);
    return Buffer.from((await readFile(file, 'utf8')).trim(), 'base64url');
  }
}
