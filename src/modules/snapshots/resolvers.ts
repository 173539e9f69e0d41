import { allow } from '../../graphql/access.ts';
import { builder } from '../../graphql/builder.ts';
import { cappedListCost } from '../../graphql/cost.ts';
import { actorOf } from '../../graphql/context.ts';
import { pageArgs, pagedList, pageType, pagingOf } from '../../graphql/pagination.ts';
import { compareSnapshots, POSTURE_PERIODS, postureHistory, SNAPSHOT_EVOLUTION_MAX, snapshotEvolution } from './analysis.ts';
import { snapshotRoles } from './permissions.ts';
import * as snapshots from './service.ts';
import {
  CreateSnapshotInput,
  PosturePointType,
  SnapshotComparisonType,
  SnapshotKindEnum,
  SnapshotPointType,
  SnapshotType,
} from './types.ts';

const SnapshotPage = pageType('SnapshotPage', SnapshotType);

builder.queryFields((t) => ({
  snapshots: t.field({
    type: SnapshotPage,
    ...pagedList(snapshots.SNAPSHOT_PAGE, 'Snapshots, newest first'),
    authScopes: allow(snapshotRoles.read),
    args: {
      kind: t.arg({ type: SnapshotKindEnum, required: false }),
      ...pageArgs(t.arg),
    },
    resolve: (_root, { kind, offset, limit }, context) => snapshots.listSnapshots(context.services, { kind }, pagingOf({ offset, limit })),
  }),
  snapshot: t.prismaField({
    type: 'Snapshot',
    description: 'One snapshot with the state of every technique it recorded.',
    authScopes: allow(snapshotRoles.read),
    args: { id: t.arg({ type: 'UUID', required: true }) },
    resolve: (query, _root, { id }, context) => snapshots.getSnapshot(context.services, String(id), query),
  }),
  snapshotEvolution: t.field({
    complexity: cappedListCost(SNAPSHOT_EVOLUTION_MAX),
    type: [SnapshotPointType],
    description: 'Coverage over time: every snapshot (optionally between from and to, inclusive), oldest first.',
    authScopes: allow(snapshotRoles.read),
    args: {
      from: t.arg({ type: 'DateTime', required: false }),
      to: t.arg({ type: 'DateTime', required: false }),
    },
    resolve: (_root, range, context) => snapshotEvolution(context.services, range),
  }),
  snapshotComparison: t.field({
    type: SnapshotComparisonType,
    description: 'What changed from snapshot a (before) to snapshot b (after).',
    authScopes: allow(snapshotRoles.read),
    args: {
      a: t.arg({ type: 'UUID', required: false, description: 'The earlier ("before") snapshot; required.' }),
      b: t.arg({ type: 'UUID', required: false, description: 'The later ("after") snapshot; required.' }),
    },
    resolve: (_root, { a, b }, context) =>
      compareSnapshots(context.services, { a: a == null ? a : String(a), b: b == null ? b : String(b) }),
  }),
  postureHistory: t.field({
    complexity: cappedListCost(POSTURE_PERIODS['1y']),
    type: [PosturePointType],
    description:
      'Coverage trend: one point per UTC day with a snapshot (the last of that day), oldest first. Period 30d, 90d (default) or 1y.',
    authScopes: allow(snapshotRoles.read),
    args: { period: t.arg.string({ required: false }) },
    resolve: (_root, { period }, context) => postureHistory(context.services, period),
  }),
}));

builder.mutationFields((t) => ({
  createSnapshot: t.prismaField({
    type: 'Snapshot',
    description: "Records every active technique's status and score now (kind manual).",
    authScopes: allow(snapshotRoles.create),
    args: { input: t.arg({ type: CreateSnapshotInput, required: false }) },
    resolve: (query, _root, { input }, context) =>
      snapshots.createSnapshot(context.services, actorOf(context), 'manual', input ?? {}, query),
  }),
  takePostureSnapshot: t.prismaField({
    type: 'Snapshot',
    description: 'Records the posture now (kind posture), for the dashboard posture history.',
    authScopes: allow(snapshotRoles.create),
    resolve: (query, _root, _args, context) => snapshots.createSnapshot(context.services, actorOf(context), 'posture', {}, query),
  }),
  deleteSnapshot: t.prismaField({
    type: 'Snapshot',
    description: 'Deletes a snapshot and answers it as it was.',
    authScopes: allow(snapshotRoles.delete),
    args: { id: t.arg({ type: 'UUID', required: true }) },
    resolve: (query, _root, { id }, context) => snapshots.deleteSnapshot(context.services, actorOf(context), String(id), query),
  }),
}));
