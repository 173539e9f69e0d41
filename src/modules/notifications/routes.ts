import type { Route } from '../../../rest-adapter/types.ts';
import { notificationRoles } from './permissions.ts';

const FIELDS = `id event title message entityType entityId isRead readAt createdAt`;

export const notificationRoutes: Route[] = [
  {
    method: 'GET',
    path: '/notifications',
    tag: 'Notifications',
    summary: 'Own notifications, newest first',
    roles: notificationRoles.own,
    document: `query ($offset: Int, $limit: Int) { notifications(offset: $offset, limit: $limit) { items { ${FIELDS} } total offset limit } }`,
  },
  {
    method: 'GET',
    path: '/notifications/unread-count',
    tag: 'Notifications',
    summary: 'Number of unread notifications',
    roles: notificationRoles.own,
    document: 'query { unread_count: unreadNotificationCount }',
    wholeData: true,
  },
  {
    method: 'PATCH',
    path: '/notifications/:id/read',
    tag: 'Notifications',
    summary: 'Mark one own notification read',
    roles: notificationRoles.own,
    document: `mutation ($id: UUID!) { markNotificationRead(id: $id) { ${FIELDS} } }`,
  },
  {
    method: 'POST',
    path: '/notifications/read-all',
    tag: 'Notifications',
    summary: 'Mark all own notifications read',
    roles: notificationRoles.own,
    document: 'mutation { marked: markAllNotificationsRead }',
    wholeData: true,
  },
];
