import { once } from 'node:events';
import { createServer, type AddressInfo, type Server } from 'node:net';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from '../../../test/helpers/app.ts';
import { startSmtpServer, type TestSmtpServer } from '../../../test/helpers/smtp.ts';
import { sendEmail } from './delivery.ts';

const ENV_PASSWORD = 'environment-pw-7';
const BANNER = 'SSH-2.0-OpenSSH_9.6 build-7f3a internal';

/** The deployment's server (SMTP_URL), another server an admin may switch to, and a non-SMTP service that talks first. */
let deployment: TestSmtpServer;
let other: TestSmtpServer;
let banner: Server;
const bannerPort = () => (banner.address() as AddressInfo).port;
beforeAll(async () => {
  deployment = await startSmtpServer();
  other = await startSmtpServer();
  banner = createServer((socket) => socket.end(`${BANNER}\r\n`));
  banner.listen(0, '127.0.0.1');
  await once(banner, 'listening');
});
afterAll(async () => {
  await Promise.all([deployment?.close(), other?.close(), new Promise((resolve) => banner?.close(resolve))]);
});

// 127.0.0.1 on the SMTP ports (25, 465, 587), the other server's port and the banner's; SMTP_URL's own is implied.
const app = useTestApp(() => ({
  SMTP_URL: `smtp://env-user:${ENV_PASSWORD}@127.0.0.1:${deployment.port}?security=none`,
  SMTP_ALLOWED_HOSTS: `127.0.0.1, 127.0.0.1:${other.port}, 127.0.0.1:${bannerPort()}`,
  EMAIL_FROM: 'violet@deploy.example',
}));

const admin = async () => ({ token: await app.tokenFor('admin') });
const patch = async (body: unknown) => app.api('PATCH', '/system/email-config', { ...(await admin()), body });
const read = async () => (await app.api('GET', '/system/email-config', await admin())).body;
const emailTest = async (to: string) => app.api('POST', '/system/email-test', { ...(await admin()), body: { to } });
const back = () => patch({ smtp_host: null, smtp_port: null, smtp_security: null, smtp_username: null, smtp_password: null });
const sealedPassword = async () => (await app.services.prisma.emailConfig.findUnique({ where: { id: 1 } }))?.smtpPasswordEncrypted ?? null;

describe('a stored SMTP password is bound to its destination', () => {
  it('changing host, port, security or user without a password drops it; giving one keeps it', async () => {
    const moves: Record<string, unknown>[] = [
      { smtp_host: 'localhost' },
      { smtp_port: 2525 },
      { smtp_security: 'starttls' },
      { smtp_username: 'someone-else' },
    ];
    for (const move of moves) {
      const label = JSON.stringify(move);
      expect((await patch({ smtp_username: 'bound-user', smtp_password: 'bound pw 1' })).body, label).toMatchObject({
        smtp_password_set: true,
      });
      const moved = await patch(move);
      expect(moved, label).toMatchObject({ status: 200, body: { ...move, smtp_password_set: false } });
      expect(await sealedPassword(), label).toBeNull();
      const audit = await app.services.prisma.auditLog.findFirstOrThrow({
        where: { action: 'update_email_config' },
        orderBy: { timestamp: 'desc' },
      });
      expect(audit.details, label).toEqual({ changes: camel(move), smtpPassword: 'cleared: the destination changed' });

      const given = await patch({ smtp_username: 'bound-user', smtp_password: 'bound pw 2', ...move });
      expect(given.body, label).toMatchObject({ smtp_password_set: true });
      await back();
    }
    // A change of anything else (the sender) keeps it.
    await patch({ smtp_username: 'bound-user', smtp_password: 'bound pw 3' });
    expect((await patch({ from_address: 'alerts@violet.example' })).body).toMatchObject({ smtp_password_set: true });
    await patch({ from_address: null });
    await back();
  });

  it('a test e-mail to a new host carries no password: the other server sees no AUTH, the right one still does', async () => {
    await patch({ smtp_username: 'bound-user', smtp_password: 'bound pw 4' });
    expect((await emailTest('first@elsewhere.example')).body).toMatchObject({ delivered: true, outcome: 'delivered' });
    expect(deployment.logins.at(-1)).toEqual({ username: 'bound-user', password: 'bound pw 4' });

    // The attack: point the settings at another server, in clear, keeping the stored user and password.
    expect((await patch({ smtp_port: other.port, smtp_security: 'none' })).body).toMatchObject({ smtp_password_set: false });
    expect((await emailTest('moved@elsewhere.example')).body).toMatchObject({ delivered: true, outcome: 'delivered' });
    expect(other.to('moved@elsewhere.example')).toHaveLength(1);
    expect(other.logins).toEqual([]);
    expect(other.to('moved@elsewhere.example')[0].user).toBeNull();
    await back();
  });

  it("SMTP_URL's password goes only to SMTP_URL's own host, port, security and user", async () => {
    expect(await read()).toMatchObject({ smtp_password_set: true, smtp_username: 'env-user' });
    expect((await patch({ smtp_port: other.port })).body).toMatchObject({ smtp_username: 'env-user', smtp_password_set: false });
    expect((await emailTest('env-moved@elsewhere.example')).body).toMatchObject({ delivered: true });
    expect(other.logins).toEqual([]);
    // Back on SMTP_URL's server, its password applies again.
    expect((await patch({ smtp_port: null })).body).toMatchObject({ smtp_password_set: true });
    const logins = deployment.logins.length;
    expect((await emailTest('env-back@elsewhere.example')).body).toMatchObject({ delivered: true });
    expect(deployment.logins.slice(logins)).toEqual([{ username: 'env-user', password: ENV_PASSWORD }]);
    await back();
  });
});

