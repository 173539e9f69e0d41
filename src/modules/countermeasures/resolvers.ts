import { queryFromInfo } from '@pothos/plugin-prisma';
import { allow } from '../../graphql/access.ts';
import { builder } from '../../graphql/builder.ts';
import { cappedListCost, pagedCost } from '../../graphql/cost.ts';
import { countermeasureRoles } from './permissions.ts';
import * as countermeasures from './service.ts';
import { CountermeasureFilterInput, DefensiveTechniquePage, TechniqueCountermeasureType } from './types.ts';
import { pageArgs } from '../../graphql/pagination.ts';

builder.queryFields((t) => ({
  countermeasures: t.field({
    complexity: pagedCost(countermeasures.COUNTERMEASURE_PAGE),
    type: DefensiveTechniquePage,
    description: `D3FEND countermeasures matching the filter, by D3FEND id (offset default 0, limit default ${countermeasures.COUNTERMEASURE_PAGE.defaultLimit}, max ${countermeasures.COUNTERMEASURE_PAGE.maxLimit}).`,
    authScopes: allow(countermeasureRoles.read),
    args: {
      filter: t.arg({ type: CountermeasureFilterInput, required: false }),
      ...pageArgs(t.arg),
    },
    resolve: (_root, { filter, offset, limit }, context, info) =>
      countermeasures.listCountermeasures(
        context.services,
        filter,
        { offset: offset ?? undefined, limit: limit ?? undefined },
        queryFromInfo({ context, info, path: ['items'] }),
      ),
  }),
  countermeasure: t.prismaField({
    type: 'DefensiveTechnique',
    description: 'One countermeasure by uuid or D3FEND id (D3-AL), with the ATT&CK techniques it counters.',
    authScopes: allow(countermeasureRoles.read),
    args: { id: t.arg.id({ required: true, description: 'The uuid or the D3FEND id.' }) },
    resolve: (query, _root, { id }, context) => countermeasures.getCountermeasure(context.services, String(id), query),
  }),
  techniqueCountermeasures: t.field({
    type: [TechniqueCountermeasureType],
    description: `The countermeasures of a catalog technique, by D3FEND id, at most ${countermeasures.COUNTERMEASURE_MAPPING_MAX} (not found when the catalog has no such technique).`,
    authScopes: allow(countermeasureRoles.read),
    complexity: cappedListCost(countermeasures.COUNTERMEASURE_MAPPING_MAX),
    args: { ttpId: t.arg.string({ required: true }) },
    resolve: (_root, { ttpId }, context) => countermeasures.countermeasuresOfTechnique(context.services, ttpId),
  }),
}));
