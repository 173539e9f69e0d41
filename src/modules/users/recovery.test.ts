import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../../test/helpers/app.ts';

const run = promisify(execFile);
// Sessions remembered long enough that only the command's announcement can end one during the test.
const app = useTestApp({ SESSION_CACHE: '60s' });

/** Runs the operator's command the way the README says, against the test app's database and Redis. */
async function resetPassword(username: string) {
  const { DATABASE_URL, REDIS_URL, REDIS_PREFIX } = app.services.config;
  const env = { ...process.env, DATABASE_URL, REDIS_URL, REDIS_PREFIX, LOG_LEVEL: 'warn' };
  return run('npx', ['tsx', 'scripts/reset-password.ts', username], { env }).then(
    ({ stdout }) => ({ code: 0, stdout, stderr: '' }),
    (error: { code: number; stdout: string; stderr: string }) => error,
  );
}

describe('users: recovering a lost admin password from the command line', () => {
  it('gives a temporary password that must be changed, ends earlier sessions and is audited', async () => {
    const admin = await app.createUser({ role: 'admin' });
    const oldSession = await app.login(admin.username, admin.password);
    expect((await app.api('GET', '/users/me', { token: oldSession })).status).toBe(200);

    const { code, stdout } = await resetPassword(admin.username.toUpperCase());
    expect(code).toBe(0);
    const temporary = /New temporary password for [^:]+: (\S+)/.exec(stdout)?.[1];
    expect(temporary).toBeTruthy();

    expect(stdout).toContain('Earlier sessions have ended.');
    // Announced through Redis: the running service refuses the old session at once.
    expect((await app.api('GET', '/users/me', { token: oldSession })).body).toMatchObject({ code: 'NOT_AUTHENTICATED' });
    const fresh = await app.login(admin.username, temporary);
    expect(await app.api('GET', '/users/me', { token: fresh })).toMatchObject({ status: 403, body: { code: 'PASSWORD_CHANGE_REQUIRED' } });
    const audit = await app.services.prisma.auditLog.findFirst({ where: { action: 'reset_password', entityId: admin.id } });
    expect(audit).toMatchObject({ username: 'system', details: { username: admin.username, via: 'command line' } });
    expect(JSON.stringify(audit)).not.toContain(temporary);
  });

  it('refuses an unknown user and an account of the identity provider, changing nothing', async () => {
    expect(await resetPassword('nobody-here')).toMatchObject({ code: 1, stderr: expect.stringContaining('No user named nobody-here') });
    const sso = await app.createUser({ role: 'viewer' });
    await app.services.prisma.user.update({ where: { id: sso.id }, data: { authSource: 'saml', passwordHash: null } });
    expect(await resetPassword(sso.username)).toMatchObject({ code: 1, stderr: expect.stringContaining('single sign-on') });
    expect(await app.services.prisma.user.findUnique({ where: { id: sso.id } })).toMatchObject({ passwordHash: null });
  });
});
