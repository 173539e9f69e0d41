import { builder } from '../../graphql/builder.ts';
import { cappedListCost, pageItemsCost } from '../../graphql/cost.ts';
import type { Page } from '../../graphql/pagination.ts';
import type { Worklog } from '../../generated/prisma/client.ts';
import { UserSummaryType } from '../users/types.ts';
import { dateText, SUMMARY_ROWS_MAX, type WorklogSummary } from './service.ts';

/**
 * A worklog is readable only by its user and admins, so it is reachable only from the worklog root fields: no other
 * type (user, test, campaign) lists worklogs, and a test walks the schema to keep it so.
 */
export const WorklogObject = builder.prismaObject('Worklog', {
  description: 'Time one user spent on one day, optionally on a test or a campaign. Only its user and admins see it.',
  fields: (t) => ({
    id: t.exposeID('id'),
    userId: t.exposeID('userId'),
    user: t.relation('user', { type: UserSummaryType }),
    minutes: t.exposeInt('minutes', { description: '1 to 1440.' }),
    date: t.string({ description: 'The day worked, YYYY-MM-DD.', resolve: (entry) => dateText(entry.date) }),
    description: t.exposeString('description'),
    testId: t.exposeID('testId', { nullable: true }),
    test: t.relation('test', { nullable: true }),
    campaignId: t.exposeID('campaignId', { nullable: true }),
    campaign: t.relation('campaign', { nullable: true }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    updatedAt: t.expose('updatedAt', { type: 'DateTime' }),
  }),
});

export const WorklogPage = builder.objectRef<Page<Worklog> & { totalMinutes: number }>('WorklogPage').implement({
  fields: (t) => ({
    items: t.field({ type: [WorklogObject], complexity: pageItemsCost, resolve: (page) => page.items }),
    total: t.exposeInt('total', { description: 'Number of matching entries across all pages.' }),
    totalMinutes: t.exposeInt('totalMinutes', { description: 'Minutes of all matching entries across all pages.' }),
    offset: t.exposeInt('offset'),
    limit: t.exposeInt('limit'),
  }),
});

const UserTotal = builder.objectRef<WorklogSummary['byUser'][number]>('WorklogUserTotal').implement({
  fields: (t) => ({
    userId: t.exposeID('userId'),
    username: t.exposeString('username'),
    displayName: t.exposeString('displayName', { nullable: true }),
    minutes: t.exposeInt('minutes'),
    entries: t.exposeInt('entries'),
  }),
});

const CampaignTotal = builder.objectRef<WorklogSummary['byCampaign'][number]>('WorklogCampaignTotal').implement({
  fields: (t) => ({
    campaignId: t.exposeID('campaignId', { nullable: true, description: 'Null for the entries outside any campaign.' }),
    campaignName: t.exposeString('campaignName', { nullable: true }),
    minutes: t.exposeInt('minutes'),
    entries: t.exposeInt('entries'),
  }),
});

export const WorklogSummaryType = builder.objectRef<WorklogSummary>('WorklogSummary').implement({
  description: "Minutes logged, in all, per user and per campaign, over the entries the caller may read (admins: everyone's).",
  fields: (t) => ({
    totalMinutes: t.exposeInt('totalMinutes'),
    entries: t.exposeInt('entries'),
    byUser: t.field({
      type: [UserTotal],
      description: `Per user, most minutes first (at most ${SUMMARY_ROWS_MAX}).`,
      complexity: cappedListCost(SUMMARY_ROWS_MAX),
      resolve: (summary) => summary.byUser,
    }),
    byCampaign: t.field({
      type: [CampaignTotal],
      description: `Per campaign, most minutes first (at most ${SUMMARY_ROWS_MAX}); entries outside any campaign form one row.`,
      complexity: cappedListCost(SUMMARY_ROWS_MAX),
      resolve: (summary) => summary.byCampaign,
    }),
  }),
});

export const WorklogFilterInput = builder.inputType('WorklogFilter', {
  fields: (t) => ({
    userId: t.field({ type: 'UUID', required: false, description: "Admins only: that user's entries (default: everyone's)." }),
    from: t.string({ required: false, description: 'First day, YYYY-MM-DD (inclusive).' }),
    to: t.string({ required: false, description: 'Last day, YYYY-MM-DD (inclusive).' }),
    testId: t.field({ type: 'UUID', required: false }),
    campaignId: t.field({ type: 'UUID', required: false }),
  }),
});

export const CreateWorklogInput = builder.inputType('CreateWorklogInput', {
  fields: (t) => ({
    minutes: t.int({ required: true, description: '1 to 1440.' }),
    date: t.string({ required: true, description: 'The day worked, YYYY-MM-DD; not in the future.' }),
    description: t.string({ required: true, description: '1 to 2000 characters.' }),
    testId: t.field({ type: 'UUID', required: false }),
    campaignId: t.field({ type: 'UUID', required: false, description: "Default: the test's campaign." }),
  }),
});

export const UpdateWorklogInput = builder.inputType('UpdateWorklogInput', {
  fields: (t) => ({
    minutes: t.int({ required: false }),
    date: t.string({ required: false }),
    description: t.string({ required: false }),
    testId: t.field({ type: 'UUID', required: false, description: 'null detaches the entry from its test.' }),
    campaignId: t.field({ type: 'UUID', required: false, description: 'null detaches the entry from its campaign.' }),
  }),
});
