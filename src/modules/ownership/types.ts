import { builder } from '../../graphql/builder.ts';
import { pageType } from '../../graphql/pagination.ts';
import { Responsibility, RevalidationReason, Severity } from '../../generated/prisma/enums.ts';
import { UserSummaryType } from '../users/types.ts';
import { TechniqueRefType } from '../techniques/types.ts';

export const ResponsibilityEnum = builder.enumType(Responsibility, { name: 'Responsibility' });
export const CriticalityEnum = builder.enumType(Severity, {
  name: 'AssetCriticality',
  description: 'How much an asset matters, from informational to critical.',
});
export const RevalidationReasonEnum = builder.enumType(RevalidationReason, { name: 'RevalidationReason' });

const techniqueRef = { select: { technique: { select: { id: true, ttpId: true, name: true } } } } as const;

export const OwnershipAssignmentType = builder.prismaObject('OwnershipAssignment', {
  description: 'Who owns a technique for a responsibility (red, blue or both); one per technique and responsibility.',
  fields: (t) => ({
    id: t.exposeID('id'),
    technique: t.field({ type: TechniqueRefType, ...techniqueRef, resolve: (row) => row.technique }),
    owner: t.relation('owner', { type: UserSummaryType }),
    team: t.exposeString('team', { nullable: true }),
    responsibility: t.expose('responsibility', { type: ResponsibilityEnum }),
    dueDate: t.string({ nullable: true, select: { dueDate: true }, resolve: (row) => row.dueDate?.toISOString().slice(0, 10) ?? null }),
    notes: t.exposeString('notes', { nullable: true }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    updatedAt: t.expose('updatedAt', { type: 'DateTime' }),
  }),
});

export const OwnedAssetType = builder.prismaObject('OwnedAsset', {
  description: 'A system or environment the team is responsible for.',
  fields: (t) => ({
    id: t.exposeID('id'),
    name: t.exposeString('name'),
    kind: t.exposeString('kind'),
    platform: t.exposeString('platform', { nullable: true }),
    criticality: t.expose('criticality', { type: CriticalityEnum }),
    owner: t.relation('owner', { type: UserSummaryType, nullable: true }),
    description: t.exposeString('description', { nullable: true }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
  }),
});

export const RevalidationEntryType = builder.prismaObject('RevalidationEntry', {
  description: 'A technique that needs re-testing, and why.',
  fields: (t) => ({
    id: t.exposeID('id'),
    technique: t.field({ type: TechniqueRefType, ...techniqueRef, resolve: (row) => row.technique }),
    reason: t.expose('reason', { type: RevalidationReasonEnum }),
    detail: t.exposeString('detail'),
    riskScore: t.exposeFloat('riskScore', { description: "The technique's risk score (0 without a risk profile): the queue's order." }),
    since: t.expose('since', { type: 'DateTime', description: 'Since when the reason holds.' }),
    createdAt: t.expose('createdAt', { type: 'DateTime', description: 'When it entered the queue.' }),
  }),
});

export const QueueGenerationType = builder
  .objectRef<{ added: number; kept: number; removed: number; total: number }>('RevalidationQueueGeneration')
  .implement({
    fields: (t) => ({
      added: t.exposeInt('added'),
      kept: t.exposeInt('kept'),
      removed: t.exposeInt('removed'),
      total: t.exposeInt('total'),
    }),
  });

export const CreateOwnershipAssignmentInput = builder.inputType('CreateOwnershipAssignmentInput', {
  fields: (t) => ({
    techniqueId: t.string({ required: true, description: 'ATT&CK id or record id.' }),
    ownerId: t.field({ type: 'UUID', required: true }),
    responsibility: t.field({ type: ResponsibilityEnum, required: true }),
    team: t.string(),
    dueDate: t.string({ description: 'YYYY-MM-DD.' }),
    notes: t.string(),
  }),
});

export const UpdateOwnershipAssignmentInput = builder.inputType('UpdateOwnershipAssignmentInput', {
  fields: (t) => ({
    ownerId: t.field({ type: 'UUID' }),
    responsibility: t.field({ type: ResponsibilityEnum }),
    team: t.string(),
    dueDate: t.string(),
    notes: t.string(),
  }),
});

export const CreateOwnedAssetInput = builder.inputType('CreateOwnedAssetInput', {
  fields: (t) => ({
    name: t.string({ required: true }),
    kind: t.string({ required: true, description: 'e.g. system, environment, application.' }),
    platform: t.string(),
    criticality: t.field({ type: CriticalityEnum }),
    ownerId: t.field({ type: 'UUID' }),
    description: t.string(),
  }),
});

export const OwnershipAssignmentPage = pageType('OwnershipAssignmentPage', OwnershipAssignmentType);
export const OwnedAssetPage = pageType('OwnedAssetPage', OwnedAssetType);
export const RevalidationEntryPage = pageType('RevalidationEntryPage', RevalidationEntryType);
