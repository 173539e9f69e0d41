import { allow } from '../../graphql/access.ts';
import { builder } from '../../graphql/builder.ts';
import { queryFromInfo } from '@pothos/plugin-prisma';
import { pageArgs, pagedList, pagingOf } from '../../graphql/pagination.ts';
import { listSoftware, SOFTWARE_PAGE } from './software.ts';
import { SoftwareFilterInput, SoftwarePage } from './types.ts';
import { CATALOG_SHAPE } from './catalog-shape.ts';
import { cappedListCost } from '../../graphql/cost.ts';
import { catalogRoles } from './permissions.ts';
import * as catalog from './service.ts';

builder.queryFields((t) => ({
  tactics: t.prismaField({
    complexity: cappedListCost(CATALOG_SHAPE.tactics),
    type: ['Tactic'],
    description: 'The ATT&CK Enterprise tactics in matrix order.',
    authScopes: allow(catalogRoles.read),
    resolve: (query, _root, _args, context) => catalog.listTactics(context.services, query),
  }),
  software: t.field({
    type: SoftwarePage,
    ...pagedList(
      SOFTWARE_PAGE,
      'ATT&CK software (malware and tools) matching the filter, by name; revoked and deprecated ones only with includeDeprecated',
    ),
    authScopes: allow(catalogRoles.read),
    args: { filter: t.arg({ type: SoftwareFilterInput, required: false }), ...pageArgs(t.arg) },
    resolve: (_root, { filter, offset, limit }, context, info) =>
      listSoftware(context.services, filter, pagingOf({ offset, limit }), queryFromInfo({ context, info, path: ['items'] })),
  }),
}));
