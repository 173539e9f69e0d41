import type { Db } from '../../db/client.ts';
import type { DomainEventType, EventOf } from '../../events/types.ts';
import type { MailContent } from '../email/messages.ts';
import { admins, type Audience, campaignCreator, leads, techniqueOwners, testCreator, everyoneWith } from './audiences.ts';
import { alertFiredMail, campaignCompletedMail, newTechniquesMail, testValidatedMail } from './mails.ts';

export type Channel = 'in_app' | 'email';
export const CHANNELS: readonly Channel[] = ['in_app', 'email'];

/** An in-app notification's text and the record it is about. */
export interface InAppContent {
  title: string;
  message: string;
  entityType: string;
  entityId?: string;
}

export interface ComposeContext {
  db: Db;
  /** An absolute link to a REST resource (e-mails only). */
  link: (...segments: string[]) => string;
  /** The recipient, for a notice whose text differs per recipient (`personal`). */
  recipientId?: string;
}

/**
 * One row of the notice table: the domain event it follows (and when), who is told, and what each channel says.
 * Its channels are the renderers it has; its key names the notification (`event` of a notification) and the
 * recipients' preference toggles (`in_app_<key>`, `email_<key>`).
 */
export interface Notice<K extends DomainEventType = DomainEventType, Key extends string = string> {
  key: Key;
  event: K;
  /** Only events for which this holds are noticed; `condition` says it in the docs. */
  when?: (payload: EventOf<K>['payload']) => boolean;
  condition?: string;
  to: readonly Audience<EventOf<K>['payload']>[];
  /** What the toggle is about, as a user reads it. */
  description: string;
  /** The in-app title, in the docs' words. */
  title: string;
  /** The text differs per recipient: it is composed once for each. */
  personal?: boolean;
  inApp?: (event: EventOf<K>, context: ComposeContext) => Promise<InAppContent | null>;
  email?: (event: EventOf<K>, context: ComposeContext) => Promise<MailContent | null>;
}

/** Type-checks a row against its event, then stores it in the table's common shape. */
const notice = <K extends DomainEventType, Key extends string>(row: Notice<K, Key>) => row as unknown as Notice<DomainEventType, Key>;

const plural = (count: number, noun: string) => `${count} ${noun}${count === 1 ? '' : 's'}`;
/** How many technique ids an in-app notice of new techniques names. */
const NAMED_TECHNIQUES = 5;
/** How many threat actors the intel notice names. */
const NAMED_ACTORS = 3;
/** How many owned techniques a revalidation notice names. */
const NAMED_OWNED = 10;

async function testNotice(db: Db, testId: string, says: string): Promise<InAppContent | null> {
  const test = await db.test.findUnique({ where: { id: testId }, select: { name: true, technique: { select: { ttpId: true } } } });
  return test && { title: '', message: `Test "${test.name}" (${test.technique.ttpId}) ${says}`, entityType: 'test', entityId: testId };
}

/** The notice of a test entering `state` (the spec's in-app table). */
const testEntered = <Key extends string>(key: Key, state: string, audience: Audience<{ testId: string }>, title: string, says: string) =>
  notice({
    key,
    event: 'test.state_changed',
    when: ({ to }) => to === state,
    condition: `to = ${state}`,
    to: [audience],
    description: `A test entered ${state}`,
    title,
    inApp: async ({ payload }, { db }) => {
      const content = await testNotice(db, payload.testId, says);
      return content && { ...content, title };
    },
  });

