import type { Route } from '../../../rest-adapter/types.ts';
import { auditRoles } from './permissions.ts';

const FIELDS = `id userId username action entityType entityId timestamp details`;

export const auditRoutes: Route[] = [
  {
    method: 'GET',
    path: '/audit-logs',
    tag: 'Audit logs',
    summary: 'Audit entries, newest first (filters user_id, action, entity_type, start_date, end_date)',
    roles: auditRoles.read,
    document: `query ($userId: UUID, $action: String, $entityType: String, $startDate: DateTime, $endDate: DateTime, $offset: Int, $limit: Int) {
      auditLogs(filter: { userId: $userId, action: $action, entityType: $entityType, startDate: $startDate, endDate: $endDate }, offset: $offset, limit: $limit) {
        items { ${FIELDS} } total offset limit
      }
    }`,
  },
  {
    method: 'GET',
    path: '/audit-logs/actions',
    tag: 'Audit logs',
    summary: 'Distinct action types, sorted',
    roles: auditRoles.read,
    document: 'query { auditLogActions }',
  },
  {
    method: 'GET',
    path: '/audit-logs/entity-types',
    tag: 'Audit logs',
    summary: 'Distinct entity types, sorted',
    roles: auditRoles.read,
    document: 'query { auditLogEntityTypes }',
  },
];
