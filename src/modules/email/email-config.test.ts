import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from '../../../test/helpers/app.ts';
import { startSmtpServer, type TestSmtpServer } from '../../../test/helpers/smtp.ts';
import { SMTP_PASSWORD_PURPOSE } from './settings.ts';

const ENV_FROM = 'violet@deploy.example';
const ENV_PASSWORD = 'environment-pw-1';

let smtp: TestSmtpServer;
beforeAll(async () => {
  smtp = await startSmtpServer();
});
afterAll(() => smtp?.close());

// The deployment defaults name the test server, with a user and password in SMTP_URL.
const app = useTestApp(() => ({
  SMTP_URL: `smtp://env-user:${ENV_PASSWORD}@127.0.0.1:${smtp.port}?security=none`,
  EMAIL_FROM: ENV_FROM,
}));

const admin = async () => ({ token: await app.tokenFor('admin') });
const patch = async (body: unknown) => app.api('PATCH', '/system/email-config', { ...(await admin()), body });
const emailTest = async (body?: unknown, token?: string) =>
  app.api('POST', '/system/email-test', { token: token ?? (await admin()).token, body: body ?? {} });

/** An admin with an e-mail address, signed in. */
async function adminWithAddress(email: string) {
  const user = await app.createUser({ role: 'admin' });
  await app.services.prisma.user.update({ where: { id: user.id }, data: { email } });
  return { ...user, token: await app.login(user.username) };
}

const defaults = () => ({
  enabled: true,
  smtp_host: '127.0.0.1',
  smtp_port: smtp.port,
  smtp_security: 'none',
  smtp_username: 'env-user',
  smtp_password_set: true,
  from_address: ENV_FROM,
});

const storedRow = async () =>
  (await app.services.prisma.$queryRaw<Record<string, unknown>[]>`SELECT * FROM email_config`)[0] as Record<string, unknown> | undefined;

