import { allow } from '../../graphql/access.ts';
import { pageArgs, pagedList, pagingOf, slicedPageArgs } from '../../graphql/pagination.ts';
import { builder } from '../../graphql/builder.ts';
import { pagedCost } from '../../graphql/cost.ts';
import { actorOf } from '../../graphql/context.ts';
import * as lessons from './lessons.ts';
import { knowledgeRoles } from './permissions.ts';
import * as playbooks from './playbooks.ts';
import { knowledgeStats } from './stats.ts';
import {
  CreateLessonInput,
  CreatePlaybookInput,
  KnowledgeStatsType,
  LessonFilterInput,
  LessonPage,
  PlaybookFilterInput,
  PlaybookPage,
  PlaybookVersionPage,
  TECHNIQUE_KNOWLEDGE_PAGE,
  UpdateLessonInput,
  UpdatePlaybookInput,
  pageQuery,
} from './types.ts';

builder.queryFields((t) => ({
  playbooks: t.field({
    type: PlaybookPage,
    ...pagedList(playbooks.PLAYBOOK_PAGE, 'Playbooks matching the filter: by relevance with a search, else most recently changed first'),
    authScopes: allow(knowledgeRoles.read),
    args: {
      filter: t.arg({ type: PlaybookFilterInput, required: false }),
      ...pageArgs(t.arg),
    },
    resolve: (_root, { filter, offset, limit }, context) => playbooks.listPlaybooks(context.services, filter, pagingOf({ offset, limit })),
  }),
  playbook: t.prismaField({
    type: 'Playbook',
    authScopes: allow(knowledgeRoles.read),
    args: { id: t.arg({ type: 'UUID', required: true }) },
    resolve: (query, _root, { id }, context) => playbooks.getPlaybook(context.services, String(id), query),
  }),
  playbookVersions: t.field({
    type: PlaybookVersionPage,
    ...pagedList(playbooks.PLAYBOOK_VERSION_PAGE, 'The earlier versions of a playbook, newest first'),
    authScopes: allow(knowledgeRoles.read),
    args: { id: t.arg({ type: 'UUID', required: true }), ...pageArgs(t.arg) },
    resolve: (_root, { id, offset, limit }, context) =>
      playbooks.listPlaybookVersions(context.services, String(id), pagingOf({ offset, limit })),
  }),
  lessons: t.field({
    type: LessonPage,
    ...pagedList(lessons.LESSON_PAGE, 'Lessons learned matching the filter: by relevance with a search, else newest first'),
    authScopes: allow(knowledgeRoles.read),
    args: {
      filter: t.arg({ type: LessonFilterInput, required: false }),
      ...pageArgs(t.arg),
    },
    resolve: (_root, { filter, offset, limit }, context) => lessons.listLessons(context.services, filter, pagingOf({ offset, limit })),
  }),
  lesson: t.prismaField({
    type: 'LessonLearned',
    authScopes: allow(knowledgeRoles.read),
    args: { id: t.arg({ type: 'UUID', required: true }) },
    resolve: (query, _root, { id }, context) => lessons.getLesson(context.services, String(id), query),
  }),
  knowledgeStats: t.field({
    type: KnowledgeStatsType,
    authScopes: allow(knowledgeRoles.read),
    resolve: (_root, _args, context) => knowledgeStats(context.services),
  }),
}));

builder.mutationFields((t) => ({
  createPlaybook: t.prismaField({
    type: 'Playbook',
    description: 'Creates a playbook at version 1.',
    authScopes: allow(knowledgeRoles.write),
    args: { input: t.arg({ type: CreatePlaybookInput, required: true }) },
    resolve: (query, _root, { input }, context) => playbooks.createPlaybook(context.services, actorOf(context), input, query),
  }),
  updatePlaybook: t.prismaField({
    type: 'Playbook',
    description: 'Changes a playbook made on its current version (else 409): the replaced state is kept as a version.',
    authScopes: allow(knowledgeRoles.write),
    args: { id: t.arg({ type: 'UUID', required: true }), input: t.arg({ type: UpdatePlaybookInput, required: true }) },
    resolve: (query, _root, { id, input }, context) =>
      playbooks.updatePlaybook(context.services, actorOf(context), String(id), input, query),
  }),
  restorePlaybookVersion: t.prismaField({
    type: 'Playbook',
    description: "Makes an earlier version's content current again, as a new version.",
    authScopes: allow(knowledgeRoles.write),
    args: { id: t.arg({ type: 'UUID', required: true }), version: t.arg.int({ required: true }) },
    resolve: (query, _root, { id, version }, context) =>
      playbooks.restorePlaybookVersion(context.services, actorOf(context), String(id), version, query),
  }),
  deletePlaybook: t.prismaField({
    type: 'Playbook',
    description: 'Deletes a playbook and its versions; answers it as it was.',
    authScopes: allow(knowledgeRoles.write),
    args: { id: t.arg({ type: 'UUID', required: true }) },
    resolve: (query, _root, { id }, context) => playbooks.deletePlaybook(context.services, actorOf(context), String(id), query),
  }),
  createLesson: t.prismaField({
    type: 'LessonLearned',
    description: 'Records a lesson learned (whatHappened and rootCause required; a technique, or the test it comes from).',
    authScopes: allow(knowledgeRoles.write),
    args: { input: t.arg({ type: CreateLessonInput, required: true }) },
    resolve: (query, _root, { input }, context) => lessons.createLesson(context.services, actorOf(context), input, query),
  }),
  updateLesson: t.prismaField({
    type: 'LessonLearned',
    authScopes: allow(knowledgeRoles.write),
    args: { id: t.arg({ type: 'UUID', required: true }), input: t.arg({ type: UpdateLessonInput, required: true }) },
    resolve: (query, _root, { id, input }, context) => lessons.updateLesson(context.services, actorOf(context), String(id), input, query),
  }),
  deleteLesson: t.prismaField({
    type: 'LessonLearned',
    description: 'Deletes a lesson learned; answers it as it was.',
    authScopes: allow(knowledgeRoles.write),
    args: { id: t.arg({ type: 'UUID', required: true }) },
    resolve: (query, _root, { id }, context) => lessons.deleteLesson(context.services, actorOf(context), String(id), query),
  }),
}));

builder.prismaObjectFields('Technique', (t) => ({
  playbooks: t.relation('playbooks', {
    description: 'Playbooks of the technique, by type then title, a page at a time.',
    args: slicedPageArgs(t.arg, TECHNIQUE_KNOWLEDGE_PAGE),
    query: (args) => ({ orderBy: [{ type: 'asc' }, { title: 'asc' }, { id: 'asc' }], ...pageQuery(args, TECHNIQUE_KNOWLEDGE_PAGE) }),
    complexity: pagedCost(TECHNIQUE_KNOWLEDGE_PAGE),
  }),
  lessons: t.relation('lessons', {
    description: 'Lessons learned about the technique, newest first, a page at a time.',
    args: slicedPageArgs(t.arg, TECHNIQUE_KNOWLEDGE_PAGE),
    query: (args) => ({ orderBy: [{ createdAt: 'desc' }, { id: 'desc' }], ...pageQuery(args, TECHNIQUE_KNOWLEDGE_PAGE) }),
    complexity: pagedCost(TECHNIQUE_KNOWLEDGE_PAGE),
  }),
}));
