import { builder } from '../../graphql/builder.ts';
import { stateCountsType } from '../test-runs/state-counts.ts';
import { cappedListCost, pagedCost } from '../../graphql/cost.ts';
import { CAMPAIGN_HISTORY_MAX } from './service.ts';
import { pageType, slicedPageArgs } from '../../graphql/pagination.ts';
import type { CampaignEvent, CampaignExecution } from '../../generated/prisma/client.ts';
import { CampaignStatus } from '../../generated/prisma/enums.ts';
import '../test-runs/types.ts';
import { page, parseInput } from '../../validation.ts';

/** The tests a campaign read lists at once; larger campaigns page through them (tests_offset, tests_limit). */
export const CAMPAIGN_TEST_PAGE = { defaultLimit: 100, maxLimit: 500 } as const;
const campaignTestPage = page(CAMPAIGN_TEST_PAGE.defaultLimit, CAMPAIGN_TEST_PAGE.maxLimit);
import '../threat-actors/types.ts';
import { UserSummaryType } from '../users/types.ts';
import { progressLoader, type CampaignProgress } from './progress.ts';
import { nextOccurrence } from './schedule.ts';
import { campaignLifecycle } from './state-machine.ts';

export const CampaignStatusEnum = builder.enumType(CampaignStatus, {
  name: 'CampaignStatus',
  description: 'Where a campaign is: draft → active → completed.',
});

const CampaignStateCountsType = stateCountsType('CampaignStateCounts', "Number of the campaign's tests in each state.");

export const CampaignProgressType = builder.objectRef<CampaignProgress>('CampaignProgress').implement({
  description: "How far the campaign's tests are (every test of the campaign, retests included).",
  fields: (t) => ({
    validated: t.exposeInt('validated', { description: 'Tests in validated.' }),
    total: t.exposeInt('total', { description: 'Tests of the campaign.' }),
    percentage: t.exposeFloat('percentage', { description: 'validated / total × 100, two decimals; 0 without tests.' }),
    byState: t.field({ type: CampaignStateCountsType, resolve: (progress) => progress.byState }),
  }),
});

