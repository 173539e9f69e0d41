import { allow } from '../../graphql/access.ts';
import { builder } from '../../graphql/builder.ts';
import { CATALOG_SHAPE } from '../techniques/catalog-shape.ts';
import { cappedListCost } from '../../graphql/cost.ts';
import { actorOf } from '../../graphql/context.ts';
import { catalogRoles } from './permissions.ts';
import * as catalog from './service.ts';
import { SyncTtpResultType } from './types.ts';

builder.queryFields((t) => ({
  tactics: t.prismaField({
    complexity: cappedListCost(CATALOG_SHAPE.tactics),
    type: ['Tactic'],
    description: 'The ATT&CK Enterprise tactics in matrix order.',
    authScopes: allow(catalogRoles.read),
    resolve: (query, _root, _args, context) => catalog.listTactics(context.services, query),
  }),
}));

builder.mutationFields((t) => ({
  syncTtp: t.field({
    type: SyncTtpResultType,
    description: 'Synchronises the ATT&CK catalog now from the attack_enterprise data source.',
    authScopes: allow(catalogRoles.sync),
    resolve: (_root, _args, context) => catalog.syncTtp(context.services, actorOf(context)),
  }),
}));
