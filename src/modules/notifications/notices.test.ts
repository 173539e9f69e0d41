import { randomUUID } from 'node:crypto';
import type { EventEmitter } from 'node:events';
import { readFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { createClient } from 'graphql-ws';
import WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Roles, type Role } from '../../auth/roles.ts';
import { inTransaction, SYSTEM_ACTOR } from '../../db/unit-of-work.ts';
import type { DomainEventType, EventOf } from '../../events/types.ts';
import { useTestApp } from '../../../test/helpers/app.ts';
import { eventsSettled } from '../../../test/helpers/events.ts';
import { startSmtpServer, type TestSmtpServer } from '../../../test/helpers/smtp.ts';
import { activeUserIds, campaign, createTest, team, technique, type Team } from '../../../test/helpers/test-runs.ts';
import { channelsOf, NOTICES, type NoticeKey } from './notices.ts';
import { noticeDocs } from './notices-doc.ts';
import { togglesOf } from './preferences.ts';
import { campaignCreator, testCreator } from './audiences.ts';
import { campaignRoles } from '../campaigns/permissions.ts';
import { testRoles } from '../test-runs/permissions.ts';

let smtp: TestSmtpServer;
beforeAll(async () => {
  smtp = await startSmtpServer();
});
afterAll(() => smtp?.close());

const app = useTestApp(() => ({ SOURCE_SYNC_SCHEDULES: 'false', SMTP_ALLOWED_HOSTS: `127.0.0.1:${smtp.port}` }));
let t: Team;

beforeAll(async () => {
  t = await team(app);
  const enabled = await app.api('PATCH', '/system/email-config', {
    token: t.admin.token,
    body: { enabled: true, smtp_host: '127.0.0.1', smtp_port: smtp.port, smtp_security: 'none', from_address: 'notices@violet.example' },
  });
  expect(enabled).toMatchObject({ status: 200, body: { enabled: true, configured: true } });
});

/** A committed domain event, as a service's unit of work records it: through the outbox to the consumers. */
async function emit<K extends DomainEventType>(type: K, payload: EventOf<K>['payload']): Promise<void> {
  await inTransaction(app.services, SYSTEM_ACTOR, async (uow) => uow.emit(type, payload));
}

const member = async (role: Role) => app.createUser({ role });

/** One real event of a row, and who it must reach before preferences (found here independently of the table). */
interface Scenario {
  expected: string[];
  fire(): Promise<void>;
}

async function testScenario(creator: { id: string }, to: string, recipients: (creatorId: string) => Promise<string[]>): Promise<Scenario> {
  const { id: techniqueId } = await technique(app);
  const test = await createTest(app, t.red_lead, techniqueId);
  await app.services.prisma.test.update({ where: { id: test.id }, data: { createdById: creator.id } });
  const fire =
    to === 'validated'
      ? () => emit('test.validated', { testId: test.id, techniqueId, campaignId: null, detectionResult: 'detected' })
      : () => emit('test.state_changed', { testId: test.id, techniqueId, campaignId: null, from: 'draft', to });
  return { expected: await recipients(creator.id), fire };
}

const leadIds = () => activeUserIds(app, [...Roles.leads]);
const creatorOnly = async (id: string) => [id];