describe('e-mail settings', () => {
  it('with nothing stored, answers the deployment defaults from SMTP_URL and EMAIL_FROM, never a password', async () => {
    const config = await app.api('GET', '/system/email-config', await admin());
    expect(config.status).toBe(200);
    expect(config.body).toEqual({
      ...defaults(),
      configured: true,
      defaults: defaults(),
      updated_at: null,
      updated_by_id: null,
    });
    expect(JSON.stringify(config.body)).not.toContain(ENV_PASSWORD);
    expect(await storedRow()).toBeUndefined();
  });

  it('only admins read or change the settings or send a test e-mail', async () => {
    for (const role of ['red_lead', 'blue_lead', 'red_tech', 'blue_tech', 'viewer'] as const) {
      const token = await app.tokenFor(role);
      expect((await app.api('GET', '/system/email-config', { token })).status).toBe(403);
      expect((await app.api('PATCH', '/system/email-config', { token, body: { enabled: false } })).status).toBe(403);
      expect((await app.api('POST', '/system/email-test', { token, body: { to: 'x@example.com' } })).status).toBe(403);
    }
    expect((await app.api('GET', '/system/email-config')).status).toBe(401);
    const denied = await app.graphql('{ emailConfig { enabled } }', {}, await app.tokenFor('viewer'));
    expect(denied.errors?.[0].extensions?.code).toBe('FORBIDDEN');
    expect(smtp.received).toHaveLength(0);
    expect(await storedRow()).toBeUndefined();
  });

  it('refuses invalid settings with a 400 naming the field, and stores nothing', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ smtp_port: 0 }, 'smtp_port'],
      [{ smtp_port: 70000 }, 'smtp_port'],
      [{ smtp_port: 'twenty-five' }, 'smtp_port'],
      [{ smtp_port: 25.5 }, 'smtp_port'],
      [{ smtp_security: 'ssl' }, 'smtp_security'],
      [{ smtp_host: 'mail host' }, 'smtp_host'],
      [{ smtp_host: '' }, 'smtp_host'],
      [{ from_address: 'not an address' }, 'from_address'],
      [{ smtp_password: '' }, 'smtp_password'],
      [{ enabled: 'yes' }, 'enabled'],
      [{ smtp_pasword: 'typo' }, 'smtp_pasword'],
    ];
    for (const [body, field] of cases) {
      const response = await patch(body);
      expect(response, JSON.stringify(body)).toMatchObject({ status: 400, body: { code: 'VALIDATION_ERROR', field } });
      expect(response.body.detail).toMatch(new RegExp(`^${field}: `));
    }
    expect(await storedRow()).toBeUndefined();
  });

  it('stores settings over the defaults; the password is write-only, sealed in its row, and never audited', async () => {
    const password = 'stored smtp pw ✓';
    const changed = await patch({ smtp_username: 'stored-user', smtp_password: password, from_address: 'alerts@violet.example' });
    const expected = {
      ...defaults(),
      smtp_username: 'stored-user',
      smtp_password_set: true,
      from_address: 'alerts@violet.example',
      configured: true,
      defaults: defaults(),
      updated_at: expect.any(String),
      updated_by_id: expect.any(String),
    };
    expect(changed).toMatchObject({ status: 200, body: expected });
    expect(JSON.stringify(changed.body)).not.toContain('stored smtp pw');
    expect((await app.api('GET', '/system/email-config', await admin())).body).toEqual(changed.body);

    const row = (await storedRow())!;
    expect(row).toMatchObject({ smtp_username: 'stored-user', from_address: 'alerts@violet.example', smtp_host: null, enabled: null });
    expect(row.smtp_password_encrypted).toMatch(/^v1\./);
    expect(JSON.stringify(row)).not.toContain('stored smtp pw');
    expect(app.services.secrets.box(SMTP_PASSWORD_PURPOSE).open(String(row.smtp_password_encrypted))).toBe(password);

    const audit = await app.services.prisma.auditLog.findFirstOrThrow({
      where: { action: 'update_email_config' },
      orderBy: { timestamp: 'desc' },
    });
    expect(audit).toMatchObject({
      entityType: 'email_config',
      details: { changes: { smtpUsername: 'stored-user', smtpPassword: 'set', fromAddress: 'alerts@violet.example' } },
    });
    expect(JSON.stringify(audit)).not.toContain('stored smtp pw');
  });

  it('null returns a setting to its deployment default; every change is audited', async () => {
    const before = await app.services.prisma.auditLog.count({ where: { action: 'update_email_config' } });
    const reset = await patch({ smtp_username: null, smtp_password: null, from_address: null });
    expect(reset).toMatchObject({ status: 200, body: { ...defaults(), configured: true } });
    expect(await storedRow()).toMatchObject({ smtp_username: null, smtp_password_encrypted: null, from_address: null });
    // An empty PATCH changes nothing, and is audited all the same.
    expect(await patch({})).toMatchObject({ status: 200, body: defaults() });
    const audits = await app.services.prisma.auditLog.findMany({
      where: { action: 'update_email_config' },
      orderBy: { timestamp: 'asc' },
      skip: before,
    });
    expect(audits.map((audit) => audit.details)).toEqual([
      { changes: { smtpUsername: null, smtpPassword: 'cleared', fromAddress: null } },
      { changes: {} },
    ]);
  });

  it('GraphQL reads and writes the same settings', async () => {
    const { token } = await admin();
    const updated = await app.graphql(
      'mutation ($input: UpdateEmailConfigInput!) { updateEmailConfig(input: $input) { smtpUsername smtpPasswordSet fromAddress } }',
      { input: { smtpUsername: 'graph-user', fromAddress: 'graph@violet.example' } },
      token,
    );
    // Another user name without a password: SMTP_URL's password stays with SMTP_URL's user.
    expect(updated.data?.updateEmailConfig).toEqual({
      smtpUsername: 'graph-user',
      smtpPasswordSet: false,
      fromAddress: 'graph@violet.example',
    });
    const rest = await app.api('GET', '/system/email-config', { token });
    expect(rest.body).toMatchObject({ smtp_username: 'graph-user', from_address: 'graph@violet.example' });
    const read = await app.graphql('{ emailConfig { smtpUsername configured defaults { smtpUsername } } }', {}, token);
    expect(read.data?.emailConfig).toEqual({ smtpUsername: 'graph-user', configured: true, defaults: { smtpUsername: 'env-user' } });
    await patch({ smtp_username: null, from_address: null });
  });
});

