import { queryFromInfo } from '@pothos/plugin-prisma';
import { allow } from '../../graphql/access.ts';
import { pageArgs, pagedList, pagingOf } from '../../graphql/pagination.ts';
import { builder } from '../../graphql/builder.ts';
import { principalOf } from '../../graphql/context.ts';
import * as lifecycle from './service.ts';
import {
  DetectionAssetPage,
  DetectionValidationPage,
  InfrastructureChangePage,
  CreateDetectionAssetInput,
  CreateDetectionValidationInput,
  DetectionAssetKindEnum,
  DetectionAssetStatusEnum,
  LifecycleDashboardType,
  RecordInfrastructureChangeInput,
  UpdateDetectionAssetInput,
} from './types.ts';
import { lifecycleRoles } from './permissions.ts';

builder.queryFields((t) => ({
  detectionAssets: t.field({
    type: DetectionAssetPage,
    ...pagedList(lifecycle.LIFECYCLE_PAGE, 'Detection assets by name'),
    authScopes: allow(lifecycleRoles.read),
    args: {
      status: t.arg({ type: DetectionAssetStatusEnum }),
      kind: t.arg({ type: DetectionAssetKindEnum }),
      platform: t.arg.string(),
      technique: t.arg.string({ description: 'ATT&CK id or record id of a linked technique.' }),
      ...pageArgs(t.arg),
    },
    resolve: (_root, args, context, info) =>
      lifecycle.listAssets(
        context.services,
        { status: args.status, kind: args.kind, platform: args.platform, technique: args.technique },
        pagingOf(args),
        queryFromInfo({ context, info, path: ['items'] }),
      ),
  }),
  detectionAsset: t.prismaField({
    type: 'DetectionAsset',
    authScopes: allow(lifecycleRoles.read),
    args: { id: t.arg({ type: 'UUID', required: true }) },
    resolve: (query, _root, { id }, context) => lifecycle.getAsset(context.services, String(id), query),
  }),
  detectionValidations: t.field({
    type: DetectionValidationPage,
    ...pagedList(lifecycle.LIFECYCLE_PAGE, 'Validations, newest first'),
    authScopes: allow(lifecycleRoles.read),
    args: {
      technique: t.arg.string(),
      assetId: t.arg({ type: 'UUID' }),
      status: t.arg.string({ description: 'fresh, expired or invalidated.' }),
      ...pageArgs(t.arg),
    },
    resolve: (_root, args, context, info) =>
      lifecycle.listValidations(
        context.services,
        { technique: args.technique, assetId: args.assetId, status: args.status },
        pagingOf(args),
        queryFromInfo({ context, info, path: ['items'] }),
      ),
  }),
  infrastructureChanges: t.field({
    type: InfrastructureChangePage,
    ...pagedList(lifecycle.LIFECYCLE_PAGE, 'Infrastructure changes, newest first'),
    authScopes: allow(lifecycleRoles.read),
    args: { since: t.arg({ type: 'DateTime' }), platform: t.arg.string(), ...pageArgs(t.arg) },
    resolve: (_root, args, context, info) =>
      lifecycle.listChanges(
        context.services,
        { since: args.since, platform: args.platform },
        pagingOf(args),
        queryFromInfo({ context, info, path: ['items'] }),
      ),
  }),
  detectionLifecycleDashboard: t.field({
    type: LifecycleDashboardType,
    ...pagedList(lifecycle.LIFECYCLE_PAGE, 'Detection confidence per technique with its terms, lowest first'),
    authScopes: allow(lifecycleRoles.read),
    args: { technique: t.arg.string(), ...pageArgs(t.arg) },
    resolve: (_root, args, context) => lifecycle.dashboard(context.services, { technique: args.technique }, pagingOf(args)),
  }),
}));

builder.mutationFields((t) => ({
  createDetectionAsset: t.prismaField({
    type: 'DetectionAsset',
    authScopes: allow(lifecycleRoles.write),
    args: { input: t.arg({ type: CreateDetectionAssetInput, required: true }) },
    resolve: (query, _root, { input }, context) => lifecycle.createAsset(context.services, principalOf(context), input, query),
  }),
  updateDetectionAsset: t.prismaField({
    type: 'DetectionAsset',
    authScopes: allow(lifecycleRoles.write),
    args: { id: t.arg({ type: 'UUID', required: true }), input: t.arg({ type: UpdateDetectionAssetInput, required: true }) },
    resolve: (query, _root, { id, input }, context) =>
      lifecycle.updateAsset(context.services, principalOf(context), String(id), input, query),
  }),
  deleteDetectionAsset: t.boolean({
    authScopes: allow(lifecycleRoles.write),
    args: { id: t.arg({ type: 'UUID', required: true }) },
    resolve: (_root, { id }, context) => lifecycle.deleteAsset(context.services, principalOf(context), String(id)),
  }),
  linkDetectionAssetTechnique: t.prismaField({
    type: 'DetectionAsset',
    authScopes: allow(lifecycleRoles.write),
    args: {
      id: t.arg({ type: 'UUID', required: true }),
      technique: t.arg.string({ required: true, description: 'ATT&CK id or record id.' }),
    },
    resolve: (query, _root, args, context) =>
      lifecycle.linkTechnique(context.services, principalOf(context), String(args.id), args.technique, true, query),
  }),
  unlinkDetectionAssetTechnique: t.prismaField({
    type: 'DetectionAsset',
    authScopes: allow(lifecycleRoles.write),
    args: { id: t.arg({ type: 'UUID', required: true }), technique: t.arg.string({ required: true }) },
    resolve: (query, _root, args, context) =>
      lifecycle.linkTechnique(context.services, principalOf(context), String(args.id), args.technique, false, query),
  }),
  createDetectionValidation: t.prismaField({
    type: 'DetectionValidation',
    authScopes: allow(lifecycleRoles.write),
    args: { input: t.arg({ type: CreateDetectionValidationInput, required: true }) },
    resolve: (query, _root, { input }, context) => lifecycle.createValidation(context.services, principalOf(context), input, query),
  }),
  invalidateDetectionValidation: t.prismaField({
    type: 'DetectionValidation',
    authScopes: allow(lifecycleRoles.write),
    args: { id: t.arg({ type: 'UUID', required: true }), reason: t.arg.string({ required: true }) },
    resolve: (query, _root, args, context) =>
      lifecycle.invalidateValidation(context.services, principalOf(context), String(args.id), { reason: args.reason }, query),
  }),
  recordInfrastructureChange: t.prismaField({
    type: 'InfrastructureChange',
    description: 'Records a change, invalidates the validations it touches and rebuilds the revalidation queue.',
    authScopes: allow(lifecycleRoles.write),
    args: { input: t.arg({ type: RecordInfrastructureChangeInput, required: true }) },
    resolve: (query, _root, { input }, context) => lifecycle.recordChange(context.services, principalOf(context), input, query),
  }),
}));
