import { allow } from '../../graphql/access.ts';
import { builder } from '../../graphql/builder.ts';
import { pagedCost } from '../../graphql/cost.ts';
import { auditRoles } from './permissions.ts';
import * as audit from './service.ts';
import { AuditLogFilterInput, AuditLogPage } from './types.ts';
import { pageArgs } from '../../graphql/pagination.ts';

builder.queryFields((t) => ({
  auditLogs: t.field({
    complexity: pagedCost(audit.AUDIT_PAGE),
    type: AuditLogPage,
    description: `Audit entries matching the filter, newest first (offset default 0, limit default ${audit.AUDIT_PAGE.defaultLimit}, max ${audit.AUDIT_PAGE.maxLimit}).`,
    authScopes: allow(auditRoles.read),
    args: {
      filter: t.arg({ type: AuditLogFilterInput, required: false }),
      ...pageArgs(t.arg),
    },
    resolve: (_root, { filter, offset, limit }, context) =>
      audit.listAuditLogs(context.services, filter, { offset: offset ?? undefined, limit: limit ?? undefined }),
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