/** Every row of the notice table has a scenario (the type says so). */
const SCENARIOS: Record<NoticeKey, () => Promise<Scenario>> = {
  test_execution_started: async () => testScenario(await member('red_lead'), 'red_executing', creatorOnly),
  test_ready_for_blue: async () => {
    await member('blue_tech');
    return testScenario(t.red_lead, 'blue_evaluating', () => activeUserIds(app, ['blue_tech']));
  },
  test_ready_for_review: async () => testScenario(t.red_lead, 'in_review', () => activeUserIds(app, ['red_lead', 'blue_lead'])),
  test_validated: async () => testScenario(await member('blue_lead'), 'validated', creatorOnly),
  test_rejected: async () => testScenario(await member('admin'), 'rejected', creatorOnly),
  campaign_completed: async () => {
    const creator = await member('red_lead');
    const row = await campaign(app, { ...t.red_lead, id: creator.id });
    return {
      expected: [...new Set([creator.id, ...(await leadIds())])],
      fire: () => emit('campaign.completed', { campaignId: row.id, name: row.name, testCount: 2, validatedCount: 1, percentage: 50 }),
    };
  },
  new_techniques: async () => {
    const added = await technique(app);
    return { expected: await leadIds(), fire: () => emit('catalog.techniques_added', { count: 1, ttpIds: [added.ttpId] }) };
  },
  intel_findings: async () => {
    const scan = await app.services.prisma.intelScan.create({ data: { finishedAt: new Date(), newItems: 2 } });
    return {
      expected: await leadIds(),
      fire: () => emit('intel.scan_completed', { scanId: scan.id, newItems: 2, actors: 1, techniques: 2, flagged: 1 }),
    };
  },
  osint_flagged: async () => {
    const feed = await app.services.prisma.osintFeed.create({
      data: { name: `Feed ${randomUUID()}`, kind: 'rss', location: '/feeds/x.xml' },
    });
    return {
      expected: await leadIds(),
      fire: () => emit('osint.items_added', { feedId: feed.id, runId: randomUUID(), newItems: 2, flagged: 1, flaggedTtpIds: ['T1001'] }),
    };
  },
  revalidation_needed: async () => {
    // Any active user may own a technique, a viewer too.
    const owner = await member('viewer');
    const owned = await technique(app);
    await app.services.prisma.ownershipAssignment.create({ data: { techniqueId: owned.id, ownerId: owner.id, responsibility: 'both' } });
    return { expected: [owner.id], fire: () => emit('revalidation.queued', { techniqueIds: [owned.id] }) };
  },
  alert_fired: async () => ({
    expected: await leadIds(),
    fire: () =>
      emit('alert.fired', {
        alertId: randomUUID(),
        ruleId: randomUUID(),
        ruleName: 'Coverage floor',
        ruleType: 'coverage_below',
        severity: 'high',
        subject: 'global',
        techniqueId: null,
        title: 'Coverage fell below 50%',
        figures: { coverage: 40 },
      }),
  }),
  tracker_issue_fixed: async () => {
    const { id: techniqueId } = await technique(app);
    const retest = await createTest(app, t.red_lead, techniqueId);
    return {
      expected: await activeUserIds(app, ['red_lead']),
      fire: () =>
        emit('tracker.issue_fixed', {
          linkId: randomUUID(),
          connectionId: randomUUID(),
          subjectType: 'test',
          subjectId: retest.id,
          testId: null,
          retestId: retest.id,
          issueKey: 'SEC-1',
          issueUrl: 'https://acme.atlassian.net/browse/SEC-1',
          trackerStatus: 'Done',
        }),
    };
  },
  webhook_disabled: async () => {
    const webhook = await app.services.prisma.webhook.create({ data: { url: 'https://receiver.example/hook', events: ['alert.fired'] } });
    return {
      expected: await activeUserIds(app, ['admin']),
      fire: () => emit('webhook.disabled', { webhookId: webhook.id, reason: '5 failed delivery attempts in a row' }),
    };
  },
};

/** Who got the row's in-app notice and who got its e-mail since `since`. */
async function delivered(key: NoticeKey, since: Date) {
  await eventsSettled(app);
  const notices = await app.services.prisma.notification.findMany({ where: { event: key, createdAt: { gte: since } } });
  const mails = await app.services.prisma.emailDelivery.findMany({ where: { notice: key, createdAt: { gte: since } } });
  return { inApp: notices.map((row) => row.userId).sort(), email: mails.map((row) => row.userId).sort(), notices };
}

const without = (ids: string[], id: string) => ids.filter((other) => other !== id).sort();

