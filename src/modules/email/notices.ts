import type { Role } from '../../auth/roles.ts';
import type { Db } from '../../db/client.ts';
import { defineConsumer, type EventConsumer } from '../../events/consumers.ts';
import type { DomainEventType, EventOf } from '../../events/types.ts';
import { COMPLETION_RECIPIENT_ROLES } from '../campaigns/workflow.ts';
import { wants, type NotificationEvent } from '../notifications/preferences.ts';
import { createEmails } from './delivery.ts';
import { linkTo, renderMail, type MailContent } from './messages.ts';
import { isConfigured, smtpSettings } from './settings.ts';

/** How many new techniques an e-mail lists before "and N more". */
const LISTED_TECHNIQUES = 20;
/** Roles told of new techniques by e-mail: the leads and the admins. */
const NEW_TECHNIQUE_ROLES = ['red_lead', 'blue_lead', 'admin'] as const;

type Link = (...segments: string[]) => string;

/**
 * One kind of notification e-mail: the domain event it follows, the preference (`email_<preference>`) that lets
 * a recipient have it, who is told, and what it says. Each becomes an event consumer; another kind of e-mail
 * (e.g. alerts fired, once alerts exist) is one more `emailNotice` listed in `emailNotices`.
 */
export interface EmailNotice<K extends DomainEventType> {
  /** The consumer's name: stable, it keys the processed-events ledger and the job ids. */
  name: string;
  event: K;
  preference: NotificationEvent;
  /** The user ids concerned; inactive users, users without an address and those who opted out are dropped after. */
  recipients(event: EventOf<K>, db: Db): Promise<string[]>;
  /** What the e-mail says, or null when there is nothing left to tell (the record is gone). */
  compose(event: EventOf<K>, db: Db, link: Link): Promise<MailContent | null>;
}

/**
 * The consumer of one notice: when e-mail is on, it picks the recipients who want this e-mail and have an
 * address, renders the message once and writes one pending e-mail per recipient in its own transaction (with its
 * ledger row); each is queued once that commits, and the sweep queues again any whose job was lost.
 */
export function emailNotice<K extends DomainEventType>(notice: EmailNotice<K>): EventConsumer {
  return defineConsumer({
    name: notice.name,
    events: [notice.event],
    async handle(event, uow, services) {
      const settings = await smtpSettings(uow.tx, services);
      if (!settings.enabled || !isConfigured(settings)) return;
      const ids = [...new Set(await notice.recipients(event, uow.tx))];
      const users = await uow.tx.user.findMany({
        where: { id: { in: ids }, isActive: true, email: { not: null } },
        select: { id: true, email: true, preferences: true },
        orderBy: { id: 'asc' },
      });
      const recipients = users.filter((user) => user.email && wants(user.preferences, 'email', notice.preference));
      if (!recipients.length) return;
      const content = await notice.compose(event, uow.tx, (...segments) => linkTo(services.config, ...segments));
      if (!content) return;
      const mail = renderMail(content, notice.preference);
      await createEmails(uow, services, { notice: notice.name, eventId: event.id, mail }, recipients as { id: string; email: string }[]);
    },
  });
}

const usersWithRoles = async (db: Db, roles: readonly Role[]) =>
  (await db.user.findMany({ where: { role: { in: [...roles] }, isActive: true }, select: { id: true } })).map((user) => user.id);

/** The spec: a validated test is e-mailed to its creator. */
export const testValidatedEmail = emailNotice({
  name: 'test-validated-email',
  event: 'test.validated',
  preference: 'test_validated',
  async recipients({ payload }, db) {
    const test = await db.test.findUnique({ where: { id: payload.testId }, select: { createdById: true } });
    return test ? [test.createdById] : [];
  },
  async compose({ payload }, db, link) {
    const test = await db.test.findUnique({
      where: { id: payload.testId },
      select: { id: true, name: true, technique: { select: { ttpId: true, name: true } } },
    });
    if (!test) return null;
    const { ttpId, name } = test.technique;
    return {
      subject: `Test validated: ${test.name} (${ttpId})`,
      paragraphs: [
        `Your test "${test.name}" of ${ttpId} ${name} was validated by the red and blue leads.`,
        `Detection result: ${(payload.detectionResult ?? 'not recorded').replaceAll('_', ' ')}.`,
      ],
      link: { label: 'The test', url: link('tests', test.id) },
    };
  },
});

