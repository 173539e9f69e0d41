import { queryFromInfo } from '@pothos/plugin-prisma';
import { allow } from '../../graphql/access.ts';
import { builder } from '../../graphql/builder.ts';
import { actorOf } from '../../graphql/context.ts';
import { intelRoles } from './permissions.ts';
import * as intel from './service.ts';
import { IntelFindingPage, IntelScanResultType } from './types.ts';
import { pageArgs, pagedList, pagingOf } from '../../graphql/pagination.ts';

builder.queryFields((t) => ({
  intelFindings: t.field({
    type: IntelFindingPage,
    ...pagedList(intel.INTEL_FINDING_PAGE, 'Findings of the intel scans, newest first'),
    authScopes: allow(intelRoles.readFindings),
    args: { ...pageArgs(t.arg) },
    resolve: (_root, { offset, limit }, context, info) =>
      intel.listFindings(context.services, pagingOf({ offset, limit }), queryFromInfo({ context, info, path: ['items'] })),
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
