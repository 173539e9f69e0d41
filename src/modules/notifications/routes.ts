import { Roles } from '../../auth/roles.ts';
import { path, query, type Route } from '../../../rest-adapter/types.ts';

const FIELDS = `id event title message entityType entityId isRead readAt createdAt`;

export const notificationRoutes: Route[] = [
  {
    method: 'GET',
    path: '/notifications',
    tag: 'Notifications',
    summary: 'Own notifications, newest first (offset default 0, limit default 20, max 100)',
    roles: Roles.any,
    document: `query ($offset: Int, $limit: Int) { notifications(offset: $offset, limit: $limit) { items { ${FIELDS} } total offset limit } }`,
    variables: { offset: query('offset'), limit: query('limit') },
  },
  {
    method: 'GET',
    path: '/notifications/unread-count',
    tag: 'Notifications',
    summary: 'Number of unread notifications',
    roles: Roles.any,
    document: 'query { unread_count: unreadNotificationCount }',
    wholeData: true,
  },
  {
    method: 'PATCH',
    path: '/notifications/:id/read',
    tag: 'Notifications',
    summary: 'Mark one own notification read',
    roles: Roles.any,
    document: `mutation ($id: UUID!) { markNotificationRead(id: $id) { ${FIELDS} } }`,
    variables: { id: path('id') },
  },
  {
    method: 'POST',
    path: '/notifications/read-all',
    tag: 'Notifications',
    summary: 'Mark all own notifications read',
    roles: Roles.any,
    document: 'mutation { marked: markAllNotificationsRead }',
    wholeData: true,
  },
];
