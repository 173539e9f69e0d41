import { builder } from '../../graphql/builder.ts';
import { pageType } from '../../graphql/pagination.ts';

export const AuditLogType = builder.prismaObject('AuditLog', {
  description: 'One recorded change or sign-in: who did what to which record, and when.',
  fields: (t) => ({
    id: t.exposeID('id'),
    userId: t.exposeID('userId', { nullable: true, description: 'The acting user; null for the system or a deleted user.' }),
    username: t.exposeString('username', { description: 'Username at the time of the action (kept when the user is deleted).' }),
    action: t.exposeString('action', { description: 'What happened, e.g. create_technique or login_failed.' }),
    entityType: t.exposeString('entityType', { description: 'Kind of record acted on, e.g. technique.' }),
    entityId: t.exposeString('entityId', { nullable: true }),
    timestamp: t.expose('timestamp', { type: 'DateTime' }),
    details: t.expose('details', { type: 'JSON', description: 'Free-form facts about the action, e.g. the ttp_id.' }),
  }),
});

export const AuditLogPage = pageType('AuditLogPage', AuditLogType);

export const AuditLogFilterInput = builder.inputType('AuditLogFilter', {
  fields: (t) => ({
    userId: t.field({ type: 'UUID', required: false, description: 'Only entries of this user (UUID).' }),
    action: t.string({ required: false }),
    entityType: t.string({ required: false }),
    startDate: t.field({ type: 'DateTime', required: false, description: 'Only entries at or after this instant.' }),
    endDate: t.field({ type: 'DateTime', required: false, description: 'Only entries at or before this instant.' }),
  }),
});