describe('the notice table, row by row, through real events', () => {
  for (const row of NOTICES) {
    const key = row.key as NoticeKey;
    const hasEmail = channelsOf(row).includes('email');

    it(`${key}: ${row.to.map((audience) => audience.label).join(' and ')} get it in-app${hasEmail ? ' and by e-mail' : ''}, as each toggle allows`, async () => {
      for (const optOut of [null, 'in_app', 'email'] as const) {
        const scenario = await SCENARIOS[key]();
        // Every user has an address, so only the toggles decide who is e-mailed.
        await app.services.prisma.$executeRaw`UPDATE users SET email = username || '@violet.example' WHERE email IS NULL`;
        const [subject] = scenario.expected;
        expect(subject, 'a scenario reaches somebody').toBeDefined();
        if (optOut)
          await app.services.prisma.user.update({ where: { id: subject }, data: { preferences: { [`${optOut}_${key}`]: false } } });
        const since = new Date();
        await scenario.fire();
        const got = await delivered(key, since);
        await app.services.prisma.user.update({ where: { id: subject }, data: { preferences: {} } });

        const expected = [...scenario.expected].sort();
        expect(got.inApp, `in-app, ${optOut ?? 'no'} opt-out`).toEqual(optOut === 'in_app' ? without(expected, subject) : expected);
        expect(got.email, `e-mail, ${optOut ?? 'no'} opt-out`).toEqual(
          hasEmail ? (optOut === 'email' ? without(expected, subject) : expected) : [],
        );
        expect(got.notices.every((notice) => notice.title && notice.message)).toBe(true);
      }
    });
  }

  it('an event whose condition does not hold notices nobody', async () => {
    const { id: techniqueId } = await technique(app);
    const test = await createTest(app, t.red_lead, techniqueId);
    const since = new Date();
    await emit('test.state_changed', { testId: test.id, techniqueId, campaignId: null, from: 'rejected', to: 'draft' });
    await emit('intel.scan_completed', { scanId: randomUUID(), newItems: 0, actors: 0, techniques: 0, flagged: 0 });
    await eventsSettled(app);
    expect(await app.services.prisma.notification.count({ where: { createdAt: { gte: since } } })).toBe(0);
  });

  it('an inactive recipient gets nothing', async () => {
    const creator = await member('red_lead');
    const scenario = await testScenario(creator, 'rejected', creatorOnly);
    await app.services.prisma.user.update({ where: { id: creator.id }, data: { isActive: false } });
    const since = new Date();
    await scenario.fire();
    expect((await delivered('test_rejected', since)).inApp).toEqual([]);
  });
});

describe('the notificationAdded subscription', () => {
  it('streams a notice the in-app consumer wrote after a committed event', async () => {
    const creator = await member('red_lead');
    const client = createClient({
      url: `${app.url.replace(/^http/, 'ws')}/graphql`,
      webSocketImpl: WebSocket,
      connectionParams: { authorization: `Bearer ${await app.login(creator.username)}` },
      retryAttempts: 0,
    });
    try {
      const listeners = () => (app.services.bus as unknown as { local: EventEmitter }).local.listenerCount('event');
      const before = listeners();
      const iterator = client.iterate<{ notificationAdded: { title: string; event: string; entityId: string } }>({
        query: 'subscription { notificationAdded { title event entityId } }',
      });
      const first = iterator.next();
      while (listeners() <= before) await sleep(10);
      const scenario = await testScenario(creator, 'rejected', creatorOnly);
      await scenario.fire();
      const { value } = await Promise.race([first, sleep(5_000).then(() => Promise.reject(new Error('no notice streamed')))]);
      expect(value?.data?.notificationAdded).toMatchObject({ title: 'Test rejected', event: 'test_rejected' });
      await iterator.return?.();
    } finally {
      await client.dispose();
    }
  });
});

describe('toggles follow the table', () => {
  it("a creator's audience has the roles that may create", () => {
    expect([...testCreator.roles].sort()).toEqual([...testRoles.create].sort());
    expect([...campaignCreator.roles].sort()).toEqual([...campaignRoles.create].sort());
  });

  it('each role has a toggle exactly for the notices it can receive, on the channels they use', () => {
    expect(togglesOf('viewer')).toEqual(['in_app_revalidation_needed']);
    expect(togglesOf('blue_tech')).toEqual(['in_app_test_ready_for_blue', 'in_app_revalidation_needed']);
    expect(togglesOf('admin')).toContain('in_app_new_techniques');
    expect(togglesOf('admin')).toContain('email_new_techniques');
    expect(togglesOf('admin')).not.toContain('in_app_test_ready_for_review');
    for (const role of ['red_lead', 'blue_lead'] as const) expect(togglesOf(role)).toContain('in_app_test_ready_for_review');
    // No toggle for a channel a notice does not use.
    expect(Object.values(Roles.any).flatMap(togglesOf)).not.toContain('email_test_rejected');
  });
});

describe('docs/notifications.md', () => {
  it('shows the notice table as the code has it', () => {
    const page = readFileSync(new URL('../../../docs/notifications.md', import.meta.url), 'utf8');
    expect(page).toContain(noticeDocs());
  });
});
