import { grants } from '../../auth/access.ts';
import { allow, anyone } from '../../graphql/access.ts';
import { builder } from '../../graphql/builder.ts';
import { principalOf } from '../../graphql/context.ts';
import { pageArgs, pagedList, pagingOf } from '../../graphql/pagination.ts';
import * as connections from './connections.ts';
import * as issues from './issues.ts';
import { trackerRoles } from './permissions.ts';
import { fileNow, receiveWebhook, requestConnectionSync, syncLink } from './sync.ts';
import {
  CreateTrackerConnectionInput,
  CreateTrackerIssueInput,
  TrackerIssueResult,
  TrackerIssueType,
  TrackerLinkStatusEnum,
  TrackerSyncResult,
  UpdateTrackerConnectionInput,
} from './types.ts';

TrackerIssueResult.implement({
  description: 'The tracker issue of a subject, and whether this call created it.',
  fields: (t) => ({
    created: t.exposeBoolean('created', { description: 'False when the subject already had an issue (nothing new was filed).' }),
    issue: t.prismaField({
      type: 'TrackerLink',
      resolve: (query, result, _args, context) =>
        context.services.prisma.trackerLink.findUniqueOrThrow({ ...query, where: { id: result.linkId } }),
    }),
  }),
});

builder.prismaObjectField('Test', 'trackerIssue', (t) =>
  t.field({
    type: TrackerIssueType,
    nullable: true,
    description: "The tracker issue of the test's remediation, with its status; null when none was opened.",
    select: (_args, _context, nested) => ({ trackerLinks: nested({ where: { subjectType: 'test' as const }, take: 1 }) }),
    resolve: (test) => test.trackerLinks[0] ?? null,
  }),
);

builder.prismaObjectField('Test', 'canCreateTrackerIssue', (t) =>
  t.boolean({
    description:
      "Whether the caller may open this test's tracker issue now: a lead, a remediation to track (rejected, or not or partially detected), no issue yet.",
    select: {
      state: true,
      detectionResult: true,
      trackerLinks: { where: { subjectType: 'test' as const }, take: 1, select: { id: true } },
    },
    resolve: (test, _args, context) =>
      grants(context.auth.principal ?? null, allow(trackerRoles.issues).access) && !test.trackerLinks.length && issues.hasRemediation(test),
  }),
);

builder.queryFields((t) => ({
  trackerConnections: t.prismaField({
    type: ['TrackerConnection'],
    ...pagedList(connections.CONNECTION_PAGE, (paging) => `Issue-tracker connections, newest first (${paging}). Admins only.`),
    authScopes: allow(trackerRoles.manage),
    args: { ...pageArgs(t.arg) },
    resolve: (query, _root, args, context) => connections.listConnections(context.services, pagingOf(args), query),
  }),
  trackerConnection: t.prismaField({
    type: 'TrackerConnection',
    authScopes: allow(trackerRoles.manage),
    args: { id: t.arg({ type: 'UUID', required: true }) },
    resolve: (query, _root, { id }, context) => connections.getConnection(context.services, String(id), query),
  }),
  trackerIssues: t.prismaField({
    type: ['TrackerLink'],
    ...pagedList(issues.ISSUE_PAGE, (paging) => `Linked tracker issues, newest first (${paging}), by status or connection.`),
    authScopes: allow(trackerRoles.issues),
    args: { ...pageArgs(t.arg), status: t.arg({ type: TrackerLinkStatusEnum }), connectionId: t.arg({ type: 'UUID' }) },
    resolve: (query, _root, args, context) =>
      issues.listIssues(context.services, { ...pagingOf(args), status: args.status, connectionId: args.connectionId }, query),
  }),
  trackerIssue: t.prismaField({
    type: 'TrackerLink',
    authScopes: allow(trackerRoles.issues),
    args: { id: t.arg({ type: 'UUID', required: true }) },
    resolve: (query, _root, { id }, context) => issues.getIssue(context.services, String(id), query),
  }),
}));

builder.mutationFields((t) => ({
  createTrackerConnection: t.prismaField({
    type: 'TrackerConnection',
    authScopes: allow(trackerRoles.manage),
    args: { input: t.arg({ type: CreateTrackerConnectionInput, required: true }) },
    resolve: (query, _root, { input }, context) => connections.createConnection(context.services, principalOf(context), input, query),
  }),
  updateTrackerConnection: t.prismaField({
    type: 'TrackerConnection',
    authScopes: allow(trackerRoles.manage),
    args: { id: t.arg({ type: 'UUID', required: true }), input: t.arg({ type: UpdateTrackerConnectionInput, required: true }) },
    resolve: (query, _root, { id, input }, context) =>
      connections.updateConnection(context.services, principalOf(context), String(id), input, query),
  }),
  deleteTrackerConnection: t.boolean({
    description: 'Deletes a connection and its issue links (the issues stay in the tracker).',
    authScopes: allow(trackerRoles.manage),
    args: { id: t.arg({ type: 'UUID', required: true }) },
    resolve: (_root, { id }, context) => connections.deleteConnection(context.services, principalOf(context), String(id)),
  }),
  syncTrackerConnection: t.field({
    type: TrackerSyncResult,
    description: 'Queues a sync of every linked issue of the connection.',
    authScopes: allow(trackerRoles.manage),
    args: { id: t.arg({ type: 'UUID', required: true }) },
    resolve: (_root, { id }, context) => requestConnectionSync(context.services, String(id)),
  }),
  createTrackerIssue: t.field({
    type: TrackerIssueResult,
    description:
      'Opens the tracker issue of a test remediation, an alert or a revalidation-queue entry, once per subject: a second call answers the existing issue. ' +
      'When the tracker cannot be reached the issue stays pending (lastError says why) and is filed by the sync.',
    authScopes: allow(trackerRoles.issues),
    args: { input: t.arg({ type: CreateTrackerIssueInput, required: true }) },
    resolve: (_root, { input }, context) =>
      issues.createIssue(context.services, principalOf(context), input, (linkId) => fileNow(context.services, linkId)),
  }),
  syncTrackerIssue: t.prismaField({
    type: 'TrackerLink',
    description: 'Reads the issue from the tracker now and applies its status; a tracker failure shows in lastError.',
    authScopes: allow(trackerRoles.issues),
    args: { id: t.arg({ type: 'UUID', required: true }) },
    resolve: async (query, _root, { id }, context) => {
      await issues.getIssue(context.services, String(id), { select: { id: true } });
      await syncLink(context.services, String(id));
      return issues.getIssue(context.services, String(id), query);
    },
  }),
}));

builder.mutationField('receiveTrackerWebhook', (t) =>
  t.field({
    type: TrackerSyncResult,
    description:
      'An inbound tracker webhook (REST: POST /tracker/webhooks/{connection_id}): `payload` is the raw body, `signature` the ' +
      '`X-Hub-Signature-256` (GitHub) or `X-Hub-Signature` (Jira) header; a valid one queues the sync of the named issue.',
    authScopes: anyone,
    args: {
      connectionId: t.arg({ type: 'UUID', required: true }),
      payload: t.arg.string({ required: true }),
      signature: t.arg.string({ required: false }),
    },
    resolve: (_root, args, context) =>
      receiveWebhook(context.services, String(args.connectionId), Buffer.from(args.payload, 'utf8'), args.signature ?? undefined),
  }),
);