export const CampaignType = builder.prismaObject('Campaign', {
  description: 'A set of tests run together, optionally against one threat actor, optionally on a recurring schedule.',
  fields: (t) => ({
    id: t.exposeID('id'),
    name: t.exposeString('name'),
    description: t.exposeString('description'),
    type: t.exposeString('type', { description: 'purple (default), red, blue, threat_actor, regression, …' }),
    status: t.expose('status', { type: CampaignStatusEnum }),
    validTransitions: t.field({
      type: [CampaignStatusEnum],
      description: 'Statuses the campaign can move to from its current one.',
      resolve: (campaign) => campaignLifecycle.validTransitions(campaign.status),
    }),
    availableActions: t.stringList({
      description: 'Transition actions the table offers in the current status (roles still apply): activate, complete.',
      resolve: (campaign) => campaignLifecycle.actionsFrom(campaign.status),
    }),
    threatActorId: t.exposeID('threatActorId', { nullable: true }),
    threatActor: t.relation('threatActor', { nullable: true }),
    startDate: t.expose('startDate', { type: 'DateTime', nullable: true, description: 'First moment an occurrence may run.' }),
    endDate: t.expose('endDate', { type: 'DateTime', nullable: true, description: 'Last moment an occurrence may run.' }),
    recurrence: t.exposeString('recurrence', {
      nullable: true,
      description: 'Cron pattern (5 fields, UTC) of the occurrences; null: no recurrence.',
    }),
    nextOccurrence: t.field({
      type: 'DateTime',
      nullable: true,
      description: 'When the next occurrence is due (it runs only while the campaign is active); null when none is.',
      resolve: (campaign) => nextOccurrence(campaign),
    }),
    activatedAt: t.expose('activatedAt', { type: 'DateTime', nullable: true }),
    completedAt: t.expose('completedAt', { type: 'DateTime', nullable: true }),
    createdById: t.exposeID('createdById'),
    createdBy: t.relation('createdBy', { type: UserSummaryType }),
    version: t.exposeInt('version', { description: 'Raised on every change.' }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    updatedAt: t.expose('updatedAt', { type: 'DateTime' }),
    tests: t.relation('tests', {
      description:
        'The tests of the campaign (retests of recurring occurrences included), oldest first, a page at a time: testCount gives the total.',
      args: slicedPageArgs(t.arg, CAMPAIGN_TEST_PAGE),
      query: (args) => {
        const { offset, limit } = parseInput(campaignTestPage, {
          offset: args.offset ?? 0,
          limit: args.limit ?? CAMPAIGN_TEST_PAGE.defaultLimit,
        });
        return { orderBy: [{ createdAt: 'asc' }, { id: 'asc' }], skip: offset, take: limit };
      },
      complexity: pagedCost(CAMPAIGN_TEST_PAGE),
    }),
    testCount: t.int({
      description: 'Number of tests of the campaign.',
      resolve: async (campaign, _args, context) => (await progressLoader(context).load(campaign.id)).total,
    }),
    validatedCount: t.int({
      description: 'Number of its tests in validated.',
      resolve: async (campaign, _args, context) => (await progressLoader(context).load(campaign.id)).validated,
    }),
    progress: t.field({ type: CampaignProgressType, resolve: (campaign, _args, context) => progressLoader(context).load(campaign.id) }),
  }),
});

export const CampaignPage = pageType('CampaignPage', CampaignType);

export const CampaignEventType = builder.prismaObject('CampaignEvent', {
  description: 'One entry of a campaign history: creation, a status change, an edit, a test added or removed, a schedule, an execution.',
  fields: (t) => ({
    id: t.exposeID('id'),
    campaignId: t.exposeID('campaignId'),
    kind: t.exposeString('kind', { description: 'created, state_changed, updated, test_added, test_removed, scheduled, executed.' }),
    fromStatus: t.expose('fromStatus', { type: CampaignStatusEnum, nullable: true }),
    toStatus: t.expose('toStatus', { type: CampaignStatusEnum, nullable: true }),
    actorId: t.exposeID('actorId', { nullable: true, description: 'Null for the scheduler.' }),
    actorName: t.exposeString('actorName'),
    at: t.expose('at', { type: 'DateTime' }),
    details: t.expose('details', { type: 'JSON' }),
  }),
});

export const CampaignExecutionType = builder.prismaObject('CampaignExecution', {
  description: 'One occurrence of a recurring campaign and the retests it created.',
  fields: (t) => ({
    id: t.exposeID('id'),
    campaignId: t.exposeID('campaignId'),
    occurrence: t.expose('occurrence', { type: 'DateTime', description: 'The scheduled time this execution stands for.' }),
    startedAt: t.expose('startedAt', { type: 'DateTime' }),
    finishedAt: t.expose('finishedAt', { type: 'DateTime', nullable: true }),
    testsCreated: t.exposeInt('testsCreated'),
    testIds: t.exposeIDList('testIds', { description: 'The retests this execution created.' }),
  }),
});

export interface CampaignHistory {
  events: CampaignEvent[];
  executions: CampaignExecution[];
}

export const CampaignHistoryType = builder.objectRef<CampaignHistory>('CampaignHistory').implement({
  description: 'What happened to a campaign: its history entries and the executions of its occurrences.',
  fields: (t) => ({
    events: t.field({
      type: [CampaignEventType],
      description: `Every change (the latest ${CAMPAIGN_HISTORY_MAX}), oldest first.`,
      complexity: cappedListCost(CAMPAIGN_HISTORY_MAX),
      resolve: (history) => history.events,
    }),
    executions: t.field({
      type: [CampaignExecutionType],
      description: `Every execution (the latest ${CAMPAIGN_HISTORY_MAX}), in occurrence order.`,
      complexity: cappedListCost(CAMPAIGN_HISTORY_MAX),
      resolve: (history) => history.executions,
    }),
  }),
});

builder.prismaObjectField('Test', 'campaign', (t) =>
  t.relation('campaign', { nullable: true, description: 'The campaign the test belongs to.' }),
);

/** Most campaigns an actor lists: its latest ones. */
const ACTOR_CAMPAIGN_MAX = 200;

builder.prismaObjectField('ThreatActor', 'campaigns', (t) =>
  t.relation('campaigns', {
    description: `Campaigns run against the actor, newest first (the latest ${ACTOR_CAMPAIGN_MAX}).`,
    query: { orderBy: [{ createdAt: 'desc' }, { id: 'desc' }], take: ACTOR_CAMPAIGN_MAX },
    complexity: cappedListCost(ACTOR_CAMPAIGN_MAX),
  }),
);

export const CampaignFilterInput = builder.inputType('CampaignFilter', {
  fields: (t) => ({
    status: t.field({ type: CampaignStatusEnum, required: false }),
    type: t.string({ required: false, description: 'purple, red, blue, threat_actor, regression, …' }),
    search: t.string({ required: false, description: 'Matches name or description, case-insensitive.' }),
    dateFrom: t.field({
      type: 'DateTime',
      required: false,
      description: 'Campaigns whose period (start_date or creation, to end_date or completion) reaches this moment.',
    }),
    dateTo: t.field({ type: 'DateTime', required: false, description: 'Campaigns whose period starts by this moment.' }),
  }),
});

export const CreateCampaignInput = builder.inputType('CreateCampaignInput', {
  fields: (t) => ({
    name: t.string({ required: true }),
    description: t.string({ required: false }),
    type: t.string({ required: false, description: 'Defaults to purple.' }),
    threatActorId: t.field({ type: 'UUID', required: false }),
    startDate: t.field({ type: 'DateTime', required: false }),
    endDate: t.field({ type: 'DateTime', required: false }),
    recurrence: t.string({ required: false, description: 'Cron pattern, 5 fields, UTC, at most hourly.' }),
  }),
});

export const UpdateCampaignInput = builder.inputType('UpdateCampaignInput', {
  fields: (t) => ({
    name: t.string({ required: false }),
    description: t.string({ required: false }),
    type: t.string({ required: false }),
    threatActorId: t.field({ type: 'UUID', required: false, description: 'Null detaches the actor.' }),
  }),
});

export const AddCampaignTestInput = builder.inputType('AddCampaignTestInput', {
  fields: (t) => ({
    testId: t.field({ type: 'UUID', required: true, description: 'An existing test that belongs to no other campaign.' }),
  }),
});

export const CampaignFromThreatActorInput = builder.inputType('CampaignFromThreatActorInput', {
  fields: (t) => ({
    name: t.string({ required: false, description: 'Defaults to "<actor> (<group id>) emulation".' }),
    description: t.string({ required: false }),
  }),
});

export const CampaignScheduleInput = builder.inputType('CampaignScheduleInput', {
  fields: (t) => ({
    startDate: t.field({ type: 'DateTime', required: false, description: 'Null clears it.' }),
    endDate: t.field({ type: 'DateTime', required: false, description: 'Null clears it.' }),
    recurrence: t.string({ required: false, description: 'Cron pattern, 5 fields, UTC, at most hourly; null stops the recurrence.' }),
  }),
});
