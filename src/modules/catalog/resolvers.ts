import { allow } from '../../graphql/access.ts';
import { builder } from '../../graphql/builder.ts';
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
}));