/** The spec: a completed campaign is e-mailed to its creator and every red and blue lead. */
export const campaignCompletedEmail = emailNotice({
  name: 'campaign-completed-email',
  event: 'campaign.completed',
  preference: 'campaign_completed',
  async recipients({ payload }, db) {
    const campaign = await db.campaign.findUnique({ where: { id: payload.campaignId }, select: { createdById: true } });
    return campaign ? [campaign.createdById, ...(await usersWithRoles(db, COMPLETION_RECIPIENT_ROLES))] : [];
  },
  async compose({ payload }, _db, link) {
    return {
      subject: `Campaign completed: ${payload.name}`,
      paragraphs: [
        `The campaign "${payload.name}" is completed: ${payload.validatedCount} of ${payload.testCount} tests validated (${payload.percentage}%).`,
      ],
      link: { label: 'The campaign', url: link('campaigns', payload.campaignId) },
    };
  },
});

/** The spec: techniques new to the catalog after a sync are e-mailed to the leads and admins. */
export const newTechniquesEmail = emailNotice({
  name: 'new-techniques-email',
  event: 'catalog.techniques_added',
  preference: 'new_techniques',
  recipients: (_event, db) => usersWithRoles(db, NEW_TECHNIQUE_ROLES),
  async compose({ payload }, db, link) {
    const listed = payload.ttpIds.slice(0, LISTED_TECHNIQUES);
    const names = new Map(
      (await db.technique.findMany({ where: { ttpId: { in: listed } }, select: { ttpId: true, name: true } })).map((row) => [
        row.ttpId,
        row.name,
      ]),
    );
    const more = payload.count - listed.length;
    const count = `${payload.count} new technique${payload.count === 1 ? '' : 's'}`;
    return {
      subject: `ATT&CK catalog: ${count}`,
      paragraphs: [`The ATT&CK catalog sync added ${count}.${more > 0 ? ` The first ${listed.length}:` : ''}`],
      items: [
        ...listed.map((ttpId) => ({ label: `${ttpId} ${names.get(ttpId) ?? ''}`.trim(), url: link('techniques', ttpId) })),
        ...(more > 0 ? [{ label: `and ${more} more` }] : []),
      ],
      link: { label: 'The technique catalog', url: link('techniques') },
    };
  },
});

/** Roles told of fired alerts: the leads and the admins (as the in-app notice). */
const ALERT_ROLES = ['red_lead', 'blue_lead', 'admin'] as const;

/** A fired alert is e-mailed to the leads and admins. */
export const alertFiredEmail = emailNotice({
  name: 'alert-fired-email',
  event: 'alert.fired',
  preference: 'alert_fired',
  recipients: (_event, db) => usersWithRoles(db, ALERT_ROLES),
  async compose({ payload }, _db, link) {
    return {
      subject: `Alert (${payload.severity}): ${payload.title}`,
      paragraphs: [`The alert rule "${payload.ruleName}" fired: ${payload.title}.`],
      items: Object.entries(payload.figures).map(([key, value]) => ({ label: `${key.replaceAll('_', ' ')}: ${String(value)}` })),
      link: { label: 'The alert', url: link('alerts', payload.alertId) },
    };
  },
});

/** Every kind of notification e-mail. */
export const emailNotices: EventConsumer[] = [testValidatedEmail, campaignCompletedEmail, newTechniquesEmail, alertFiredEmail];
