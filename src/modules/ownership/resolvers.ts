import { queryFromInfo } from '@pothos/plugin-prisma';
import { allow } from '../../graphql/access.ts';
import { pageArgs, pagedList, pagingOf } from '../../graphql/pagination.ts';
import { builder } from '../../graphql/builder.ts';
import { principalOf } from '../../graphql/context.ts';
import { generateQueue } from './revalidation.ts';
import * as ownership from './service.ts';
import {
  OwnershipAssignmentPage,
  OwnedAssetPage,
  RevalidationEntryPage,
  CreateOwnedAssetInput,
  CreateOwnershipAssignmentInput,
  CriticalityEnum,
  QueueGenerationType,
  ResponsibilityEnum,
  RevalidationReasonEnum,
  UpdateOwnershipAssignmentInput,
} from './types.ts';
import { ownershipRoles } from './permissions.ts';

builder.queryFields((t) => ({
  ownershipAssignments: t.field({
    type: OwnershipAssignmentPage,
    ...pagedList(ownership.OWNERSHIP_PAGE, 'Technique-to-owner assignments, newest first'),
    authScopes: allow(ownershipRoles.read),
    args: {
      technique: t.arg.string(),
      ownerId: t.arg({ type: 'UUID' }),
      responsibility: t.arg({ type: ResponsibilityEnum }),
      ...pageArgs(t.arg),
    },
    resolve: (_root, args, context, info) =>
      ownership.listAssignments(
        context.services,
        { technique: args.technique, ownerId: args.ownerId, responsibility: args.responsibility },
        pagingOf(args),
        queryFromInfo({ context, info, path: ['items'] }),
      ),
  }),
  ownedAssets: t.field({
    type: OwnedAssetPage,
    ...pagedList(ownership.OWNERSHIP_PAGE, 'Systems and environments, by name'),
    authScopes: allow(ownershipRoles.read),
    args: { kind: t.arg.string(), criticality: t.arg({ type: CriticalityEnum }), ...pageArgs(t.arg) },
    resolve: (_root, args, context, info) =>
      ownership.listOwnedAssets(
        context.services,
        { kind: args.kind, criticality: args.criticality },
        pagingOf(args),
        queryFromInfo({ context, info, path: ['items'] }),
      ),
  }),
  revalidationQueue: t.field({
    type: RevalidationEntryPage,
    ...pagedList(ownership.OWNERSHIP_PAGE, 'Techniques needing re-testing, highest risk first'),
    authScopes: allow(ownershipRoles.queue),
    args: {
      reason: t.arg({ type: RevalidationReasonEnum }),
      technique: t.arg.string({ description: 'Only the entries of this technique (ATT&CK id or record id).' }),
      ...pageArgs(t.arg),
    },
    resolve: (_root, args, context, info) =>
      ownership.listQueue(
        context.services,
        { reason: args.reason, technique: args.technique },
        pagingOf(args),
        queryFromInfo({ context, info, path: ['items'] }),
      ),
  }),
}));

builder.mutationFields((t) => ({
  createOwnershipAssignment: t.prismaField({
    type: 'OwnershipAssignment',
    authScopes: allow(ownershipRoles.assign),
    args: { input: t.arg({ type: CreateOwnershipAssignmentInput, required: true }) },
    resolve: (query, _root, { input }, context) => ownership.createAssignment(context.services, principalOf(context), input, query),
  }),
  updateOwnershipAssignment: t.prismaField({
    type: 'OwnershipAssignment',
    authScopes: allow(ownershipRoles.assign),
    args: { id: t.arg({ type: 'UUID', required: true }), input: t.arg({ type: UpdateOwnershipAssignmentInput, required: true }) },
    resolve: (query, _root, { id, input }, context) =>
      ownership.updateAssignment(context.services, principalOf(context), String(id), input, query),
  }),
  deleteOwnershipAssignment: t.boolean({
    authScopes: allow(ownershipRoles.assign),
    args: { id: t.arg({ type: 'UUID', required: true }) },
    resolve: (_root, { id }, context) => ownership.deleteAssignment(context.services, principalOf(context), String(id)),
  }),
  createOwnedAsset: t.prismaField({
    type: 'OwnedAsset',
    authScopes: allow(ownershipRoles.createAsset),
    args: { input: t.arg({ type: CreateOwnedAssetInput, required: true }) },
    resolve: (query, _root, { input }, context) => ownership.createOwnedAsset(context.services, principalOf(context), input, query),
  }),
  generateRevalidationQueue: t.field({
    type: QueueGenerationType,
    description: 'Rebuilds the revalidation queue from expiries, invalidations, infrastructure changes and stale coverage.',
    authScopes: allow(ownershipRoles.queue),
    resolve: (_root, _args, context) => generateQueue(context.services, principalOf(context)),
  }),
}));
