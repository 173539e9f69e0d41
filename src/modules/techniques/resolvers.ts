import { allow } from '../../graphql/access.ts';
import { builder } from '../../graphql/builder.ts';
import { catalogRoot } from '../../graphql/catalog-cache.ts';
import { cappedListCost } from '../../graphql/cost.ts';
import { actorOf } from '../../graphql/context.ts';
import { techniqueRoles } from './permissions.ts';
import * as techniques from './service.ts';
import { CreateTechniqueInput, TechniqueFilterInput, UpdateTechniqueInput } from './types.ts';

builder.queryFields((t) => ({
  techniques: t.prismaField({
    type: ['Technique'],
    description: `Techniques matching the filter, ordered by ttp id (at most ${techniques.TECHNIQUE_LIST_MAX}).`,
    authScopes: allow(techniqueRoles.read),
    complexity: cappedListCost(techniques.TECHNIQUE_LIST_MAX),
    extensions: catalogRoot,
    args: { filter: t.arg({ type: TechniqueFilterInput, required: false }) },
    resolve: (query, _root, { filter }, context) => techniques.listTechniques(context.services, filter ?? {}, query),
  }),
  technique: t.prismaField({
    type: 'Technique',
    authScopes: allow(techniqueRoles.read),
    extensions: catalogRoot,
    args: { ttpId: t.arg.string({ required: true }) },
    resolve: (query, _root, { ttpId }, context) => techniques.getTechnique(context.services, ttpId, query),
  }),
}));

builder.mutationFields((t) => ({
  createTechnique: t.prismaField({
    type: 'Technique',
    description: 'Creates a custom technique.',
    authScopes: allow(techniqueRoles.create),
    args: { input: t.arg({ type: CreateTechniqueInput, required: true }) },
    resolve: (query, _root, { input }, context) => techniques.createTechnique(context.services, actorOf(context), input, query),
  }),
  updateTechnique: t.prismaField({
    type: 'Technique',
    authScopes: allow(techniqueRoles.update),
    args: { ttpId: t.arg.string({ required: true }), input: t.arg({ type: UpdateTechniqueInput, required: true }) },
    resolve: (query, _root, { ttpId, input }, context) =>
      techniques.updateTechnique(context.services, actorOf(context), ttpId, input, query),
  }),
  reviewTechnique: t.prismaField({
    type: 'Technique',
    description: 'Marks the technique reviewed (reviewRequired false, the default) or as needing review.',
    authScopes: allow(techniqueRoles.review),
    args: { ttpId: t.arg.string({ required: true }), reviewRequired: t.arg.boolean({ required: false, defaultValue: false }) },
    resolve: (query, _root, { ttpId, reviewRequired }, context) =>
      techniques.reviewTechnique(context.services, actorOf(context), ttpId, reviewRequired ?? false, query),
  }),
}));
