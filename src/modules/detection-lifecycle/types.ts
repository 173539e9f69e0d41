import { builder } from '../../graphql/builder.ts';
import { pageType } from '../../graphql/pagination.ts';
import { cappedListCost, pageItemsCost } from '../../graphql/cost.ts';
import { DetectionAssetKind, DetectionAssetStatus } from '../../generated/prisma/enums.ts';
import { TechniqueRefType } from '../techniques/types.ts';
import { UserSummaryType } from '../users/types.ts';
import type { ConfidenceRow } from './confidence.ts';
import type { LifecycleDashboard } from './service.ts';
import { validationStatusOf } from './validation-states.ts';

/** Most techniques one asset lists. */
export const ASSET_TECHNIQUES_MAX = 200;

export const DetectionAssetKindEnum = builder.enumType(DetectionAssetKind, { name: 'DetectionAssetKind' });
export const DetectionAssetStatusEnum = builder.enumType(DetectionAssetStatus, { name: 'DetectionAssetStatus' });

export const DetectionAssetType = builder.prismaObject('DetectionAsset', {
  description: 'A detection deployed in the environment: a SIEM rule, EDR policy, IDS signature or log-source dependency.',
  fields: (t) => ({
    id: t.exposeID('id'),
    name: t.exposeString('name'),
    kind: t.expose('kind', { type: DetectionAssetKindEnum }),
    platform: t.exposeString('platform', { nullable: true }),
    description: t.exposeString('description', { nullable: true }),
    status: t.expose('status', { type: DetectionAssetStatusEnum }),
    owner: t.relation('owner', { type: UserSummaryType, nullable: true }),
    detectionRule: t.relation('detectionRule', { nullable: true, description: 'The imported rule it deploys (keeps its attribution).' }),
    techniques: t.field({
      type: [TechniqueRefType],
      description: `The techniques it detects (at most ${ASSET_TECHNIQUES_MAX}), by ATT&CK id.`,
      complexity: cappedListCost(ASSET_TECHNIQUES_MAX),
      select: {
        techniques: {
          select: { technique: { select: { id: true, ttpId: true, name: true } } },
          take: ASSET_TECHNIQUES_MAX,
          orderBy: { linkedAt: 'asc' },
        },
      },
      resolve: (asset) => asset.techniques.map((link) => link.technique),
    }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    updatedAt: t.expose('updatedAt', { type: 'DateTime' }),
  }),
});

export const DetectionValidationType = builder.prismaObject('DetectionValidation', {
  description: 'That an asset detected a technique at a time; fresh until valid_until unless invalidated.',
  fields: (t) => ({
    id: t.exposeID('id'),
    technique: t.field({
      type: TechniqueRefType,
      select: { technique: { select: { id: true, ttpId: true, name: true } } },
      resolve: (validation) => validation.technique,
    }),
    assetId: t.exposeID('assetId', { nullable: true }),
    testId: t.exposeID('testId', { nullable: true }),
    source: t.exposeString('source', { description: 'test (from a validated test) or manual.' }),
    result: t.exposeString('result'),
    notes: t.exposeString('notes', { nullable: true }),
    validatedAt: t.expose('validatedAt', { type: 'DateTime' }),
    validUntil: t.expose('validUntil', { type: 'DateTime' }),
    status: t.string({
      description: 'fresh, expired or invalidated (now).',
      select: { invalidatedAt: true, validUntil: true },
      resolve: (validation) => validationStatusOf(validation, new Date()),
    }),
    invalidatedAt: t.expose('invalidatedAt', { type: 'DateTime', nullable: true }),
    invalidatedReason: t.exposeString('invalidatedReason', { nullable: true }),
    invalidatedByChangeId: t.exposeID('invalidatedById', { nullable: true }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
  }),
});

export const InfrastructureChangeType = builder.prismaObject('InfrastructureChange', {
  description: 'A recorded change of the environment; recording it invalidated the validations it touched.',
  fields: (t) => ({
    id: t.exposeID('id'),
    title: t.exposeString('title'),
    description: t.exposeString('description', { nullable: true }),
    changedAt: t.expose('changedAt', { type: 'DateTime' }),
    platforms: t.exposeStringList('platforms'),
    assetIds: t.exposeIDList('assetIds'),
    techniqueIds: t.exposeIDList('techniqueIds'),
    invalidatedValidations: t.relationCount('invalidated', { description: 'How many validations it invalidated.' }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
  }),
});

export const ConfidenceType = builder.objectRef<ConfidenceRow>('DetectionConfidence').implement({
  description:
    'Detection confidence of one technique with its terms: round(100 × (0.2 × asset_term + 0.8 × validation_term) × 0.5^changes_since_validation).',
  fields: (t) => ({
    techniqueId: t.exposeID('techniqueId'),
    ttpId: t.exposeString('ttpId'),
    name: t.exposeString('name'),
    activeAssets: t.exposeInt('activeAssets'),
    assetTerm: t.exposeFloat('assetTerm', { description: 'min(active assets, 2) / 2.' }),
    freshValidations: t.exposeInt('freshValidations'),
    validationTerm: t.exposeFloat('validationTerm', { description: "The freshest validation's remaining life, 0–1." }),
    lastValidatedAt: t.expose('lastValidatedAt', { type: 'DateTime', nullable: true }),
    changesSinceValidation: t.exposeInt('changesSinceValidation'),
    changeFactor: t.exposeFloat('changeFactor', { description: '0.5 per change since the latest validation.' }),
    confidence: t.exposeInt('confidence', { description: '0–100.' }),
  }),
});

export const LifecycleDashboardType = builder.objectRef<LifecycleDashboard>('DetectionLifecycleDashboard').implement({
  fields: (t) => ({
    techniques: t.field({
      type: [ConfidenceType],
      description: 'Lowest confidence first (one page).',
      complexity: pageItemsCost,
      resolve: (dashboard) => dashboard.techniques,
    }),
    total: t.exposeInt('total', { description: 'Techniques with a linked asset or a validation.' }),
    averageConfidence: t.exposeFloat('averageConfidence', { nullable: true }),
    withFreshValidation: t.exposeInt('withFreshValidation'),
    withoutActiveAsset: t.exposeInt('withoutActiveAsset'),
    computedAt: t.exposeString('computedAt'),
  }),
});

export const CreateDetectionAssetInput = builder.inputType('CreateDetectionAssetInput', {
  fields: (t) => ({
    name: t.string({ required: true }),
    kind: t.field({ type: DetectionAssetKindEnum, required: true }),
    platform: t.string(),
    description: t.string(),
    status: t.field({ type: DetectionAssetStatusEnum }),
    ownerId: t.field({ type: 'UUID' }),
    detectionRuleId: t.field({ type: 'UUID' }),
  }),
});

export const UpdateDetectionAssetInput = builder.inputType('UpdateDetectionAssetInput', {
  fields: (t) => ({
    name: t.string(),
    kind: t.field({ type: DetectionAssetKindEnum }),
    platform: t.string(),
    description: t.string(),
    status: t.field({ type: DetectionAssetStatusEnum }),
    ownerId: t.field({ type: 'UUID' }),
    detectionRuleId: t.field({ type: 'UUID' }),
  }),
});

export const CreateDetectionValidationInput = builder.inputType('CreateDetectionValidationInput', {
  fields: (t) => ({
    techniqueId: t.string({ required: true, description: 'ATT&CK id or record id.' }),
    assetId: t.field({ type: 'UUID', description: 'An asset linked to the technique.' }),
    result: t.string({ description: 'detected (default) or partially_detected.' }),
    notes: t.string(),
    validatedAt: t.field({ type: 'DateTime' }),
    validUntil: t.field({ type: 'DateTime', description: 'Default: validated_at + DETECTION_VALIDATION_TTL (90 days).' }),
  }),
});

export const RecordInfrastructureChangeInput = builder.inputType('RecordInfrastructureChangeInput', {
  fields: (t) => ({
    title: t.string({ required: true }),
    description: t.string(),
    changedAt: t.field({ type: 'DateTime', description: 'Default: now.' }),
    platforms: t.stringList({ description: 'Platforms affected (matched with the assets’ platforms, case-insensitively).' }),
    assetIds: t.field({ type: ['UUID'] }),
    techniqueIds: t.stringList({ description: 'ATT&CK ids or record ids.' }),
  }),
});

export const DetectionAssetPage = pageType('DetectionAssetPage', DetectionAssetType);
export const DetectionValidationPage = pageType('DetectionValidationPage', DetectionValidationType);
export const InfrastructureChangePage = pageType('InfrastructureChangePage', InfrastructureChangeType);