describe('the test e-mail goes through the outgoing guard and answers in its own words', () => {
  it.each([
    ['169.254.169.254', 25, 'the cloud metadata address'],
    ['10.0.0.1', 587, 'a private address'],
    ['[::1]', 25, 'IPv6 loopback'],
    ['127.0.0.1', 6379, 'Redis on a listed host: a bare entry admits 25, 465 and 587 only'],
    ['127.0.0.1', 5432, 'PostgreSQL likewise'],
  ])('refuses %s port %i (%s) without connecting', async (host, port) => {
    expect((await patch({ smtp_host: host.replace(/^\[|\]$/g, ''), smtp_port: port })).status).toBe(200);
    const sent = await emailTest('scan@elsewhere.example');
    expect(sent).toMatchObject({
      status: 200,
      body: {
        delivered: false,
        outcome: 'destination_refused',
        detail: 'Not sent: the SMTP host is not a public address and not allowed on this port by SMTP_ALLOWED_HOSTS',
      },
    });
    await back();
  });

  it("never echoes what the remote end says: a service that is not SMTP is 'connection_failed', its banner only logged", async () => {
    await patch({ smtp_port: bannerPort() });
    const sent = await emailTest('banner@elsewhere.example');
    expect(sent).toMatchObject({ status: 200, body: { delivered: false, outcome: 'connection_failed' } });
    expect(sent.body.detail).toMatch(/^Could not talk to the SMTP server/);
    expect(JSON.stringify(sent.body)).not.toContain('OpenSSH');
    const audit = await app.services.prisma.auditLog.findFirstOrThrow({
      where: { action: 'send_test_email' },
      orderBy: { timestamp: 'desc' },
    });
    expect(audit.details).toMatchObject({ outcome: 'connection_failed', delivered: false });
    expect(JSON.stringify(audit.details)).not.toContain('OpenSSH');
    await back();
  });

  it('a listed host and port is reached; notification e-mails meet the same guard and are not retried when refused', async () => {
    await patch({ smtp_port: other.port });
    expect((await emailTest('listed@elsewhere.example')).body).toMatchObject({ delivered: true, outcome: 'delivered' });
    expect(other.to('listed@elsewhere.example')).toHaveLength(1);

    await patch({ smtp_port: 6379 });
    const user = await app.createUser({ role: 'red_lead' });
    const { id } = await app.services.prisma.emailDelivery.create({
      data: {
        notice: 'n',
        eventId: randomUUID(),
        userId: user.id,
        toAddress: 'job@elsewhere.example',
        subject: 'S',
        text: 'T',
        html: '<p>T</p>',
        nextAttemptAt: new Date(),
      },
    });
    expect(await sendEmail(app.services, id)).toBe('failed');
    expect(await app.services.prisma.emailDelivery.findUniqueOrThrow({ where: { id } })).toMatchObject({
      status: 'failed',
      attempts: 1,
      lastError: 'Not sent: the SMTP host is not a public address and not allowed on this port by SMTP_ALLOWED_HOSTS',
      nextAttemptAt: null,
    });
    expect(await sendEmail(app.services, id)).toBe('skipped');
    await back();
  });
});

/** The audit entry records the change as given, in the service's camelCase. */
function camel(change: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(change).map(([key, value]) => [key.replace(/_(.)/g, (_m, c: string) => c.toUpperCase()), value]),
  );
}
