import { body, type Route } from '../../../rest-adapter/types.ts';
import { ownershipRoles } from './permissions.ts';

const TAG = 'Ownership';
const ASSIGNMENT_FIELDS =
  'id technique { id ttpId name } owner { id username displayName } team responsibility dueDate notes createdAt updatedAt';
const ASSET_FIELDS = 'id name kind platform criticality owner { id username displayName } description createdAt';
const ENTRY_FIELDS = 'id technique { id ttpId name } reason detail riskScore since createdAt';
export const ownershipRoutes: Route[] = [
  {
    method: 'GET',
    path: '/ownership/assignments',
    tag: TAG,
    summary: 'Technique-to-owner assignments (filters technique, owner_id, responsibility)',
    roles: ownershipRoles.read,
    document: `query ($technique: String, $ownerId: UUID, $responsibility: Responsibility, $offset: Int, $limit: Int) {
      ownershipAssignments(technique: $technique, ownerId: $ownerId, responsibility: $responsibility, offset: $offset, limit: $limit) { items { ${ASSIGNMENT_FIELDS} } total offset limit } }`,
  },
  {
    method: 'POST',
    path: '/ownership/assignments',
    tag: TAG,
    summary: 'Assign a technique (body technique_id, owner_id, responsibility red|blue|both, team, due_date, notes); 409 when taken',
    roles: ownershipRoles.assign,
    status: 201,
    document: `mutation ($input: CreateOwnershipAssignmentInput!) { createOwnershipAssignment(input: $input) { ${ASSIGNMENT_FIELDS} } }`,
    variables: { input: body() },
  },
  {
    method: 'PATCH',
    path: '/ownership/assignments/:id',
    tag: TAG,
    summary: 'Update an assignment',
    roles: ownershipRoles.assign,
    document: `mutation ($id: UUID!, $input: UpdateOwnershipAssignmentInput!) { updateOwnershipAssignment(id: $id, input: $input) { ${ASSIGNMENT_FIELDS} } }`,
    variables: { input: body() },
  },
  {
    method: 'DELETE',
    path: '/ownership/assignments/:id',
    tag: TAG,
    summary: 'Remove an assignment',
    roles: ownershipRoles.assign,
    status: 204,
    document: 'mutation ($id: UUID!) { deleteOwnershipAssignment(id: $id) }',
  },
  {
    method: 'GET',
    path: '/ownership/assets',
    tag: TAG,
    summary: 'Systems and environments (filters kind, criticality)',
    roles: ownershipRoles.read,
    document: `query ($kind: String, $criticality: AssetCriticality, $offset: Int, $limit: Int) {
      ownedAssets(kind: $kind, criticality: $criticality, offset: $offset, limit: $limit) { items { ${ASSET_FIELDS} } total offset limit } }`,
  },
  {
    method: 'POST',
    path: '/ownership/assets',
    tag: TAG,
    summary: 'Create an asset (body name, kind, platform, criticality, owner_id, description)',
    roles: ownershipRoles.createAsset,
    status: 201,
    document: `mutation ($input: CreateOwnedAssetInput!) { createOwnedAsset(input: $input) { ${ASSET_FIELDS} } }`,
    variables: { input: body() },
  },
  {
    method: 'GET',
    path: '/ownership/revalidation-queue',
    tag: TAG,
    summary: 'Techniques needing revalidation with the reason, highest risk first (filter reason, technique)',
    roles: ownershipRoles.queue,
    document: `query ($reason: RevalidationReason, $technique: String, $offset: Int, $limit: Int) { revalidationQueue(reason: $reason, technique: $technique, offset: $offset, limit: $limit) { items { ${ENTRY_FIELDS} } total offset limit } }`,
  },
  {
    method: 'POST',
    path: '/ownership/revalidation-queue/generate',
    tag: TAG,
    summary:
      'Rebuild the queue from infrastructure changes, expiries, invalidations and stale coverage; owners of new entries are notified',
    roles: ownershipRoles.queue,
    expensive: true,
    document: 'mutation { generateRevalidationQueue { added kept removed total } }',
  },
];