describe('test e-mail', () => {
  it("is sent at once to the caller's address, with a text and an HTML part, and answers the server's acceptance", async () => {
    const caller = await adminWithAddress('ops-admin@violet.example');
    const sent = await emailTest(undefined, caller.token);
    expect(sent).toMatchObject({
      status: 200,
      body: { delivered: true, outcome: 'delivered', detail: 'The SMTP server accepted the message', to: 'ops-admin@violet.example' },
    });
    // Sent within the request: it has arrived when the answer comes.
    const [mail] = smtp.to('ops-admin@violet.example');
    expect(mail.envelopeFrom).toBe(ENV_FROM);
    expect(mail.headers.get('from')).toBe(`Violet <${ENV_FROM}>`);
    expect(mail.subject).toBe('Violet test e-mail');
    expect(mail.text).toContain(`sent by ${caller.username}`);
    expect(mail.html).toContain(`sent by ${caller.username}`);
    expect(mail.headers.get('content-type')).toMatch(/^multipart\/alternative/);
    const audit = await app.services.prisma.auditLog.findFirstOrThrow({
      where: { action: 'send_test_email' },
      orderBy: { timestamp: 'desc' },
    });
    expect(audit.details).toMatchObject({ to: 'ops-admin@violet.example', delivered: true });
  });

  it('goes to the given address; the server sees the configured user and password', async () => {
    const logins = smtp.logins.length;
    expect((await emailTest({ to: 'someone@elsewhere.example' })).body).toMatchObject({ delivered: true, to: 'someone@elsewhere.example' });
    expect(smtp.logins.slice(logins)).toEqual([{ username: 'env-user', password: ENV_PASSWORD }]);

    await patch({ smtp_username: 'mailer', smtp_password: 'mailer pw 2' });
    expect((await emailTest({ to: 'someone@elsewhere.example' })).body.delivered).toBe(true);
    expect(smtp.logins.slice(logins + 1)).toEqual([{ username: 'mailer', password: 'mailer pw 2' }]);
    expect(smtp.to('someone@elsewhere.example').map((mail) => mail.user)).toEqual(['env-user', 'mailer']);

    // An empty user name turns authentication off, although SMTP_URL names a user; SMTP_URL's password is for its user only.
    await patch({ smtp_username: '', smtp_password: null });
    expect((await app.api('GET', '/system/email-config', await admin())).body).toMatchObject({
      smtp_username: null,
      smtp_password_set: false,
    });
    expect((await emailTest({ to: 'someone@elsewhere.example' })).body.delivered).toBe(true);
    expect(smtp.logins).toHaveLength(logins + 2);
    await patch({ smtp_username: null });
  });

  it("answers delivered false in Violet's words when the server refuses or is down, never the server's text, never a 500", async () => {
    smtp.reject(550, 'Mailbox unavailable for policy reasons', 1);
    const refused = await emailTest({ to: 'refused@elsewhere.example' });
    expect(refused).toMatchObject({
      status: 200,
      body: {
        delivered: false,
        outcome: 'rejected',
        detail: 'The SMTP server rejected the message (SMTP 550)',
        to: 'refused@elsewhere.example',
      },
    });

    await smtp.stop();
    try {
      const down = await emailTest({ to: 'down@elsewhere.example' });
      expect(down).toMatchObject({ status: 200, body: { delivered: false, outcome: 'connection_failed' } });
      expect(down.body.detail).toMatch(/^Could not talk to the SMTP server/);
    } finally {
      await smtp.start();
    }
    expect(smtp.to('down@elsewhere.example')).toEqual([]);
    const audit = await app.services.prisma.auditLog.findFirstOrThrow({
      where: { action: 'send_test_email' },
      orderBy: { timestamp: 'desc' },
    });
    expect(audit.details).toMatchObject({ to: 'down@elsewhere.example', delivered: false });
  });

  it('needs an address: a caller without one must name `to`, and `to` must be an address', async () => {
    expect(await emailTest({})).toMatchObject({
      status: 400,
      body: { code: 'VALIDATION_ERROR', field: 'to', detail: 'to: is required: your account has no e-mail address' },
    });
    expect(await emailTest({ to: 'nobody' })).toMatchObject({ status: 400, body: { code: 'VALIDATION_ERROR', field: 'to' } });
  });

  it('is refused with 409 EMAIL_NOT_CONFIGURED while e-mail is disabled', async () => {
    expect(await patch({ enabled: false })).toMatchObject({ status: 200, body: { enabled: false, configured: true } });
    const refused = await emailTest({ to: 'someone@elsewhere.example' });
    expect(refused).toMatchObject({ status: 409, body: { code: 'EMAIL_NOT_CONFIGURED' } });
    expect(refused.body.detail).toMatch(/disabled/);
    const viaGraphql = await app.graphql(
      'mutation { sendTestEmail(to: "someone@elsewhere.example") { delivered } }',
      {},
      (await admin()).token,
    );
    expect(viaGraphql.errors?.[0].extensions?.code).toBe('EMAIL_NOT_CONFIGURED');
    expect(await patch({ enabled: null })).toMatchObject({ status: 200, body: { enabled: true } });
  });
});
