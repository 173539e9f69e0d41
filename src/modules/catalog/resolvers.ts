import { allow } from '../../graphql/access.ts';
import { builder } from '../../graphql/builder.ts';
import { queryFromInfo } from '@pothos/plugin-prisma';
import { pagedCost } from '../../graphql/cost.ts';
import { pageArgs } from '../../graphql/pagination.ts';
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
    complexity: pagedCost(SOFTWARE_PAGE),
    type: SoftwarePage,
    description: `ATT&CK software (malware and tools) matching the filter, by name; revoked and deprecated ones only with includeDeprecated (offset default 0, limit default ${SOFTWARE_PAGE.defaultLimit}, max ${SOFTWARE_PAGE.maxLimit}).`,
    authScopes: allow(catalogRoles.read),
    args: { filter: t.arg({ type: SoftwareFilterInput, required: false }), ...pageArgs(t.arg) },
    resolve: (_root, { filter, offset, limit }, context, info) =>
      listSoftware(
        context.services,
        filter,
        { offset: offset ?? undefined, limit: limit ?? undefined },
        queryFromInfo({ context, info, path: ['items'] }),
      ),
  }),
}));
