import type { Principal } from '../../auth/access.ts';
import { inTransaction, type UnitOfWork } from '../../db/unit-of-work.ts';
import { NotFoundError } from '../../errors.ts';
import type { Services } from '../../services.ts';
import { page, parseInput } from '../../validation.ts';
import type { NoticeKey } from './notices.ts';
import { wants } from './preferences.ts';
import { pageOf } from '../../db/page-totals.ts';

export const NOTIFICATION_PAGE = { defaultLimit: 20, maxLimit: 100 } as const;
const pageSchema = page(NOTIFICATION_PAGE.defaultLimit, NOTIFICATION_PAGE.maxLimit);

export interface NotificationDraft {
  event: NoticeKey;
  title: string;
  message: string;
  entityType?: string;
  entityId?: string;
}

/**
 * Creates in-app notifications inside the caller's transaction (the in-app notice consumer's) for the recipients whose preferences allow
 * this event; subscribers hear of them once the transaction commits. Returns who was notified.
 */
export async function notifyUsers(uow: UnitOfWork, userIds: Iterable<string>, draft: NotificationDraft): Promise<string[]> {
  const recipients = await uow.tx.user.findMany({
    where: { id: { in: [...new Set(userIds)] }, isActive: true },
    select: { id: true, preferences: true },
  });
  const notified = recipients.filter((user) => wants(user.preferences, 'in_app', draft.event)).map((user) => user.id);
  for (const userId of notified) {
    const notification = await uow.tx.notification.create({ data: { userId, ...draft }, select: { id: true } });
    uow.emit('notification.created', { notificationId: notification.id, userId });
  }
  return notified;
}

export async function listNotifications(services: Services, principal: Principal, paging: unknown, query = {}) {
  const { offset, limit } = parseInput(pageSchema, paging);
  const where = { userId: principal.userId };
  return pageOf({ offset, limit }, [
    services.prisma.notification.findMany({ ...query, where, orderBy: [{ createdAt: 'desc' }, { id: 'desc' }], skip: offset, take: limit }),
    services.prisma.notification.count({ where }),
  ]);
}

export const unreadCount = (services: Services, principal: Principal) =>
  services.prisma.notification.count({ where: { userId: principal.userId, isRead: false } });

/** Marks one of the caller's notifications read; another user's notification is reported as not found. */
export function markRead(services: Services, principal: Principal, id: string, query = {}) {
  return inTransaction(services, principal, async (uow) => {
    const where = { id, userId: principal.userId };
    if (!(await uow.tx.notification.findFirst({ where, select: { id: true } }))) throw new NotFoundError('Notification', id);
    const { count } = await uow.tx.notification.updateMany({
      where: { ...where, isRead: false },
      data: { isRead: true, readAt: new Date() },
    });
    if (count) {
      await uow.audit({ action: 'read_notification', entityType: 'notification', entityId: id });
      uow.emit('notification.read', { userId: principal.userId, notificationIds: [id] });
    }
    return uow.tx.notification.findFirstOrThrow({ ...query, where });
  });
}

export function markAllRead(services: Services, principal: Principal): Promise<number> {
  return inTransaction(services, principal, async (uow) => {
    const { count } = await uow.tx.notification.updateMany({
      where: { userId: principal.userId, isRead: false },
      data: { isRead: true, readAt: new Date() },
    });
    if (count) {
      await uow.audit({ action: 'read_all_notifications', entityType: 'notification', details: { count } });
      uow.emit('notification.read', { userId: principal.userId, notificationIds: 'all' });
    }
    return count;
  });
}
