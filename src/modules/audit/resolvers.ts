import { allow } from '../../graphql/access.ts';
import { builder } from '../../graphql/builder.ts';
import { auditRoles } from './permissions.ts';
import * as audit from './service.ts';
import { AuditLogFilterInput, AuditLogPage } from './types.ts';
import { pageArgs, pagedList, pagingOf } from '../../graphql/pagination.ts';

builder.queryFields((t) => ({
  auditLogs: t.field({
    type: AuditLogPage,
    ...pagedList(audit.AUDIT_PAGE, 'Audit entries matching the filter, newest first'),
    authScopes: allow(auditRoles.read),
    args: {
      filter: t.arg({ type: AuditLogFilterInput, required: false }),
      ...pageArgs(t.arg),
    },
    resolve: (_root, { filter, offset, limit }, context) => audit.listAuditLogs(context.services, filter, pagingOf({ offset, limit })),
  }),
  auditLogActions: t.stringList({
    description: 'Every action that occurs in the audit log, sorted.',
    authScopes: allow(auditRoles.read),
    resolve: (_root, _args, context) => audit.distinctActions(context.services),
  }),
  auditLogEntityTypes: t.stringList({
    description: 'Every entity type that occurs in the audit log, sorted.',
    authScopes: allow(auditRoles.read),
    resolve: (_root, _args, context) => audit.distinctEntityTypes(context.services),
  }),
}));
