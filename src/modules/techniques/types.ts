import { builder } from '../../graphql/builder.ts';
import { CoverageStatus } from '../../generated/prisma/enums.ts';

export const CoverageStatusEnum = builder.enumType(CoverageStatus, {
  name: 'CoverageStatus',
  description: 'Global coverage of a technique, derived from its validated tests.',
});

export const TechniqueType = builder.prismaObject('Technique', {
  description: 'An attack technique of the catalog (ATT&CK or custom).',
  fields: (t) => ({
    id: t.exposeID('id'),
    ttpId: t.exposeString('ttpId', { description: 'Framework identifier, e.g. T1059 or T1059.001; the REST path key.' }),
    name: t.exposeString('name'),
    description: t.exposeString('description'),
    tactic: t.exposeString('tactic', { nullable: true, description: 'Primary tactic name.' }),
    platforms: t.exposeStringList('platforms'),
    statusGlobal: t.expose('statusGlobal', { type: CoverageStatusEnum }),
    reviewRequired: t.exposeBoolean('reviewRequired'),
    isCustom: t.exposeBoolean('isCustom', { description: 'Created by an admin rather than synchronised from the framework.' }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    updatedAt: t.expose('updatedAt', { type: 'DateTime' }),
  }),
});

export const TechniqueFilterInput = builder.inputType('TechniqueFilter', {
  fields: (t) => ({
    tactic: t.string({ required: false, description: 'Tactic name (case-insensitive).' }),
    status: t.field({ type: CoverageStatusEnum, required: false }),
    coverageStatus: t.field({ type: CoverageStatusEnum, required: false, description: 'Same as status (reference listing name).' }),
    reviewRequired: t.boolean({ required: false }),
    platform: t.string({ required: false }),
    search: t.string({ required: false, description: 'Matches ttp id, name or description.' }),
  }),
});

export const CreateTechniqueInput = builder.inputType('CreateTechniqueInput', {
  fields: (t) => ({
    ttpId: t.string({ required: true }),
    name: t.string({ required: true }),
    description: t.string({ required: false }),
    tactic: t.string({ required: false }),
    platforms: t.stringList({ required: false }),
  }),
});

export const UpdateTechniqueInput = builder.inputType('UpdateTechniqueInput', {
  fields: (t) => ({
    name: t.string({ required: false }),
    description: t.string({ required: false }),
    tactic: t.string({ required: false }),
    platforms: t.stringList({ required: false }),
    statusGlobal: t.field({ type: CoverageStatusEnum, required: false }),
    reviewRequired: t.boolean({ required: false }),
  }),
});
