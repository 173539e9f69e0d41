import { builder } from '../../graphql/builder.ts';
import { pagedCost } from '../../graphql/cost.ts';
import { pageType, slicedPageArgs } from '../../graphql/pagination.ts';
import { PlaybookType, Severity } from '../../generated/prisma/enums.ts';
import { page, parseInput } from '../../validation.ts';
import { UserSummaryType } from '../users/types.ts';
import { PLAYBOOK_VERSION_PAGE } from './playbooks.ts';
import type { KnowledgeStats } from './stats.ts';

export const PlaybookTypeEnum = builder.enumType(PlaybookType, {
  name: 'PlaybookType',
  description: 'What a playbook is for: executing the technique, detecting it, responding, hunting, or remediating.',
});

export const LessonSeverityEnum = builder.enumType(Severity, { name: 'LessonSeverity', description: 'How serious a lesson is.' });

/** The playbooks and lessons a technique lists at once; the REST single read asks for the maximum. */
export { TECHNIQUE_KNOWLEDGE_PAGE } from '../techniques/service.ts';

/** `skip`/`take` of a paged relation, checked against its limits (400 VALIDATION_ERROR beyond them). */
export function pageQuery(args: { offset?: number | null; limit?: number | null }, limits: { defaultLimit: number; maxLimit: number }) {
  const { offset, limit } = parseInput(page(limits.defaultLimit, limits.maxLimit), {
    offset: args.offset ?? 0,
    limit: args.limit ?? limits.defaultLimit,
  });
  return { skip: offset, take: limit };
}

/** The ATT&CK id of the technique a playbook or a lesson is about, read with it. */
const TECHNIQUE_TTP_ID = {
  description: "The technique's ttp id.",
  select: { technique: { select: { ttpId: true } } },
  resolve: (row: { technique: { ttpId: string } }) => row.technique.ttpId,
} as const;

