import { queryFromInfo } from '@pothos/plugin-prisma';
import { allow } from '../../graphql/access.ts';
import { builder } from '../../graphql/builder.ts';
import { pagedCost } from '../../graphql/cost.ts';
import { actorOf } from '../../graphql/context.ts';
import { computeRisk } from './compute.ts';
import { riskRoles } from './permissions.ts';
import * as risk from './service.ts';
import { RiskComputationType, RiskMatrixType, RiskProfileFilterInput, RiskProfilePage, RiskSummaryType } from './types.ts';
import { pageArgs } from '../../graphql/pagination.ts';

builder.queryFields((t) => ({
  riskProfiles: t.field({
    complexity: pagedCost(risk.PROFILE_PAGE),
    type: RiskProfilePage,
    description: `Stored risk profiles, highest score first (offset default 0, limit default ${risk.PROFILE_PAGE.defaultLimit}, max ${risk.PROFILE_PAGE.maxLimit}).`,
    authScopes: allow(riskRoles.read),
    args: {
      filter: t.arg({ type: RiskProfileFilterInput, required: false }),
      ...pageArgs(t.arg),
    },
    resolve: (_root, { filter, offset, limit }, context, info) =>
      risk.listProfiles(
        context.services,
        filter,
        { offset: offset ?? undefined, limit: limit ?? undefined },
        queryFromInfo({ context, info, path: ['items'] }),
      ),
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
    complexity: pagedCost(risk.RECOMMENDATION_LIMIT),
    type: ['RiskProfile'],
    description: `Techniques to test next: the highest risks among those not validated, with the reason (limit default ${risk.RECOMMENDATION_LIMIT.defaultLimit}, max ${risk.RECOMMENDATION_LIMIT.maxLimit}).`,
    authScopes: allow(riskRoles.read),
    args: { limit: t.arg.int({ required: false }) },
    resolve: (query, _root, { limit }, context) => risk.recommendations(context.services, { limit }, query),
  }),
  riskTop: t.prismaField({
    complexity: pagedCost(risk.TOP_LIMIT),
    type: ['RiskProfile'],
    description: `The highest risks among techniques without established detection (limit default ${risk.TOP_LIMIT.defaultLimit}, 1–${risk.TOP_LIMIT.maxLimit}).`,
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
