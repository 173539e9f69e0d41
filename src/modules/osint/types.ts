import { builder } from '../../graphql/builder.ts';
import { cappedListCost } from '../../graphql/cost.ts';
import { pageType } from '../../graphql/pagination.ts';
import { OsintFeedKind, OsintReviewStatus } from '../../generated/prisma/enums.ts';
import '../threat-actors/types.ts';
import { SyncStatusEnum as SyncStatusRef } from '../data-sources/types.ts';
import { osintReviewLifecycle } from './lifecycle.ts';
import type { FeedHealth } from './service.ts';

/** Most linked techniques or actors one item lists (all ids mentioned are in `mentionedTtps` and `mentionedGroups`). */
const ITEM_LINKS_MAX = 20;

export const OsintFeedKindEnum = builder.enumType(OsintFeedKind, {
  name: 'OsintFeedKind',
  description: 'rss: RSS 2.0; atom: Atom 1.0; stix: a STIX 2.1 bundle (JSON); taxii: a TAXII 2.1 collection.',
});
export const OsintReviewStatusEnum = builder.enumType(OsintReviewStatus, {
  name: 'OsintReviewStatus',
  description:
    'not_flagged: mentions no technique lacking validated coverage; flagged → reviewed or dismissed (either may be reopened to flagged).',
});

export const OsintFeedRunType = builder.prismaObject('OsintFeedRun', {
  description: 'One sync of a feed: what it read, added and flagged, and what it refused or neutralised, in plain words.',
  fields: (t) => ({
    id: t.exposeID('id'),
    feedId: t.exposeID('feedId'),
    trigger: t.exposeString('trigger', { description: 'manual or schedule.' }),
    status: t.field({ type: SyncStatusRef, select: { status: true }, resolve: (run) => run.status }),
    startedAt: t.expose('startedAt', { type: 'DateTime' }),
    finishedAt: t.expose('finishedAt', { type: 'DateTime', nullable: true }),
    itemsSeen: t.exposeInt('itemsSeen', { description: 'Items the feed gave.' }),
    itemsAdded: t.exposeInt('itemsAdded', { description: 'Items not stored before.' }),
    flagged: t.exposeInt('flagged', { description: 'Techniques without validated coverage this run newly flagged for review.' }),
    notes: t.exposeStringList('notes', {
      description: 'What was neutralised or skipped, e.g. "2 items: markup removed from the title or text".',
    }),
    error: t.exposeString('error', { nullable: true, description: 'Why the run failed, in plain words.' }),
    triggeredById: t.exposeID('triggeredById', { nullable: true }),
  }),
});

