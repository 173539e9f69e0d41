import { randomUUID } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Roles, type Role } from '../../auth/roles.ts';
import { QueueName } from '../../jobs/types.ts';
import { useTestApp } from '../../../test/helpers/app.ts';
import { setSourceLocation } from '../../../test/helpers/data-sources.ts';
import { eventsSettled, eventually } from '../../../test/helpers/events.ts';
import { EMAIL_RETENTION_MS, sendEmail, sweepEmails } from './delivery.ts';
import { startSmtpServer, type ReceivedMail, type TestSmtpServer } from '../../../test/helpers/smtp.ts';
import { advance, campaign, createTest, notified, team, technique, type Member, type Team } from '../../../test/helpers/test-runs.ts';

const PUBLIC_URL = 'https://violet.example:8443';
const FROM = 'notices@violet.example';

let smtp: TestSmtpServer;
let dir: string;
beforeAll(async () => {
  smtp = await startSmtpServer();
  dir = await mkdtemp(join(tmpdir(), 'violet-email-'));
});
afterAll(async () => {
  await smtp?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

// No SMTP_URL: e-mail is configured through the API, as an admin would; the local server is allow-listed on its port.
const app = useTestApp(() => ({ PUBLIC_URL, SOURCE_SYNC_SCHEDULES: 'false', SMTP_ALLOWED_HOSTS: `127.0.0.1:${smtp.port}` }));

type Addressed = Member & { email: string };
let t: Record<Role, Addressed>;

const addressOf = (username: string) => `${username.replace(/_/g, '.')}@violet.example`;

/** A user with an address (unless `email: null`), signed in, with these preferences. */
async function member(role: Role, options: { email?: string | null; preferences?: object; isActive?: boolean } = {}): Promise<Addressed> {
  const user = await app.createUser({ role });
  const email = options.email === undefined ? addressOf(user.username) : options.email;
  await app.services.prisma.user.update({ where: { id: user.id }, data: { email, preferences: options.preferences ?? {} } });
  const token = await app.login(user.username);
  if (options.isActive === false) await app.services.prisma.user.update({ where: { id: user.id }, data: { isActive: false } });
  return { id: user.id, username: user.username, role, token, email: email ?? '' };
}

const patchConfig = async (body: unknown) => app.api('PATCH', '/system/email-config', { token: t.admin.token, body });

/** Waits until every committed event has been handed to its consumers and every queued e-mail has been sent or given up. */
async function mailSettled(): Promise<void> {
  await eventsSettled(app);
  await eventually(async () => {
    const pending = await app.services.jobs.pending(QueueName.email);
    if (pending) throw new Error(`${pending} e-mail jobs pending`);
  }, 20_000);
}

/** The addresses of the active leads (admins, red and blue leads) who have not turned this preference off, sorted. */
const leadAddresses = async (preference: string) =>
  (
    await app.services.prisma.user.findMany({
      where: { role: { in: [...Roles.leads] }, isActive: true, email: { not: null } },
      select: { email: true, preferences: true },
    })
  )
    .filter((user) => (user.preferences as Record<string, unknown> | null)?.[preference] !== false)
    .map((user) => user.email!)
    .sort();

/** Who received an e-mail whose text names `marker` (an id in its link), sorted. */
const recipientsOf = (marker: string) =>
  smtp.received
    .filter((mail) => mail.text.includes(marker))
    .flatMap((mail) => mail.envelopeTo)
    .sort();

const mailTo = (marker: string, email: string): ReceivedMail | undefined =>
  smtp.received.find((mail) => mail.text.includes(marker) && mail.envelopeTo.includes(email));

async function validatedTest(creator: Addressed, name = 'Encoded PowerShell', who: Team = t) {
  const { id: techniqueId } = await technique(app);
  const created = await createTest(app, creator, techniqueId, { name });
  await advance(app, { ...who, red_lead: creator }, created.id, 'validated');
  return created.id as string;
}

/** A campaign created by `creator` with one test whose execution started, activated, then completed: every answer 200. */
async function completedCampaign(creator: Addressed): Promise<string> {
  const row = await campaign(app, creator);
  const { id: techniqueId } = await technique(app);
  const test = await createTest(app, t.red_lead, techniqueId, { campaign_id: row.id });
  expect((await app.api('POST', `/tests/${test.id}/start-execution`, { token: t.red_tech.token })).status).toBe(200);
  expect((await app.api('POST', `/campaigns/${row.id}/activate`, { token: t.red_lead.token })).status).toBe(200);
  expect((await app.api('POST', `/campaigns/${row.id}/complete`, { token: t.admin.token })).status).toBe(200);
  return row.id;
}

beforeAll(async () => {
  const members = await team(app);
  t = {} as Record<Role, Addressed>;
  for (const [role, user] of Object.entries(members) as [Role, Member][]) {
    const email = addressOf(user.username);
    await app.services.prisma.user.update({ where: { id: user.id }, data: { email } });
    t[role] = { ...user, email };
  }
  const enabled = await patchConfig({
    enabled: true,
    smtp_host: '127.0.0.1',
    smtp_port: smtp.port,
    smtp_security: 'none',
    from_address: FROM,
  });
  expect(enabled).toMatchObject({ status: 200, body: { enabled: true, configured: true } });
});

describe('e-mail on a validated test', () => {
  it('goes to the test creator only, with a text and an HTML part, the escaped name and the link to the test', async () => {
    const name = 'Encoded <PowerShell> & "friends"';
    const id = await validatedTest(t.red_lead, name);
    await mailSettled();
    expect(recipientsOf(id)).toEqual([t.red_lead.email]);

    const mail = mailTo(id, t.red_lead.email)!;
    const link = `${PUBLIC_URL}/api/v1/tests/${id}`;
    expect(mail.envelopeFrom).toBe(FROM);
    expect(mail.headers.get('to')).toBe(t.red_lead.email);
    expect(mail.subject).toMatch(/^Test validated: Encoded <PowerShell> & "friends" \(T\d{4}\.\w+\)$/);
    expect(mail.headers.get('content-type')).toMatch(/^multipart\/alternative/);
    expect(mail.text).toContain(`Your test "${name}" of T`);
    expect(mail.text).toContain('Detection result: detected.');
    expect(mail.text).toContain(`The test: ${link}`);
    expect(mail.text).toContain('email_test_validated');
    expect(mail.html).toContain('Your test &quot;Encoded &lt;PowerShell&gt; &amp; &quot;friends&quot;&quot; of T');
    expect(mail.html).not.toContain('<PowerShell>');
    expect(mail.html).toContain(`<a href="${link}">The test</a>`);
  });

  it('is not sent to a creator whose email_test_validated preference is off; the in-app notice still is', async () => {
    const optedOut = await member('red_lead', { preferences: { email_test_validated: false } });
    const id = await validatedTest(optedOut);
    await mailSettled();
    expect(recipientsOf(id)).toEqual([]);
    expect(smtp.to(optedOut.email)).toEqual([]);
    expect(await notified(app, id, 'test_validated')).toEqual([optedOut.id]);
    // Out of the way of the lead-wide e-mails below.
    await app.services.prisma.user.update({ where: { id: optedOut.id }, data: { isActive: false } });
  });
});

describe('e-mail on a completed campaign', () => {
  it('goes to its creator and every active lead (admins too) with an address who wants it', async () => {
    const skipped = {
      inactive: await member('red_lead', { isActive: false }),
      noAddress: await member('blue_lead', { email: null }),
      optedOut: await member('blue_lead', { preferences: { email_campaign_completed: false } }),
    };
    const id = await completedCampaign(t.viewer);
    await mailSettled();
    expect(recipientsOf(id)).toEqual([t.viewer.email, ...(await leadAddresses('email_campaign_completed'))].sort());
    expect(recipientsOf(id)).toEqual(expect.arrayContaining([t.admin.email, t.red_lead.email, t.blue_lead.email]));
    for (const user of Object.values(skipped)) expect(mailTo(id, user.email)).toBeUndefined();

    const mail = mailTo(id, t.blue_lead.email)!;
    const name = (await app.services.prisma.campaign.findUniqueOrThrow({ where: { id } })).name;
    expect(mail.subject).toBe(`Campaign completed: ${name}`);
    expect(mail.text).toContain(`The campaign "${name}" is completed: 0 of 1 tests validated (0%).`);
    expect(mail.text).toContain(`The campaign: ${PUBLIC_URL}/api/v1/campaigns/${id}`);
    expect(mail.html).toContain(`<a href="${PUBLIC_URL}/api/v1/campaigns/${id}">The campaign</a>`);
    expect(mail.text).toContain('email_campaign_completed');
  });
});

describe('e-mail on new techniques found by a catalog sync', () => {
  const tactic = {
    type: 'x-mitre-tactic',
    id: 'x-mitre-tactic--1',
    name: 'Execution',
    x_mitre_shortname: 'execution',
    external_references: [{ source_name: 'mitre-attack', external_id: 'TA0002' }],
  };
  const pattern = (ttpId: string, name: string) => ({
    type: 'attack-pattern',
    id: `attack-pattern--${ttpId}`,
    name,
    modified: '2025-10-01T00:00:00.000Z',
    kill_chain_phases: [{ kill_chain_name: 'mitre-attack', phase_name: 'execution' }],
    external_references: [{ source_name: 'mitre-attack', external_id: ttpId, url: `https://attack.mitre.org/techniques/${ttpId}` }],
  });

  it('goes to every active lead and admin with an address who wants it, listing the new techniques with links', async () => {
    const optedOutAdmin = await member('admin', { preferences: { email_new_techniques: false } });
    // Opted out of campaign e-mails only: still told of new techniques.
    const campaignOptOut = await member('blue_lead', { preferences: { email_campaign_completed: false } });
    const bundle = join(dir, 'attack.json');
    await writeFile(
      bundle,
      JSON.stringify({
        type: 'bundle',
        id: 'bundle--1',
        objects: [
          { type: 'x-mitre-matrix', id: 'x-mitre-matrix--1', name: 'Enterprise', tactic_refs: [tactic.id] },
          tactic,
          pattern('T1677', 'Poisoned <Pipeline> & "Runner"'),
          pattern('T1678', 'Template Injection'),
          pattern('T1678.001', 'Template Injection: Workflow'),
        ],
      }),
    );
    await setSourceLocation(app, 'attack_enterprise', bundle);
    const sync = await app.api('POST', '/system/sync-ttp', { token: t.admin.token });
    expect(sync).toMatchObject({ status: 200, body: { new: 3 } });
    await mailSettled();

    const marker = `${PUBLIC_URL}/api/v1/techniques/T1677`;
    const leadsAndAdmins = await app.services.prisma.user.findMany({
      where: { role: { in: ['red_lead', 'blue_lead', 'admin'] }, isActive: true, email: { not: null }, id: { not: optedOutAdmin.id } },
      select: { email: true },
    });
    expect(recipientsOf(marker)).toEqual(leadsAndAdmins.map((user) => user.email).sort());
    expect(recipientsOf(marker)).toEqual(
      expect.arrayContaining([t.admin.email, t.red_lead.email, t.blue_lead.email, campaignOptOut.email]),
    );
    for (const user of [optedOutAdmin, t.red_tech, t.blue_tech, t.viewer]) expect(mailTo(marker, user.email)).toBeUndefined();

    const mail = mailTo(marker, t.red_lead.email)!;
    expect(mail.subject).toBe('ATT&CK catalog: 3 new techniques');
    expect(mail.text).toContain('The ATT&CK catalog sync added 3 new techniques.');
    expect(mail.text).toContain(`- T1677 Poisoned <Pipeline> & "Runner" <${PUBLIC_URL}/api/v1/techniques/T1677>`);
    expect(mail.text).toContain(`- T1678.001 Template Injection: Workflow <${PUBLIC_URL}/api/v1/techniques/T1678.001>`);
    expect(mail.text).toContain(`The technique catalog: ${PUBLIC_URL}/api/v1/techniques`);
    expect(mail.html).toContain(`<li><a href="${marker}">T1677 Poisoned &lt;Pipeline&gt; &amp; &quot;Runner&quot;</a></li>`);
    expect(mail.html).not.toContain('<Pipeline>');

    // A second sync of the same bundle adds nothing and mails nobody.
    const before = smtp.received.length;
    expect(await app.api('POST', '/system/sync-ttp', { token: t.admin.token })).toMatchObject({ status: 200, body: { new: 0 } });
    await mailSettled();
    expect(smtp.received).toHaveLength(before);
  });
});

describe('when mail fails', () => {
  it('a stopped SMTP server changes no API answer; the e-mails are retried and arrive once it is back', async () => {
    await smtp.stop();
    let testId: string;
    let campaignId: string;
    try {
      testId = await validatedTest(t.red_lead); // every step answers 200 (advance checks it)
      campaignId = await completedCampaign(t.red_lead);
      expect((await app.api('GET', `/tests/${testId}`, { token: t.red_lead.token })).body.state).toBe('validated');
      expect((await app.api('GET', '/system/email-config', { token: t.admin.token })).status).toBe(200);
      expect((await patchConfig({})).status).toBe(200);
      await eventsSettled(app);
      expect(await app.services.jobs.pending(QueueName.email)).toBeGreaterThan(0);
    } finally {
      await smtp.start();
    }
    await mailSettled();
    expect(recipientsOf(testId)).toEqual([t.red_lead.email]);
    expect(recipientsOf(campaignId)).toEqual(await leadAddresses('email_campaign_completed'));
  }, 60_000);

  it('a temporary refusal (4xx) is retried; a permanent one (5xx) is not', async () => {
    smtp.reject(451, 'Greylisted, try again later', 1);
    const retried = await validatedTest(t.red_lead);
    await mailSettled();
    expect(smtp.refused).toBe(1);
    expect(recipientsOf(retried)).toEqual([t.red_lead.email]);

    smtp.reject(550, 'No such user here');
    try {
      const refused = await validatedTest(t.red_lead);
      // Settled with nothing waiting: the refused e-mail was given up, not scheduled again.
      await mailSettled();
      expect(smtp.refused).toBe(2);
      expect(recipientsOf(refused)).toEqual([]);
    } finally {
      smtp.accept();
    }
  }, 60_000);

  it('while e-mail is disabled nothing is queued; it cannot be left enabled without a host', async () => {
    expect(await patchConfig({ enabled: false })).toMatchObject({ status: 200, body: { enabled: false } });
    const id = await validatedTest(t.red_lead);
    await mailSettled();
    expect(recipientsOf(id)).toEqual([]);

    expect(await patchConfig({ enabled: true, smtp_host: null })).toMatchObject({
      status: 400,
      body: {
        code: 'VALIDATION_ERROR',
        field: 'smtp_host',
        detail: 'smtp_host: is needed while e-mail is enabled (set it here or through SMTP_URL)',
      },
    });
    expect(await patchConfig({ enabled: true })).toMatchObject({ status: 200, body: { enabled: true, smtp_host: '127.0.0.1' } });
  });
});

describe('e-mail rows', () => {
  const pendingRow = (marker: string, nextAttemptAt = new Date()) =>
    app.services.prisma.emailDelivery.create({
      data: {
        notice: 'test_validated',
        eventId: randomUUID(),
        userId: t.red_lead.id,
        toAddress: t.red_lead.email,
        subject: 'Row',
        text: `row ${marker}`,
        html: '<p>row</p>',
        nextAttemptAt,
      },
    });
  const rowOf = (id: string) => app.services.prisma.emailDelivery.findUniqueOrThrow({ where: { id } });

  it('two attempts of one e-mail at once send it once; an e-mail already sent is not sent again', async () => {
    const marker = randomUUID();
    const { id } = await pendingRow(marker);
    expect((await Promise.all([sendEmail(app.services, id), sendEmail(app.services, id)])).sort()).toEqual(['sent', 'skipped']);
    expect(await sendEmail(app.services, id)).toBe('skipped');
    expect(recipientsOf(marker)).toEqual([t.red_lead.email]);
    expect(await rowOf(id)).toMatchObject({ status: 'sent', attempts: 1, lastError: null, leaseUntil: null, nextAttemptAt: null });
  });

  it('a permanent refusal ends the e-mail with the reason in Violet words', async () => {
    smtp.reject(550, 'No such user here (internal relay 10.1.2.3)', 1);
    const { id } = await pendingRow(randomUUID());
    expect(await sendEmail(app.services, id)).toBe('failed');
    const row = await rowOf(id);
    expect(row).toMatchObject({ status: 'failed', attempts: 1, lastError: 'The SMTP server rejected the message (SMTP 550)' });
    expect(row.completedAt).not.toBeNull();
  });

  it('the sweep queues a pending e-mail whose job was lost and deletes e-mails finished before the retention', async () => {
    const marker = randomUUID();
    const lost = await pendingRow(marker, new Date(Date.now() - 60_000));
    const old = await pendingRow(randomUUID());
    const finished = new Date(Date.now() - EMAIL_RETENTION_MS - 60_000);
    await app.services.prisma.emailDelivery.update({ where: { id: old.id }, data: { status: 'sent', completedAt: finished } });
    expect(await sweepEmails(app.services)).toMatchObject({ queued: 1, purged: 1 });
    await mailSettled();
    expect(recipientsOf(marker)).toEqual([t.red_lead.email]);
    expect((await rowOf(lost.id)).status).toBe('sent');
    expect(await app.services.prisma.emailDelivery.findUnique({ where: { id: old.id } })).toBeNull();
  });
});