/** Every notice: who is told what, after which event. Preferences, the in-app consumer and the e-mail consumer read it. */
export const NOTICES = [
  testEntered('test_execution_started', 'red_executing', testCreator, 'Test execution started', 'is being executed'),
  testEntered(
    'test_ready_for_blue',
    'blue_evaluating',
    everyoneWith('every blue_tech', ['blue_tech']),
    'Test ready for blue-team evaluation',
    'awaits blue-team evaluation',
  ),
  // The spec's row names the roles (not "the leads"): every red_lead and blue_lead.
  testEntered(
    'test_ready_for_review',
    'in_review',
    everyoneWith('every red_lead and blue_lead', ['red_lead', 'blue_lead']),
    'Test ready for review',
    'awaits lead validation',
  ),
  notice({
    key: 'test_validated',
    event: 'test.validated',
    to: [testCreator],
    description: 'A test you created was validated',
    title: 'Test validated',
    inApp: async ({ payload }, { db }) => {
      const content = await testNotice(db, payload.testId, 'was validated');
      return content && { ...content, title: 'Test validated' };
    },
    email: testValidatedMail,
  }),
  testEntered('test_rejected', 'rejected', testCreator, 'Test rejected', 'was rejected'),
  notice({
    key: 'campaign_completed',
    event: 'campaign.completed',
    to: [campaignCreator, leads],
    description: 'A campaign completed',
    title: 'Campaign completed',
    inApp: async ({ payload }) => ({
      title: 'Campaign completed',
      message: `Campaign "${payload.name}" completed: ${payload.validatedCount} of ${payload.testCount} tests validated (${payload.percentage}%)`,
      entityType: 'campaign',
      entityId: payload.campaignId,
    }),
    email: campaignCompletedMail,
  }),
  notice({
    key: 'new_techniques',
    event: 'catalog.techniques_added',
    to: [leads],
    description: 'The catalog sync found new techniques',
    title: 'ATT&CK catalog: <n> new techniques',
    inApp: async ({ payload }) => {
      const sorted = [...payload.ttpIds].sort();
      const more = sorted.length > NAMED_TECHNIQUES ? ` and ${sorted.length - NAMED_TECHNIQUES} more` : '';
      const count = plural(payload.count, 'new technique');
      return {
        title: `ATT&CK catalog: ${count}`,
        message: `The ATT&CK catalog sync added ${count}: ${sorted.slice(0, NAMED_TECHNIQUES).join(', ')}${more}.`,
        entityType: 'catalog',
      };
    },
    email: newTechniquesMail,
  }),
  notice({
    key: 'intel_findings',
    event: 'intel.scan_completed',
    when: ({ newItems }) => newItems > 0,
    condition: 'new_items > 0',
    to: [leads],
    description: 'The intel scan found threat actors newly using techniques not yet validated',
    title: 'Intel scan: <n> new technique uses by threat actors',
    inApp: async ({ payload }, { db }) => {
      const top = await db.$queryRaw<{ name: string; uses: number }[]>`
        SELECT threat_actors.name, count(*)::int AS uses
        FROM intel_findings JOIN threat_actors ON threat_actors.id = intel_findings.actor_id
        WHERE intel_findings.scan_id = ${payload.scanId}::uuid
        GROUP BY threat_actors.name
        ORDER BY uses DESC, threat_actors.name
        LIMIT ${NAMED_ACTORS}`;
      const named = top.map((actor) => `${actor.name} (${actor.uses})`).join(', ');
      const others = payload.actors > top.length ? ` and ${plural(payload.actors - top.length, 'other actor')}` : '';
      const uses = plural(payload.newItems, 'new technique use');
      return {
        title: `Intel scan: ${uses} by threat actors`,
        message:
          `${uses} by ${plural(payload.actors, 'threat actor')} on ${plural(payload.techniques, 'technique')} not yet validated: ` +
          `${named}${others}. ${plural(payload.flagged, 'technique')} newly flagged for review.`,
        entityType: 'intel_scan',
        entityId: payload.scanId,
      };
    },
  }),
  notice({
    key: 'osint_flagged',
    event: 'osint.items_added',
    when: ({ flagged }) => flagged > 0,
    condition: 'flagged > 0',
    to: [leads],
    description: 'New feed items mention techniques without validated coverage',
    title: 'Intel feeds: <n> techniques flagged for review',
    inApp: async ({ payload }) => {
      const more = payload.flaggedTtpIds.length > NAMED_TECHNIQUES ? ` and ${payload.flaggedTtpIds.length - NAMED_TECHNIQUES} more` : '';
      const count = plural(payload.flagged, 'technique');
      return {
        title: `Intel feeds: ${count} flagged for review`,
        message:
          `${plural(payload.newItems, 'new feed item')} ${payload.newItems === 1 ? 'mentions' : 'mention'} ${count} without validated coverage: ` +
          `${payload.flaggedTtpIds.slice(0, NAMED_TECHNIQUES).join(', ')}${more}.`,
        entityType: 'osint_feed',
        entityId: payload.feedId,
      };
    },
  }),
  notice({
    key: 'revalidation_needed',
    event: 'revalidation.queued',
    to: [techniqueOwners],
    description: 'A technique you own entered the revalidation queue',
    title: 'Techniques to re-test',
    personal: true,
    inApp: async ({ payload }, { db, recipientId }) => {
      const owned = await db.ownershipAssignment.findMany({
        where: { techniqueId: { in: payload.techniqueIds }, ownerId: recipientId },
        select: { technique: { select: { ttpId: true } } },
      });
      const list = [...new Set(owned.map((row) => row.technique.ttpId))].sort();
      if (!list.length) return null;
      const what = list.length === 1 ? 'A technique you own needs' : `${list.length} techniques you own need`;
      const named = `${list.slice(0, NAMED_OWNED).join(', ')}${list.length > NAMED_OWNED ? ', …' : ''}`;
      return { title: 'Techniques to re-test', message: `${what} re-testing: ${named}`, entityType: 'revalidation_queue' };
    },
  }),
  notice({
    key: 'alert_fired',
    event: 'alert.fired',
    to: [leads],
    description: 'An alert rule fired',
    title: 'Alert (<severity>)',
    inApp: async ({ payload }) => ({
      title: `Alert (${payload.severity})`,
      message: payload.title,
      entityType: 'alert',
      entityId: payload.alertId,
    }),
    email: alertFiredMail,
  }),
  notice({
    key: 'tracker_issue_fixed',
    event: 'tracker.issue_fixed',
    when: ({ retestId }) => retestId !== null,
    condition: 'retest_id is set',
    to: [everyoneWith('every red_lead', ['red_lead'])],
    description: 'A tracker issue was closed as fixed and a retest awaits',
    title: 'Fix to retest',
    inApp: async ({ payload }, { db }) => {
      const content =
        payload.retestId &&
        (await testNotice(db, payload.retestId, `awaits a retest: tracker issue ${payload.issueKey} was closed as fixed`));
      return content ? { ...content, title: 'Fix to retest' } : null;
    },
  }),
  notice({
    key: 'webhook_disabled',
    event: 'webhook.disabled',
    to: [admins],
    description: 'A webhook was disabled after failing deliveries',
    title: 'Webhook disabled',
    inApp: async ({ payload }, { db }) => {
      const webhook = await db.webhook.findUnique({ where: { id: payload.webhookId }, select: { url: true } });
      if (!webhook) return null;
      return {
        title: 'Webhook disabled',
        message: `The webhook to ${new URL(webhook.url).host} was disabled after ${payload.reason}. Fix the receiver, then enable it again.`,
        entityType: 'webhook',
        entityId: payload.webhookId,
      };
    },
  }),
] as const;

