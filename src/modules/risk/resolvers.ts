import { queryFromInfo } from '@pothos/plugin-prisma';
import { allow } from '../../graphql/access.ts';
import { builder } from '../../graphql/builder.ts';
import { actorOf } from '../../graphql/context.ts';
import { computeRisk } from './compute.ts';
import { riskRoles } from './permissions.ts';
import * as risk from './service.ts';
import { RiskComputationType, RiskMatrixType, RiskProfileFilterInput, RiskProfilePage, RiskSummaryType } from './types.ts';
import { pageArgs, pagedList, pagingOf } from '../../graphql/pagination.ts';

builder.queryFields((t) => ({
  riskProfiles: t.field({
    type: RiskProfilePage,
    ...pagedList(risk.PROFILE_PAGE, 'Stored risk profiles, highest score first'),
    authScopes: allow(riskRoles.read),
    args: {
      filter: t.arg({ type: RiskProfileFilterInput, required: false }),
      ...pageArgs(t.arg),
    },
    resolve: (_root, { filter, offset, limit }, context, info) =>
      risk.listProfiles(context.services, filter, pagingOf({ offset, limit }), queryFromInfo({ context, info, path: ['items'] })),
  }),
  riskMatrix: t.field({
    type: RiskMatrixType,
    description: 'Impact levels × coverage statuses of the stored profiles.',
    authScopes: allow(riskRoles.read),
    resolve: (_root, _args, context) => risk.matrix(context.services),
  }),
  riskSummary: t.field({
    type: RiskSummaryType,
    authScopes: allow(riskRoles.read),
    resolve: (_root, _args, context) => risk.summary(context.services),
  }),
  riskRecommendations: t.prismaField({
    type: ['RiskProfile'],
    ...pagedList(risk.RECOMMENDATION_LIMIT, 'Techniques to test next: the highest risks among those not validated, with the reason', {
      offset: false,
    }),
    authScopes: allow(riskRoles.read),
    args: { limit: t.arg.int({ required: false }) },
    resolve: (query, _root, { limit }, context) => risk.recommendations(context.services, { limit }, query),
  }),
  riskTop: t.prismaField({
    type: ['RiskProfile'],
    ...pagedList(risk.TOP_LIMIT, 'The highest risks among techniques without established detection', { offset: false }),
    authScopes: allow(riskRoles.read),
    args: { limit: t.arg.int({ required: false }) },
    resolve: (query, _root, { limit }, context) => risk.top(context.services, { limit }, query),
  }),
}));

builder.mutationFields((t) => ({
  computeRisk: t.field({
    type: RiskComputationType,
    description: 'Recomputes the risk profile of every active technique in one transaction.',
    authScopes: allow(riskRoles.compute),
    resolve: (_root, _args, context) => computeRisk(context.services, actorOf(context)),
  }),
}));
