import { queryFromInfo } from '@pothos/plugin-prisma';
import { allow } from '../../graphql/access.ts';
import { builder } from '../../graphql/builder.ts';
import { cappedListCost } from '../../graphql/cost.ts';
import { countermeasureRoles } from './permissions.ts';
import * as countermeasures from './service.ts';
import { CountermeasureFilterInput, DefensiveTechniquePage, TechniqueCountermeasureType } from './types.ts';
import { pageArgs, pagedList, pagingOf } from '../../graphql/pagination.ts';

builder.queryFields((t) => ({
  countermeasures: t.field({
    type: DefensiveTechniquePage,
    ...pagedList(countermeasures.COUNTERMEASURE_PAGE, 'D3FEND countermeasures matching the filter, by D3FEND id'),
    authScopes: allow(countermeasureRoles.read),
    args: {
      filter: t.arg({ type: CountermeasureFilterInput, required: false }),
      ...pageArgs(t.arg),
    },
    resolve: (_root, { filter, offset, limit }, context, info) =>
      countermeasures.listCountermeasures(
        context.services,
        filter,
        pagingOf({ offset, limit }),
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
