import { body, path, type Route } from '../../../rest-adapter/types.ts';
import { lifecycleRoles } from './permissions.ts';

const TAG = 'Detection lifecycle';
const BASE = '/detection-lifecycle';
const ASSET_FIELDS =
  'id name kind platform description status owner { id username displayName } detectionRule { id title source author license } techniques { id ttpId name } createdAt updatedAt';
const VALIDATION_FIELDS =
  'id technique { id ttpId name } assetId testId source result notes validatedAt validUntil status invalidatedAt invalidatedReason invalidatedByChangeId createdAt';
const CHANGE_FIELDS = 'id title description changedAt platforms assetIds techniqueIds invalidatedValidations createdAt';
const CONFIDENCE_FIELDS =
  'techniqueId ttpId name activeAssets assetTerm freshValidations validationTerm lastValidatedAt changesSinceValidation changeFactor confidence';
export const detectionLifecycleRoutes: Route[] = [
  {
    method: 'GET',
    path: `${BASE}/assets`,
    tag: TAG,
    summary: 'Detection assets (filters status, kind, platform, technique)',
    roles: lifecycleRoles.read,
    document: `query ($status: DetectionAssetStatus, $kind: DetectionAssetKind, $platform: String, $technique: String, $offset: Int, $limit: Int) {
      detectionAssets(status: $status, kind: $kind, platform: $platform, technique: $technique, offset: $offset, limit: $limit) { items { ${ASSET_FIELDS} } total offset limit } }`,
  },
  {
    method: 'POST',
    path: `${BASE}/assets`,
    tag: TAG,
    summary: 'Create a detection asset (body name, kind, platform, description, status, owner_id, detection_rule_id)',
    roles: lifecycleRoles.write,
    status: 201,
    document: `mutation ($input: CreateDetectionAssetInput!) { createDetectionAsset(input: $input) { ${ASSET_FIELDS} } }`,
    variables: { input: body() },
  },
  {
    method: 'GET',
    path: `${BASE}/assets/:id`,
    tag: TAG,
    summary: 'One detection asset with its techniques',
    roles: lifecycleRoles.read,
    document: `query ($id: UUID!) { detectionAsset(id: $id) { ${ASSET_FIELDS} } }`,
  },
  {
    method: 'PATCH',
    path: `${BASE}/assets/:id`,
    tag: TAG,
    summary: 'Update a detection asset',
    roles: lifecycleRoles.write,
    document: `mutation ($id: UUID!, $input: UpdateDetectionAssetInput!) { updateDetectionAsset(id: $id, input: $input) { ${ASSET_FIELDS} } }`,
    variables: { input: body() },
  },
  {
    method: 'DELETE',
    path: `${BASE}/assets/:id`,
    tag: TAG,
    summary: 'Delete a detection asset (its validations go with it)',
    roles: lifecycleRoles.write,
    status: 204,
    document: 'mutation ($id: UUID!) { deleteDetectionAsset(id: $id) }',
  },
  {
    method: 'POST',
    path: `${BASE}/assets/:id/techniques/:tid`,
    tag: TAG,
    summary: 'Link a technique (tid: ATT&CK id or record id); 409 when already linked',
    roles: lifecycleRoles.write,
    document: `mutation ($id: UUID!, $technique: String!) { linkDetectionAssetTechnique(id: $id, technique: $technique) { ${ASSET_FIELDS} } }`,
    variables: { technique: path('tid') },
  },
  {
    method: 'DELETE',
    path: `${BASE}/assets/:id/techniques/:tid`,
    tag: TAG,
    summary: 'Unlink a technique; answers the asset',
    roles: lifecycleRoles.write,
    document: `mutation ($id: UUID!, $technique: String!) { unlinkDetectionAssetTechnique(id: $id, technique: $technique) { ${ASSET_FIELDS} } }`,
    variables: { technique: path('tid') },
  },
  {
    method: 'GET',
    path: `${BASE}/validations`,
    tag: TAG,
    summary: 'Validations, newest first (filters technique, asset_id, status fresh|expired|invalidated)',
    roles: lifecycleRoles.read,
    document: `query ($technique: String, $assetId: UUID, $status: String, $offset: Int, $limit: Int) {
      detectionValidations(technique: $technique, assetId: $assetId, status: $status, offset: $offset, limit: $limit) { items { ${VALIDATION_FIELDS} } total offset limit } }`,
  },
  {
    method: 'POST',
    path: `${BASE}/validations`,
    tag: TAG,
    summary: 'Record a validation by hand (body technique_id, asset_id, result, notes, validated_at, valid_until)',
    roles: lifecycleRoles.write,
    status: 201,
    document: `mutation ($input: CreateDetectionValidationInput!) { createDetectionValidation(input: $input) { ${VALIDATION_FIELDS} } }`,
    variables: { input: body() },
  },
  {
    method: 'POST',
    path: `${BASE}/validations/:id/invalidate`,
    tag: TAG,
    summary: 'Invalidate a validation (body reason); 409 when already invalidated',
    roles: lifecycleRoles.write,
    document: `mutation ($id: UUID!, $reason: String!) { invalidateDetectionValidation(id: $id, reason: $reason) { ${VALIDATION_FIELDS} } }`,
  },
  {
    method: 'GET',
    path: `${BASE}/infrastructure-changes`,
    tag: TAG,
    summary: 'Infrastructure changes, newest first (filters since, platform)',
    roles: lifecycleRoles.read,
    document: `query ($since: DateTime, $platform: String, $offset: Int, $limit: Int) {
      infrastructureChanges(since: $since, platform: $platform, offset: $offset, limit: $limit) { items { ${CHANGE_FIELDS} } total offset limit } }`,
  },
  {
    method: 'POST',
    path: `${BASE}/infrastructure-changes`,
    tag: TAG,
    summary: 'Record a change (body title, description, changed_at, platforms, asset_ids, technique_ids): invalidates what it touches',
    roles: lifecycleRoles.write,
    status: 201,
    document: `mutation ($input: RecordInfrastructureChangeInput!) { recordInfrastructureChange(input: $input) { ${CHANGE_FIELDS} } }`,
    variables: { input: body() },
  },
  {
    method: 'GET',
    path: `${BASE}/dashboard`,
    tag: TAG,
    summary: 'Detection confidence per technique (0–100) with its terms, lowest first (filter technique)',
    roles: lifecycleRoles.read,
    document: `query ($technique: String, $offset: Int, $limit: Int) { detectionLifecycleDashboard(technique: $technique, offset: $offset, limit: $limit) {
      techniques { ${CONFIDENCE_FIELDS} } total averageConfidence withFreshValidation withoutActiveAsset computedAt } }`,
  },
];
