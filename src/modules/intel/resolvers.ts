import { queryFromInfo } from '@pothos/plugin-prisma';
import { allow } from '../../graphql/access.ts';
import { builder } from '../../graphql/builder.ts';
import { pagedCost } from '../../graphql/cost.ts';
import { actorOf } from '../../graphql/context.ts';
import { intelRoles } from './permissions.ts';
import * as intel from './service.ts';
import { IntelFindingPage, IntelScanResultType } from './types.ts';
import { pageArgs } from '../../graphql/pagination.ts';

builder.queryFields((t) => ({
  intelFindings: t.field({
    complexity: pagedCost(intel.INTEL_FINDING_PAGE),
    type: IntelFindingPage,
    description: `Findings of the intel scans, newest first (offset default 0, limit default ${intel.INTEL_FINDING_PAGE.defaultLimit}, max ${intel.INTEL_FINDING_PAGE.maxLimit}).`,
    authScopes: allow(intelRoles.readFindings),
    args: { ...pageArgs(t.arg) },
    resolve: (_root, { offset, limit }, context, info) =>
      intel.listFindings(
        context.services,
        { offset: offset ?? undefined, limit: limit ?? undefined },
        queryFromInfo({ context, info, path: ['items'] }),
      ),
  }),
}));

builder.mutationFields((t) => ({
  runIntelScan: t.field({
    type: IntelScanResultType,
    description:
      'Scans the technique uses no scan has seen: the first scan is a baseline; later ones record findings, flag techniques for review and notify the leads.',
    authScopes: allow(intelRoles.scan),
    resolve: (_root, _args, context) => intel.runIntelScan(context.services, actorOf(context)),
  }),
}));
