import type { UnitOfWork } from '../../db/unit-of-work.ts';
import { defineConsumer } from '../../events/consumers.ts';
import type { DomainEvent } from '../../events/types.ts';
import { type ComposeContext, type Notice, type NoticeKey, noticeEvents, noticesFor, recipientsOf } from './notices.ts';
import { notifyUsers } from './service.ts';

/** Writes the in-app notices of one row: composed once, or once per recipient for a personal row. */
async function notify(uow: UnitOfWork, row: Notice, event: DomainEvent): Promise<void> {
  const recipients = await recipientsOf(row, event, uow.tx);
  if (!recipients.length || !row.inApp) return;
  const context: ComposeContext = { db: uow.tx, link: () => '' };
  const key = row.key as NoticeKey;
  if (!row.personal) {
    const content = await row.inApp(event, context);
    if (content) await notifyUsers(uow, recipients, { event: key, ...content });
    return;
  }
  for (const recipientId of recipients) {
    const content = await row.inApp(event, { ...context, recipientId });
    if (content) await notifyUsers(uow, [recipientId], { event: key, ...content });
  }
}

/**
 * Every in-app notice, from the notice table: after an event commits, the rows that follow it write their
 * notifications (each recipient's `in_app_<key>` preference permitting); `notificationAdded` subscribers hear of
 * them once this consumer's transaction commits.
 */
export const inAppNotices = defineConsumer({
  name: 'in-app-notices',
  events: noticeEvents('in_app'),
  async handle(event, uow) {
    for (const row of noticesFor(event, 'in_app')) await notify(uow, row, event);
  },
});
