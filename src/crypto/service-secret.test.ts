import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { SecretBox } from './secret-box.ts';
import { serviceSecret } from './service-secret.ts';

const dirs: string[] = [];
const scratch = async () => {
  const dir = await mkdtemp(join(tmpdir(), 'violet-secret-'));
  dirs.push(dir);
  return dir;
};
afterAll(() => Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true }))));

describe('service secret', () => {
  it('is JWT_SECRET when configured, and nothing is written', async () => {
    const dir = await scratch();
    expect(await serviceSecret('configured secret of thirty-two characters', dir)).toBe('configured secret of thirty-two characters');
    await expect(stat(join(dir, 'jwt-secret'))).rejects.toThrow();
  });

  it('without JWT_SECRET, is generated once and kept in DATA_DIR (owner-only), so stored secrets stay readable after a restart', async () => {
    const dir = await scratch();
    const first = await serviceSecret(undefined, dir);
    expect(first.length).toBeGreaterThanOrEqual(32);
    expect(await readFile(join(dir, 'jwt-secret'), 'utf8')).toBe(first);
    expect((await stat(join(dir, 'jwt-secret'))).mode & 0o777).toBe(0o600);
    const sealed = SecretBox.derive(first, 'email_config.smtp_password').seal('pw');
    const again = await serviceSecret(undefined, dir);
    expect(again).toBe(first);
    expect(SecretBox.derive(again, 'email_config.smtp_password').open(sealed)).toBe('pw');
    expect(await serviceSecret(undefined, await scratch())).not.toBe(first);
  });
});
