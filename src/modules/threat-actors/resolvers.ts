import { queryFromInfo } from '@pothos/plugin-prisma';
import { allow } from '../../graphql/access.ts';
import { builder } from '../../graphql/builder.ts';
import { threatActorRoles } from './permissions.ts';
import * as threatActors from './service.ts';
import { ThreatActorFilterInput, ThreatActorPage } from './types.ts';
import { pageArgs, pagedList, pagingOf } from '../../graphql/pagination.ts';

builder.queryFields((t) => ({
  threatActors: t.field({
    type: ThreatActorPage,
    ...pagedList(
      threatActors.THREAT_ACTOR_PAGE,
      'Threat actors matching the filter, by name; revoked and deprecated ones only with includeDeprecated',
    ),
    authScopes: allow(threatActorRoles.read),
    args: {
      filter: t.arg({ type: ThreatActorFilterInput, required: false }),
      ...pageArgs(t.arg),
    },
    resolve: (_root, { filter, offset, limit }, context, info) =>
      threatActors.listThreatActors(
        context.services,
        filter,
        pagingOf({ offset, limit }),
        queryFromInfo({ context, info, path: ['items'] }),
      ),
  }),
  threatActor: t.prismaField({
    type: 'ThreatActor',
    description: 'One threat actor by uuid or ATT&CK group id (G0007), with its technique uses.',
    authScopes: allow(threatActorRoles.read),
    args: { id: t.arg.id({ required: true, description: 'The uuid or the group id.' }) },
    resolve: (query, _root, { id }, context) => threatActors.getThreatActor(context.services, String(id), query),
  }),
}));
