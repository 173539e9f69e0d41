import { allow } from '../../graphql/access.ts';
import { builder } from '../../graphql/builder.ts';
import { pageArgs, pagedList, pagingOf, sliceOfPage, slicedPageArgs } from '../../graphql/pagination.ts';
import { cappedListCost, pagedCost } from '../../graphql/cost.ts';
import { actorOf } from '../../graphql/context.ts';
import { evaluateDetectionRule } from './evaluations.ts';
import { RULES_PER_TECHNIQUE_MAX, rulesByTechnique } from './loaders.ts';

/** The rules a technique lists at once. */
const TECHNIQUE_RULE_PAGE = { defaultLimit: 50, maxLimit: RULES_PER_TECHNIQUE_MAX } as const;

/** Most evaluations one test lists: its latest. */
const TEST_EVALUATION_MAX = 500;
import { detectionRuleRoles } from './permissions.ts';
import * as rules from './service.ts';
import {
  CreateDetectionRuleInput,
  DetectionRuleFilterInput,
  DetectionRulePage,
  DetectionRuleType,
  EvaluateDetectionRuleInput,
  UpdateDetectionRuleInput,
} from './types.ts';

builder.queryFields((t) => ({
  detectionRules: t.field({
    type: DetectionRulePage,
    ...pagedList(rules.DETECTION_RULE_PAGE, 'Detection rules matching the filter, by title'),
    authScopes: allow(detectionRuleRoles.read),
    args: {
      filter: t.arg({ type: DetectionRuleFilterInput, required: false }),
      ...pageArgs(t.arg),
    },
    resolve: (_root, { filter, offset, limit }, context) =>
      rules.listDetectionRules(context.services, filter ?? {}, pagingOf({ offset, limit })),
  }),
  detectionRule: t.prismaField({
    type: 'DetectionRule',
    authScopes: allow(detectionRuleRoles.read),
    args: { id: t.arg({ type: 'UUID', required: true }) },
    resolve: (query, _root, { id }, context) => rules.getDetectionRule(context.services, String(id), query),
  }),
}));

builder.mutationFields((t) => ({
  createDetectionRule: t.prismaField({
    type: 'DetectionRule',
    description: 'Creates a rule (source custom unless named; sigma is reserved for the Sigma import).',
    authScopes: allow(detectionRuleRoles.create),
    args: { input: t.arg({ type: CreateDetectionRuleInput, required: true }) },
    resolve: (query, _root, { input }, context) => rules.createDetectionRule(context.services, actorOf(context), input, query),
  }),
  updateDetectionRule: t.prismaField({
    type: 'DetectionRule',
    description: 'Changes a rule; source and external id stay. A Sigma re-import restores the upstream fields of imported rules.',
    authScopes: allow(detectionRuleRoles.update),
    args: { id: t.arg({ type: 'UUID', required: true }), input: t.arg({ type: UpdateDetectionRuleInput, required: true }) },
    resolve: (query, _root, { id, input }, context) =>
      rules.updateDetectionRule(context.services, actorOf(context), String(id), input, query),
  }),
  deleteDetectionRule: t.prismaField({
    type: 'DetectionRule',
    description: 'Deletes a rule and answers it as it was. Evaluations keep the rule title, source, external id and author.',
    authScopes: allow(detectionRuleRoles.delete),
    args: { id: t.arg({ type: 'UUID', required: true }) },
    resolve: (query, _root, { id }, context) => rules.deleteDetectionRule(context.services, actorOf(context), String(id), query),
  }),
  evaluateDetectionRule: t.prismaField({
    type: 'DetectionEvaluation',
    description: 'Records whether a rule triggered during a test (test in blue_evaluating, in_review, validated or rejected).',
    authScopes: allow(detectionRuleRoles.evaluate),
    args: { input: t.arg({ type: EvaluateDetectionRuleInput, required: true }) },
    resolve: (query, _root, { input }, context) => evaluateDetectionRule(context.services, actorOf(context), input, query),
  }),
}));

builder.prismaObjectField('Technique', 'detectionRules', (t) =>
  t.field({
    type: [DetectionRuleType],
    description: 'Active detection rules naming this technique (exact id), by title, a page at a time.',
    args: slicedPageArgs(t.arg, TECHNIQUE_RULE_PAGE),
    complexity: pagedCost(TECHNIQUE_RULE_PAGE),
    select: { ttpId: true },
    resolve: async (technique, args, context) =>
      sliceOfPage(await rulesByTechnique(context).load(technique.ttpId), args, TECHNIQUE_RULE_PAGE),
  }),
);

builder.prismaObjectField('Test', 'detectionEvaluations', (t) =>
  t.relation('detectionEvaluations', {
    description: `Detection rules evaluated on this test, newest first (the latest ${TEST_EVALUATION_MAX}), with each rule author (DRL 1.1 attribution).`,
    query: { orderBy: [{ evaluatedAt: 'desc' }, { id: 'desc' }], take: TEST_EVALUATION_MAX },
    complexity: cappedListCost(TEST_EVALUATION_MAX),
  }),
);
