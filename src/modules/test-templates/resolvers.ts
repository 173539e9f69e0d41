import { allow } from '../../graphql/access.ts';
import { builder } from '../../graphql/builder.ts';
import { cappedListCost } from '../../graphql/cost.ts';
import { actorOf } from '../../graphql/context.ts';
import { pageArgs, pagedList, pageType, pagingOf } from '../../graphql/pagination.ts';
import { templatesByTtpIdLoader } from './loaders.ts';

/** Most templates one technique lists (Atomic Red Team has a few dozen for the busiest technique). */
const TEMPLATES_PER_TECHNIQUE_MAX = 500;
import { templateRoles } from './permissions.ts';
import * as templates from './service.ts';
import { CreateTestTemplateInput, TemplateStatsType, TestTemplateFilterInput, TestTemplateType, UpdateTestTemplateInput } from './types.ts';

const TestTemplatePage = pageType('TestTemplatePage', TestTemplateType);

builder.queryFields((t) => ({
  testTemplates: t.field({
    type: TestTemplatePage,
    ...pagedList(templates.TEMPLATE_PAGE, 'Templates matching the filter, by technique then name'),
    authScopes: allow(templateRoles.read),
    args: {
      filter: t.arg({ type: TestTemplateFilterInput, required: false }),
      ...pageArgs(t.arg),
    },
    resolve: (_root, { filter, offset, limit }, context) =>
      templates.listTemplates(context.services, filter ?? {}, pagingOf({ offset, limit })),
  }),
  testTemplate: t.prismaField({
    type: 'TestTemplate',
    authScopes: allow(templateRoles.read),
    args: { id: t.arg({ type: 'UUID', required: true }) },
    resolve: (query, _root, { id }, context) => templates.getTemplate(context.services, String(id), query),
  }),
  testTemplateStats: t.field({
    type: TemplateStatsType,
    description: 'Totals: all, active, inactive, per source and per platform.',
    authScopes: allow(templateRoles.stats),
    resolve: (_root, _args, context) => templates.templateStats(context.services),
  }),
}));

builder.mutationFields((t) => ({
  createTestTemplate: t.prismaField({
    type: 'TestTemplate',
    description: 'Creates a template from scratch, or from a test (testId).',
    authScopes: allow(templateRoles.create),
    args: { input: t.arg({ type: CreateTestTemplateInput, required: true }) },
    resolve: (query, _root, { input }, context) => templates.createTemplate(context.services, actorOf(context), input, query),
  }),
  updateTestTemplate: t.prismaField({
    type: 'TestTemplate',
    description: 'Changes a template. Imported templates get their upstream fields back at the next import.',
    authScopes: allow(templateRoles.update),
    args: { id: t.arg({ type: 'UUID', required: true }), input: t.arg({ type: UpdateTestTemplateInput, required: true }) },
    resolve: (query, _root, { id, input }, context) =>
      templates.updateTemplate(context.services, actorOf(context), String(id), input, query),
  }),
  toggleTestTemplateActive: t.prismaField({
    type: 'TestTemplate',
    description: 'Flips the active flag of a template.',
    authScopes: allow(templateRoles.toggleActive),
    args: { id: t.arg({ type: 'UUID', required: true }) },
    resolve: (query, _root, { id }, context) => templates.toggleTemplateActive(context.services, actorOf(context), String(id), query),
  }),
  deleteTestTemplate: t.id({
    description: 'Deletes a template and returns its id; tests made from it keep their data.',
    authScopes: allow(templateRoles.delete),
    args: { id: t.arg({ type: 'UUID', required: true }) },
    resolve: (_root, { id }, context) => templates.deleteTemplate(context.services, actorOf(context), String(id)),
  }),
}));

builder.prismaObjectField('Technique', 'templates', (t) =>
  t.field({
    type: [TestTemplateType],
    description: `Test templates for this technique (active ones unless includeInactive), by name (at most ${TEMPLATES_PER_TECHNIQUE_MAX}).`,
    authScopes: allow(templateRoles.read),
    complexity: cappedListCost(TEMPLATES_PER_TECHNIQUE_MAX),
    select: { ttpId: true },
    args: { includeInactive: t.arg.boolean({ required: false, defaultValue: false }) },
    resolve: async (technique, { includeInactive }, context) => {
      const list = await templatesByTtpIdLoader(context).load(technique.ttpId);
      return (includeInactive ? list : list.filter((template) => template.isActive)).slice(0, TEMPLATES_PER_TECHNIQUE_MAX);
    },
  }),
);
