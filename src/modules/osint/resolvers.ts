import { queryFromInfo } from '@pothos/plugin-prisma';
import { allow } from '../../graphql/access.ts';
import { builder } from '../../graphql/builder.ts';
import { actorOf } from '../../graphql/context.ts';
import { pageArgs, pagedList, pagingOf } from '../../graphql/pagination.ts';
import { OSINT_REVIEW_TRANSITIONS } from './lifecycle.ts';
import { osintRoles } from './permissions.ts';
import * as osint from './service.ts';
import { syncFeed } from './sync.ts';
import {
  CreateOsintFeedInput,
  OsintFeedHealthType,
  OsintFeedRunPage,
  OsintItemPage,
  OsintReviewStatusEnum,
  UpdateOsintFeedInput,
} from './types.ts';

builder.queryFields((t) => ({
  osintItems: t.field({
    type: OsintItemPage,
    ...pagedList(osint.OSINT_ITEM_PAGE, (paging) => `Feed items, newest first by publication, else by arrival (${paging}).`),
    authScopes: allow(osintRoles.read),
    args: {
      feedId: t.arg({ type: 'UUID', description: 'Items of this feed.' }),
      ttpId: t.arg.string({ description: 'Items mentioning this technique (T1059, T1059.001).' }),
      actor: t.arg.string({ description: 'Items mentioning this threat actor: group id (G0007), id, name or alias.' }),
      software: t.arg.string({
        description: 'Items mentioning this ATT&CK software id (S0002), written as the id or found by a name or alias.',
      }),
      from: t.arg({ type: 'DateTime', description: 'Published (else stored) at or after.' }),
      to: t.arg({ type: 'DateTime', description: 'Published (else stored) at or before.' }),
      search: t.arg.string({ description: 'Words in the title or text (case-insensitive).' }),
      review: t.arg({ type: OsintReviewStatusEnum }),
      ...pageArgs(t.arg),
    },
    resolve: (_root, args, context, info) =>
      osint.listItems(
        context.services,
        {
          feedId: args.feedId,
          ttpId: args.ttpId,
          actor: args.actor,
          software: args.software,
          from: args.from,
          to: args.to,
          search: args.search,
          review: args.review,
        },
        pagingOf(args),
        queryFromInfo({ context, info, path: ['items'] }),
      ),
  }),
  osintItem: t.prismaField({
    type: 'OsintItem',
    authScopes: allow(osintRoles.read),
    args: { id: t.arg({ type: 'UUID', required: true }) },
    resolve: (query, _root, { id }, context) => osint.getItem(context.services, String(id), query),
  }),
  osintFeeds: t.prismaField({
    type: ['OsintFeed'],
    description: 'Every feed, by name.',
    authScopes: allow(osintRoles.read),
    resolve: (query, _root, _args, context) => osint.listFeeds(context.services, query),
  }),
  osintFeed: t.prismaField({
    type: 'OsintFeed',
    authScopes: allow(osintRoles.read),
    args: { id: t.arg({ type: 'UUID', required: true }) },
    resolve: (query, _root, { id }, context) => osint.getFeed(context.services, String(id), query),
  }),
  osintFeedRuns: t.field({
    type: OsintFeedRunPage,
    ...pagedList(osint.OSINT_RUN_PAGE, 'Runs of one feed, newest first'),
    authScopes: allow(osintRoles.read),
    args: { feedId: t.arg({ type: 'UUID', required: true }), ...pageArgs(t.arg) },
    resolve: (_root, args, context, info) =>
      osint.listRuns(context.services, String(args.feedId), pagingOf(args), queryFromInfo({ context, info, path: ['items'] })),
  }),
  osintFeedHealth: t.field({
    type: [OsintFeedHealthType],
    description: 'Every feed: last fetch, items held and added, the last error and failed runs in a row.',
    authScopes: allow(osintRoles.read),
    resolve: (_root, _args, context) => osint.feedHealth(context.services),
  }),
}));

builder.mutationFields((t) => ({
  createOsintFeed: t.prismaField({
    type: 'OsintFeed',
    authScopes: allow(osintRoles.manageFeeds),
    args: { input: t.arg({ type: CreateOsintFeedInput, required: true }) },
    resolve: (query, _root, { input }, context) => osint.createFeed(context.services, actorOf(context), input, query),
  }),
  updateOsintFeed: t.prismaField({
    type: 'OsintFeed',
    authScopes: allow(osintRoles.manageFeeds),
    args: { id: t.arg({ type: 'UUID', required: true }), input: t.arg({ type: UpdateOsintFeedInput, required: true }) },
    resolve: (query, _root, { id, input }, context) => osint.updateFeed(context.services, actorOf(context), String(id), input, query),
  }),
  deleteOsintFeed: t.boolean({
    authScopes: allow(osintRoles.manageFeeds),
    args: { id: t.arg({ type: 'UUID', required: true }) },
    resolve: (_root, { id }, context) => osint.deleteFeed(context.services, actorOf(context), String(id)),
  }),
  syncOsintFeed: t.prismaField({
    type: 'OsintFeedRun',
    description:
      'Syncs the feed now and answers its run: a refused or unreadable feed is a failed run with the reason (409 SYNC_IN_PROGRESS while one runs).',
    authScopes: allow(osintRoles.syncFeed),
    args: { id: t.arg({ type: 'UUID', required: true }) },
    resolve: async (query, _root, { id }, context) => {
      const feed = await osint.getFeed(context.services, String(id), { select: { id: true } });
      const { runId } = await syncFeed(context.services, feed.id, actorOf(context), 'manual');
      return context.services.prisma.osintFeedRun.findUniqueOrThrow({ ...query, where: { id: runId } });
    },
  }),
}));

// One mutation per row of the review transition table.
for (const row of OSINT_REVIEW_TRANSITIONS) {
  builder.mutationField(row.mutation, (t) =>
    t.prismaField({
      type: 'OsintItem',
      description: `${row.summary}.`,
      authScopes: allow(row.roles),
      args: { id: t.arg({ type: 'UUID', required: true }) },
      resolve: (query, _root, { id }, context) => osint.transitionItem(context.services, actorOf(context), String(id), row.action, query),
    }),
  );
}
