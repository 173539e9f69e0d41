import { body, type Route } from '../../../rest-adapter/types.ts';
import { snapshotRoles } from './permissions.ts';

const COUNTS = `total validated partial inProgress notCovered notEvaluated`;
const SNAPSHOT_FIELDS = `id name kind summary { ${COUNTS} } coveragePercentage score
  createdById createdAt`;
const TECHNIQUE_STATES = `techniques { techniqueId ttpId name status score }`;
const POINT_FIELDS = `id name kind date coveragePercentage score ${COUNTS}`;
const TECHNIQUE_REF = `techniqueId ttpId name`;

// /snapshots/evolution and /snapshots/compare come before /snapshots/:id, which would otherwise take them.
export const snapshotsRoutes: Route[] = [
  {
    method: 'GET',
    path: '/snapshots',
    tag: 'Snapshots',
    summary: 'Snapshots, newest first, without their technique states (filter kind: manual, daily, posture)',
    roles: snapshotRoles.read,
    document: `query ($kind: SnapshotKind, $offset: Int, $limit: Int) {
      snapshots(kind: $kind, offset: $offset, limit: $limit) { items { ${SNAPSHOT_FIELDS} } total offset limit }
    }`,
  },
  {
    method: 'POST',
    path: '/snapshots',
    expensive: true,
    tag: 'Snapshots',
    summary: "Record every active technique's status and score now (optional body name); kind manual",
    roles: snapshotRoles.create,
    status: 201,
    document: `mutation ($input: CreateSnapshotInput) { createSnapshot(input: $input) { ${SNAPSHOT_FIELDS} } }`,
    variables: { input: body() },
  },
  {
    method: 'GET',
    path: '/snapshots/evolution',
    tag: 'Snapshots',
    summary: 'Coverage over time: every snapshot oldest first with date, coverage_percentage, score and counts (optional from, to)',
    roles: snapshotRoles.read,
    document: `query ($from: DateTime, $to: DateTime) { snapshotEvolution(from: $from, to: $to) { ${POINT_FIELDS} } }`,
  },
  {
    method: 'GET',
    path: '/snapshots/compare',
    tag: 'Snapshots',
    summary:
      'Difference from snapshot a (before) to snapshot b (after), both required: techniques whose status changed with before and after, improved/regressed counts (not_evaluated < not_covered < in_progress < partial < validated), techniques in only one',
    roles: snapshotRoles.read,
    document: `query ($a: UUID, $b: UUID) {
      snapshotComparison(a: $a, b: $b) {
        a { ${POINT_FIELDS} } b { ${POINT_FIELDS} }
        changed { ${TECHNIQUE_REF} before after scoreBefore scoreAfter change }
        improved regressed unchanged
        onlyInA { ${TECHNIQUE_REF} status } onlyInB { ${TECHNIQUE_REF} status }
        coverageChange scoreChange
      }
    }`,
  },
  {
    method: 'GET',
    path: '/snapshots/:id',
    tag: 'Snapshots',
    summary: 'One snapshot with the state of every technique it recorded (ttp_id, name, status, score)',
    roles: snapshotRoles.read,
    document: `query ($id: UUID!) { snapshot(id: $id) { ${SNAPSHOT_FIELDS} ${TECHNIQUE_STATES} } }`,
  },
  {
    method: 'DELETE',
    path: '/snapshots/:id',
    tag: 'Snapshots',
    summary: 'Delete a snapshot',
    roles: snapshotRoles.delete,
    status: 204,
    document: `mutation ($id: UUID!) { deleteSnapshot(id: $id) { id } }`,
  },
  {
    method: 'GET',
    path: '/dashboard/posture-history',
    tag: 'Dashboard',
    summary: 'Coverage trend: one point per UTC day with a snapshot (the last of that day), oldest first (period 30d, 90d default, 1y)',
    roles: snapshotRoles.read,
    document: `query ($period: String) {
      postureHistory(period: $period) {
        date snapshotId coveragePercentage score ${COUNTS}
      }
    }`,
  },
  {
    method: 'POST',
    path: '/dashboard/posture-snapshot',
    expensive: true,
    tag: 'Dashboard',
    summary: 'Record the posture now (a snapshot of kind posture)',
    roles: snapshotRoles.create,
    status: 201,
    document: `mutation { takePostureSnapshot { ${SNAPSHOT_FIELDS} } }`,
  },
];
