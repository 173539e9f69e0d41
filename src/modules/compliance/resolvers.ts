import { allow } from '../../graphql/access.ts';
import { pageArgs, pagedList, pagingOf } from '../../graphql/pagination.ts';
import { builder } from '../../graphql/builder.ts';
import { cappedListCost } from '../../graphql/cost.ts';
import { complianceRoles } from './permissions.ts';
import * as compliance from './service.ts';
import { ComplianceControlFilterInput, ComplianceControlPage, ComplianceFrameworkType, ComplianceSummaryType } from './types.ts';

/** Compliance frameworks the catalog maps (two today). */
const FRAMEWORK_MAX = 20;

builder.queryFields((t) => ({
  complianceFrameworks: t.field({
    complexity: cappedListCost(FRAMEWORK_MAX),
    type: [ComplianceFrameworkType],
    description: 'Every imported compliance framework with its counts, by key.',
    authScopes: allow(complianceRoles.read),
    resolve: (_root, _args, context) => compliance.listFrameworks(context.services),
  }),
  complianceFramework: t.field({
    type: ComplianceFrameworkType,
    description: 'One framework by uuid or key (nist_800_53, csa_ccm).',
    authScopes: allow(complianceRoles.read),
    args: { id: t.arg.id({ required: true }) },
    resolve: (_root, { id }, context) => compliance.getFramework(context.services, String(id)),
  }),
  complianceControls: t.field({
    type: ComplianceControlPage,
    ...pagedList(
      compliance.CONTROL_PAGE,
      'Controls of a framework (uuid or key) with their coverage status and mapped techniques, by control id',
    ),
    authScopes: allow(complianceRoles.read),
    args: {
      frameworkId: t.arg.id({ required: true }),
      filter: t.arg({ type: ComplianceControlFilterInput, required: false }),
      ...pageArgs(t.arg),
    },
    resolve: (_root, { frameworkId, filter, offset, limit }, context) =>
      compliance.listControls(context.services, String(frameworkId), filter, pagingOf({ offset, limit })),
  }),
  complianceGaps: t.field({
    type: ComplianceControlPage,
    ...pagedList(compliance.CONTROL_PAGE, 'Controls of a framework with coverage status gap, by control id'),
    authScopes: allow(complianceRoles.read),
    args: { frameworkId: t.arg.id({ required: true }), ...pageArgs(t.arg) },
    resolve: (_root, { frameworkId, offset, limit }, context) =>
      compliance.listGaps(context.services, String(frameworkId), pagingOf({ offset, limit })),
  }),
  complianceSummary: t.field({
    type: ComplianceSummaryType,
    description: 'Control counts by coverage status for a framework, with the mapped ATT&CK ids absent from the catalog.',
    authScopes: allow(complianceRoles.read),
    args: { frameworkId: t.arg.id({ required: true }) },
    resolve: (_root, { frameworkId }, context) => compliance.summarize(context.services, String(frameworkId)),
  }),
}));
