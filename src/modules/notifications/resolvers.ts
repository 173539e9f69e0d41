import { allow } from '../../graphql/access.ts';
import { builder } from '../../graphql/builder.ts';
import { principalOf } from '../../graphql/context.ts';
import { pageArgs, pagedList, pageType } from '../../graphql/pagination.ts';
import * as notifications from './service.ts';
import { notificationRoles } from './permissions.ts';

export const NotificationType = builder.prismaObject('Notification', {
  description: 'An in-app notification for one user.',
  fields: (t) => ({
    id: t.exposeID('id'),
    event: t.exposeString('event', { description: 'What happened, e.g. test_validated (see the preference keys).' }),
    title: t.exposeString('title'),
    message: t.exposeString('message'),
    entityType: t.exposeString('entityType', { nullable: true }),
    entityId: t.exposeString('entityId', { nullable: true }),
    isRead: t.exposeBoolean('isRead'),
    readAt: t.expose('readAt', { type: 'DateTime', nullable: true }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
  }),
});

const NotificationPage = pageType('NotificationPage', NotificationType);

builder.queryFields((t) => ({
  notifications: t.field({
    type: NotificationPage,
    ...pagedList(notifications.NOTIFICATION_PAGE, "The caller's notifications, newest first"),
    authScopes: allow(notificationRoles.own),
    args: { ...pageArgs(t.arg) },
    resolve: (_root, args, context) =>
      notifications.listNotifications(context.services, principalOf(context), {
        offset: args.offset ?? undefined,
        limit: args.limit ?? undefined,
      }),
  }),
  unreadNotificationCount: t.int({
    authScopes: allow(notificationRoles.own),
    resolve: (_root, _args, context) => notifications.unreadCount(context.services, principalOf(context)),
  }),
}));

builder.mutationFields((t) => ({
  markNotificationRead: t.prismaField({
    type: 'Notification',
    authScopes: allow(notificationRoles.own),
    args: { id: t.arg({ type: 'UUID', required: true }) },
    resolve: (query, _root, { id }, context) => notifications.markRead(context.services, principalOf(context), String(id), query),
  }),
  markAllNotificationsRead: t.int({
    description: 'Marks every unread notification of the caller read; returns how many changed.',
    authScopes: allow(notificationRoles.own),
    resolve: (_root, _args, context) => notifications.markAllRead(context.services, principalOf(context)),
  }),
}));

builder.subscriptionFields((t) => ({
  notificationAdded: t.prismaField({
    type: 'Notification',
    description: "Streams the caller's new notifications as they are created, from any API process.",
    authScopes: allow(notificationRoles.own),
    subscribe: (_root, _args, context) => {
      const userId = principalOf(context).userId;
      return context.services.bus.stream('notification.created', (event) => event.payload.userId === userId);
    },
    resolve: (query, event, _args, context) =>
      context.services.prisma.notification.findUniqueOrThrow({ ...query, where: { id: event.payload.notificationId } }),
  }),
}));
