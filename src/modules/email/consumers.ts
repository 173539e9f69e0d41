import { defineConsumer } from '../../events/consumers.ts';
import type { DomainEvent } from '../../events/types.ts';
import type { UnitOfWork } from '../../db/unit-of-work.ts';
import type { Services } from '../../services.ts';
import { type Notice, type NoticeKey, noticeEvents, noticesFor, recipientsOf } from '../notifications/notices.ts';
import { wants } from '../notifications/preferences.ts';
import { createEmails } from './delivery.ts';
import { linkTo, renderMail } from './messages.ts';
import { isConfigured, smtpSettings } from './settings.ts';

/**
 * Writes the e-mails of one row: the recipients who are active, have an address and want `email_<key>`; the
 * message is rendered once; one pending e-mail per recipient, queued once this transaction commits.
 */
async function mail(uow: UnitOfWork, services: Services, row: Notice, event: DomainEvent): Promise<void> {
  const ids = await recipientsOf(row, event, uow.tx);
  const users = await uow.tx.user.findMany({
    where: { id: { in: ids }, isActive: true, email: { not: null } },
    select: { id: true, email: true, preferences: true },
    orderBy: { id: 'asc' },
  });
  const key = row.key as NoticeKey;
  const recipients = users.filter((user) => user.email && wants(user.preferences, 'email', key));
  if (!recipients.length || !row.email) return;
  const content = await row.email(event, { db: uow.tx, link: (...segments) => linkTo(services.config, ...segments) });
  if (!content) return;
  await createEmails(
    uow,
    services,
    { notice: key, eventId: event.id, mail: renderMail(content, key) },
    recipients as { id: string; email: string }[],
  );
}

/**
 * Every notification e-mail, from the notice table. It does not send: while e-mail is enabled and configured it
 * writes pending e-mails in its own transaction (with its ledger row); a `send-email` job per e-mail follows the
 * commit, and the sweep queues again any whose job was lost.
 */
export const emailNotices = defineConsumer({
  name: 'email-notices',
  events: noticeEvents('email'),
  async handle(event, uow, services) {
    const rows = noticesFor(event, 'email');
    if (!rows.length) return;
    const settings = await smtpSettings(uow.tx, services);
    if (!settings.enabled || !isConfigured(settings)) return;
    for (const row of rows) await mail(uow, services, row, event);
  },
});