/** A notice's key: the `event` of its notifications and the suffix of its preference toggles. */
export type NoticeKey = (typeof NOTICES)[number]['key'];
export const NOTICE_KEYS = NOTICES.map((row) => row.key) as NoticeKey[];

export const channelsOf = (row: Notice): Channel[] => CHANNELS.filter((channel) => (channel === 'in_app' ? row.inApp : row.email));

/** The rows that follow this event (its condition holding) and speak on this channel. */
export const noticesFor = (event: EventOf<DomainEventType>, channel: Channel): Notice[] =>
  (NOTICES as readonly Notice[]).filter(
    (row) => row.event === event.type && channelsOf(row).includes(channel) && (row.when?.(event.payload) ?? true),
  );

/** The events some notice follows on this channel: what its consumer declares. */
export const noticeEvents = (channel: Channel): DomainEventType[] => [
  ...new Set((NOTICES as readonly Notice[]).filter((row) => channelsOf(row).includes(channel)).map((row) => row.event)),
];

/** The users a row goes to for this event, each once (before their activity and preferences are checked). */
export async function recipientsOf(row: Notice, event: EventOf<DomainEventType>, db: Db): Promise<string[]> {
  const found = await Promise.all(row.to.map((audience) => audience.users(event.payload, db)));
  return [...new Set(found.flat())];
}