export const OsintFeedType = builder.prismaObject('OsintFeed', {
  description: 'A threat-intelligence feed: RSS, Atom, a STIX 2.1 bundle or a TAXII 2.1 collection.',
  fields: (t) => ({
    id: t.exposeID('id'),
    name: t.exposeString('name'),
    kind: t.expose('kind', { type: OsintFeedKindEnum }),
    location: t.exposeString('location', {
      description: 'http(s) URL, file: URL or absolute path; for TAXII the discovery or API root URL.',
    }),
    collection: t.exposeString('collection', { nullable: true, description: 'TAXII only: the collection id (or title) to read.' }),
    addedAfter: t.exposeString('addedAfter', {
      nullable: true,
      description:
        "TAXII only: the server's X-TAXII-Date-Added-Last at the last sync; the next sync asks only for objects added after it (null: from the start).",
    }),
    enabled: t.exposeBoolean('enabled'),
    schedule: t.exposeString('schedule', { nullable: true, description: 'cron pattern (UTC), at most hourly; null: on request only.' }),
    status: t.field({ type: SyncStatusRef, select: { status: true }, resolve: (feed) => feed.status }),
    error: t.exposeString('error', { nullable: true, description: 'Why the last sync failed, in plain words.' }),
    lastRunAt: t.expose('lastRunAt', { type: 'DateTime', nullable: true }),
    lastSuccessAt: t.expose('lastSuccessAt', { type: 'DateTime', nullable: true }),
    itemCount: t.relationCount('items', { description: 'Items stored from the feed.' }),
    lastRun: t.relation('runs', {
      description: 'The latest run (a list of at most one).',
      query: { orderBy: [{ startedAt: 'desc' }, { id: 'desc' }], take: 1 },
      complexity: cappedListCost(1),
    }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    updatedAt: t.expose('updatedAt', { type: 'DateTime' }),
  }),
});

export const OsintItemTechniqueType = builder.prismaObject('OsintItemTechnique', {
  description: 'A catalog technique an item mentions (a revoked id linked to its successor where the catalog knows it).',
  fields: (t) => ({
    mentioned: t.exposeString('mentioned', { description: 'The id as the item wrote it.' }),
    techniqueId: t.exposeID('techniqueId'),
    ttpId: t.string({ select: { technique: { select: { ttpId: true } } }, resolve: (link) => link.technique.ttpId }),
    name: t.string({ select: { technique: { select: { name: true } } }, resolve: (link) => link.technique.name }),
    technique: t.relation('technique'),
  }),
});

export const OsintItemActorType = builder.prismaObject('OsintItemActor', {
  description: 'A threat actor an item mentions by group id, name or alias.',
  fields: (t) => ({
    mentioned: t.exposeString('mentioned', { description: 'The group id, name or alias as the item wrote it.' }),
    actorId: t.exposeID('actorId'),
    name: t.string({ select: { actor: { select: { name: true } } }, resolve: (link) => link.actor.name }),
    externalId: t.string({ nullable: true, select: { actor: { select: { externalId: true } } }, resolve: (link) => link.actor.externalId }),
    actor: t.relation('actor'),
  }),
});

export const OsintItemType = builder.prismaObject('OsintItem', {
  description: 'One feed item, stored once per feed and key, with the techniques, actors, software and CVEs found in it.',
  fields: (t) => ({
    id: t.exposeID('id'),
    feedId: t.exposeID('feedId'),
    feedName: t.string({ select: { feed: { select: { name: true } } }, resolve: (item) => item.feed.name }),
    key: t.exposeString('key', { description: 'guid, link or STIX id: what makes the item unique within its feed.' }),
    title: t.exposeString('title', { description: 'Plain text: markup is removed on import.' }),
    summary: t.exposeString('summary', { description: 'Plain text, at most 5000 characters.' }),
    link: t.exposeString('link', { nullable: true, description: 'http(s) only.' }),
    publishedAt: t.expose('publishedAt', { type: 'DateTime', nullable: true }),
    createdAt: t.expose('createdAt', { type: 'DateTime', description: 'When the item was stored.' }),
    mentionedTtps: t.exposeStringList('techniqueIds', { description: 'Every technique id the item mentions, as written.' }),
    mentionedGroups: t.exposeStringList('groupIds', {
      description: 'ATT&CK group ids mentioned (G0007): written as ids, or found by the name or an alias of a catalog threat actor.',
    }),
    mentionedSoftware: t.exposeStringList('softwareIds', {
      description: 'ATT&CK software ids mentioned (S0002): written as ids, or found by the name or an alias of catalog software.',
    }),
    cves: t.exposeStringList('cveIds', { description: 'CVE ids mentioned, upper case.' }),
    review: t.expose('review', { type: OsintReviewStatusEnum }),
    validTransitions: t.stringList({
      select: { review: true },
      description: 'Review statuses the item can move to.',
      resolve: (item) => osintReviewLifecycle.validTransitions(item.review),
    }),
    reviewedAt: t.expose('reviewedAt', { type: 'DateTime', nullable: true }),
    reviewedById: t.exposeID('reviewedById', { nullable: true }),
    techniques: t.relation('techniques', {
      query: { orderBy: { mentioned: 'asc' }, take: ITEM_LINKS_MAX },
      complexity: cappedListCost(ITEM_LINKS_MAX),
    }),
    actors: t.relation('actors', {
      query: { orderBy: { mentioned: 'asc' }, take: ITEM_LINKS_MAX },
      complexity: cappedListCost(ITEM_LINKS_MAX),
    }),
  }),
});

export const OsintItemPage = pageType('OsintItemPage', OsintItemType);
export const OsintFeedRunPage = pageType('OsintFeedRunPage', OsintFeedRunType);

export const OsintFeedHealthType = builder.objectRef<FeedHealth>('OsintFeedHealth').implement({
  description: 'How a feed is doing: last fetch, items held and added, errors.',
  fields: (t) => ({
    feedId: t.exposeID('feedId'),
    name: t.exposeString('name'),
    kind: t.field({ type: OsintFeedKindEnum, resolve: (health) => health.kind }),
    enabled: t.exposeBoolean('enabled'),
    status: t.exposeString('status'),
    lastRunAt: t.expose('lastRunAt', { type: 'DateTime', nullable: true }),
    lastSuccessAt: t.expose('lastSuccessAt', { type: 'DateTime', nullable: true }),
    error: t.exposeString('error', { nullable: true }),
    itemCount: t.exposeInt('itemCount'),
    itemsAddedLastRun: t.exposeInt('itemsAddedLastRun', { nullable: true }),
    itemsAddedLast7Days: t.exposeInt('itemsAddedLast7Days'),
    failedRunsInARow: t.exposeInt('failedRunsInARow', { description: 'Failed runs since the last successful one.' }),
  }),
});

export const CreateOsintFeedInput = builder.inputType('CreateOsintFeedInput', {
  fields: (t) => ({
    name: t.string({ required: true }),
    kind: t.field({ type: OsintFeedKindEnum, required: true }),
    location: t.string({ required: true, description: 'http(s) URL (SOURCE_ALLOWED_HOSTS applies), file: URL or absolute path.' }),
    collection: t.string({ required: false, description: 'TAXII only: the collection id or title.' }),
    schedule: t.string({ required: false, description: 'cron pattern (UTC), at most hourly; null or empty: on request only.' }),
    enabled: t.boolean({ required: false }),
  }),
});
export const UpdateOsintFeedInput = builder.inputType('UpdateOsintFeedInput', {
  fields: (t) => ({
    name: t.string({ required: false }),
    kind: t.field({ type: OsintFeedKindEnum, required: false }),
    location: t.string({ required: false }),
    collection: t.string({ required: false }),
    schedule: t.string({ required: false }),
    enabled: t.boolean({ required: false }),
  }),
});
