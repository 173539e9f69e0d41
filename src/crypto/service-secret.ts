import { randomBytes } from 'node:crypto';
import { chmod, mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';

const SECRET_FILE = 'jwt-secret';

/**
 * The service secret: JWT_SECRET when configured, otherwise a random secret generated once and kept in
 * `DATA_DIR/jwt-secret` (then every process must share DATA_DIR). Session tokens are signed with it and the keys
 * of stored secrets are derived from it, so changing it ends every session and makes stored secrets unreadable.
 */
export async function serviceSecret(configured: string | undefined, dataDir: string): Promise<string> {
  return configured ?? (await persistedSecret(resolve(dataDir, SECRET_FILE)));
}

async function persistedSecret(file: string): Promise<string> {
  try {
    return (await readFile(file, 'utf8')).trim();
  } catch {
    const secret = randomBytes(48).toString('base64url');
    await mkdir(dirname(file), { recursive: true });
    // 'wx' fails if another process won the race; then read its secret.
    await writeFile(file, secret, { mode: 0o600, flag: 'wx' }).catch(() => undefined);
    await chmod(file, 0o600).catch(() => undefined);
    return (await readFile(file, 'utf8')).trim();
  }
}