export const PlaybookObject = builder.prismaObject('Playbook', {
  description: 'How to execute, detect, respond to, hunt or remediate one technique. Every change makes a new version.',
  fields: (t) => ({
    id: t.exposeID('id'),
    techniqueId: t.exposeID('techniqueId'),
    ttpId: t.string(TECHNIQUE_TTP_ID),
    technique: t.relation('technique'),
    type: t.expose('type', { type: PlaybookTypeEnum }),
    title: t.exposeString('title'),
    content: t.exposeString('content', { description: 'Markdown.' }),
    tags: t.exposeStringList('tags'),
    version: t.exposeInt('version', {
      description: 'The current version: 1 at creation, raised by every change and restore. Send it back with a change.',
    }),
    restoredFrom: t.exposeInt('restoredFrom', { nullable: true, description: 'The earlier version this one restored, if any.' }),
    createdById: t.exposeID('createdById', { nullable: true }),
    createdBy: t.relation('createdBy', { type: UserSummaryType, nullable: true }),
    updatedById: t.exposeID('updatedById', { nullable: true, description: 'Who made the current version.' }),
    updatedBy: t.relation('updatedBy', { type: UserSummaryType, nullable: true }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    updatedAt: t.expose('updatedAt', { type: 'DateTime', description: 'When the current version was made.' }),
    versions: t.relation('versions', {
      description: 'The earlier versions, newest first, a page at a time (the current one is the playbook itself).',
      args: slicedPageArgs(t.arg, PLAYBOOK_VERSION_PAGE),
      query: (args) => ({ orderBy: { version: 'desc' }, ...pageQuery(args, PLAYBOOK_VERSION_PAGE) }),
      complexity: pagedCost(PLAYBOOK_VERSION_PAGE),
    }),
  }),
});

export const PlaybookVersionObject = builder.prismaObject('PlaybookVersion', {
  description: 'An earlier version of a playbook, as it was until a change or a restore replaced it. Never changes.',
  fields: (t) => ({
    id: t.exposeID('id'),
    playbookId: t.exposeID('playbookId'),
    version: t.exposeInt('version'),
    techniqueId: t.exposeID('techniqueId'),
    type: t.expose('type', { type: PlaybookTypeEnum }),
    title: t.exposeString('title'),
    content: t.exposeString('content', { description: 'Markdown.' }),
    tags: t.exposeStringList('tags'),
    restoredFrom: t.exposeInt('restoredFrom', { nullable: true, description: 'The earlier version this one restored, if any.' }),
    authorId: t.exposeID('authorId', { nullable: true, description: 'Who made this version.' }),
    author: t.relation('author', { type: UserSummaryType, nullable: true }),
    authoredAt: t.expose('authoredAt', { type: 'DateTime', description: 'When this version was made.' }),
    replacedAt: t.expose('replacedAt', { type: 'DateTime', description: 'When the next version replaced it.' }),
  }),
});

export const LessonObject = builder.prismaObject('LessonLearned', {
  description: 'What a test or campaign taught about a technique: what happened, why, and what to do.',
  fields: (t) => ({
    id: t.exposeID('id'),
    techniqueId: t.exposeID('techniqueId'),
    ttpId: t.string(TECHNIQUE_TTP_ID),
    technique: t.relation('technique'),
    testId: t.exposeID('testId', { nullable: true }),
    test: t.relation('test', { nullable: true }),
    campaignId: t.exposeID('campaignId', { nullable: true }),
    campaign: t.relation('campaign', { nullable: true }),
    severity: t.expose('severity', { type: LessonSeverityEnum }),
    title: t.exposeString('title'),
    whatHappened: t.exposeString('whatHappened'),
    rootCause: t.exposeString('rootCause'),
    recommendations: t.exposeString('recommendations'),
    createdById: t.exposeID('createdById', { nullable: true }),
    createdBy: t.relation('createdBy', { type: UserSummaryType, nullable: true }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    updatedAt: t.expose('updatedAt', { type: 'DateTime' }),
  }),
});

export const PlaybookPage = pageType('PlaybookPage', PlaybookObject);
export const PlaybookVersionPage = pageType('PlaybookVersionPage', PlaybookVersionObject);
export const LessonPage = pageType('LessonPage', LessonObject);

const PlaybookTypeCounts = builder.objectRef<Record<PlaybookType, number>>('PlaybookTypeCounts').implement({
  description: 'Playbooks of each type (every type, zeros included).',
  fields: (t) => Object.fromEntries(Object.values(PlaybookType).map((type) => [type, t.int({ resolve: (counts) => counts[type] })])),
});

const SeverityCounts = builder.objectRef<Record<Severity, number>>('LessonSeverityCounts').implement({
  description: 'Lessons of each severity (every severity, zeros included).',
  fields: (t) =>
    Object.fromEntries(Object.values(Severity).map((severity) => [severity, t.int({ resolve: (counts) => counts[severity] })])),
});

const PlaybookStats = builder.objectRef<KnowledgeStats['playbooks']>('PlaybookStats').implement({
  fields: (t) => ({
    total: t.exposeInt('total'),
    byType: t.field({ type: PlaybookTypeCounts, resolve: (stats) => stats.byType }),
  }),
});

const LessonStats = builder.objectRef<KnowledgeStats['lessons']>('LessonStats').implement({
  fields: (t) => ({
    total: t.exposeInt('total'),
    bySeverity: t.field({ type: SeverityCounts, resolve: (stats) => stats.bySeverity }),
  }),
});

export const KnowledgeStatsType = builder.objectRef<KnowledgeStats>('KnowledgeStats').implement({
  description: 'Playbooks by type and lessons learned by severity.',
  fields: (t) => ({
    playbooks: t.field({ type: PlaybookStats, resolve: (stats) => stats.playbooks }),
    lessons: t.field({ type: LessonStats, resolve: (stats) => stats.lessons }),
  }),
});

const TECHNIQUE_FILTER = 'The technique, by id (UUID) or ttp id (T1059.001).';
const SEARCH =
  'Full-text search (English stemming; "quoted phrases", or, -excluded words). Results are ranked: title matches first, then by relevance.';

export const PlaybookFilterInput = builder.inputType('PlaybookFilter', {
  fields: (t) => ({
    technique: t.string({ required: false, description: TECHNIQUE_FILTER }),
    type: t.field({ type: PlaybookTypeEnum, required: false }),
    search: t.string({ required: false, description: `${SEARCH} Searches title, tags and content.` }),
  }),
});

export const CreatePlaybookInput = builder.inputType('CreatePlaybookInput', {
  fields: (t) => ({
    techniqueId: t.string({ required: true, description: 'The technique: its UUID or its ATT&CK id (T1003.001).' }),
    type: t.field({ type: PlaybookTypeEnum, required: true }),
    title: t.string({ required: true, description: '1 to 300 characters.' }),
    content: t.string({ required: false, description: 'Markdown, at most 100,000 characters.' }),
    tags: t.stringList({ required: false, description: 'At most 50, each 1 to 64 characters; duplicates are dropped.' }),
  }),
});

export const UpdatePlaybookInput = builder.inputType('UpdatePlaybookInput', {
  description: 'A change to a playbook; it becomes a new version.',
  fields: (t) => ({
    version: t.int({
      required: true,
      description: 'The version the change was made on (as read). A playbook changed since answers 409 CONFLICT.',
    }),
    techniqueId: t.string({ required: false, description: 'The technique: its UUID or its ATT&CK id (T1003.001).' }),
    type: t.field({ type: PlaybookTypeEnum, required: false }),
    title: t.string({ required: false }),
    content: t.string({ required: false }),
    tags: t.stringList({ required: false }),
  }),
});

export const LessonFilterInput = builder.inputType('LessonFilter', {
  fields: (t) => ({
    technique: t.string({ required: false, description: TECHNIQUE_FILTER }),
    severity: t.field({ type: LessonSeverityEnum, required: false }),
    testId: t.field({ type: 'UUID', required: false }),
    campaignId: t.field({ type: 'UUID', required: false }),
    search: t.string({ required: false, description: `${SEARCH} Searches title, what happened, root cause and recommendations.` }),
  }),
});

export const CreateLessonInput = builder.inputType('CreateLessonInput', {
  fields: (t) => ({
    whatHappened: t.string({ required: true }),
    rootCause: t.string({ required: true }),
    recommendations: t.string({ required: false }),
    techniqueId: t.string({
      required: false,
      description: "The technique: its UUID or its ATT&CK id (T1003.001). Required unless testId is given (the test's technique).",
    }),
    testId: t.field({ type: 'UUID', required: false, description: 'The test the lesson comes from.' }),
    campaignId: t.field({ type: 'UUID', required: false, description: "Default: the test's campaign." }),
    severity: t.field({ type: LessonSeverityEnum, required: false, description: 'Default medium.' }),
    title: t.string({ required: false, description: 'Default: the first line of whatHappened (120 characters).' }),
  }),
});

export const UpdateLessonInput = builder.inputType('UpdateLessonInput', {
  fields: (t) => ({
    whatHappened: t.string({ required: false }),
    rootCause: t.string({ required: false }),
    recommendations: t.string({ required: false }),
    techniqueId: t.string({ required: false, description: 'The technique: its UUID or its ATT&CK id (T1003.001).' }),
    testId: t.field({ type: 'UUID', required: false, description: 'null detaches the lesson from its test.' }),
    campaignId: t.field({ type: 'UUID', required: false, description: 'null detaches the lesson from its campaign.' }),
    severity: t.field({ type: LessonSeverityEnum, required: false }),
    title: t.string({ required: false }),
  }),
});
