import { builder, type SchemaTypes } from '../../graphql/builder.ts';
import { CoverageStatus } from '../../generated/prisma/enums.ts';
import '../catalog/types.ts';
import { catalogFields } from '../../graphql/catalog-cache.ts';
import { cappedListCost } from '../../graphql/cost.ts';
import { SUB_TECHNIQUE_MAX, subTechniquesOf, techniqueByTtpId } from './loaders.ts';

/** Most ATT&CK mitigations one technique lists (ATT&CK maps at most a few dozen). */
const MITIGATION_MAX = 100;

export const CoverageStatusEnum = builder.enumType(CoverageStatus, {
  name: 'CoverageStatus',
  description: 'Global coverage of a technique, derived from its validated tests.',
});

/** Techniques per coverage status: the five counts every coverage figure carries. */
export interface CoverageStatusCounts {
  validated: number;
  partial: number;
  inProgress: number;
  notCovered: number;
  notEvaluated: number;
}

/** The GraphQL fields of `CoverageStatusCounts`, for every object type that shows them. */
export const statusCountFields = <Shape extends CoverageStatusCounts>(t: PothosSchemaTypes.ObjectFieldBuilder<SchemaTypes, Shape>) => ({
  validated: t.int({ resolve: (counts) => counts.validated }),
  partial: t.int({ resolve: (counts) => counts.partial }),
  inProgress: t.int({ resolve: (counts) => counts.inProgress }),
  notCovered: t.int({ resolve: (counts) => counts.notCovered }),
  notEvaluated: t.int({ resolve: (counts) => counts.notEvaluated }),
});

/**
 * The columns every read of a technique loads: what a list, a matrix cell or a test's technique shows. The other
 * columns (the description, the ATT&CK metadata, the timestamps) are read only by a document that asks for them, so
 * that a page of tests or a thousand techniques does not load each row's description to throw it away. The fields of
 * these columns read the row without Pothos' per-row selection check, which a selecting field pays for every row.
 */
const TECHNIQUE_COLUMNS = {
  id: true,
  ttpId: true,
  name: true,
  tactic: true,
  tactics: true,
  platforms: true,
  statusGlobal: true,
  reviewRequired: true,
  isCustom: true,
  isSubtechnique: true,
  parentTtpId: true,
  revoked: true,
  deprecated: true,
} as const;

export const TechniqueType = builder.prismaObject('Technique', {
  description: 'An attack technique of the catalog (ATT&CK or custom).',
  select: TECHNIQUE_COLUMNS,
  // The fields read from the techniques table alone, which a kept catalog answer may hold (src/graphql/catalog-cache.ts);
  // the fields other modules add (tests, knowledge, mitigations, …) read other tables.
  extensions: catalogFields([
    ...['id', 'ttpId', 'name', 'description', 'tactic', 'tactics', 'platforms', 'statusGlobal', 'reviewRequired', 'isCustom'],
    ...['isSubtechnique', 'parentTtpId', 'stixId', 'attackVersion', 'attackModified', 'revoked', 'revokedByTtpId'],
    ...['deprecated', 'url', 'createdAt', 'updatedAt', 'parent', 'subTechniques'],
  ]),
  fields: (t) => ({
    id: t.id({ resolve: (technique) => technique.id }),
    ttpId: t.string({
      description: 'Framework identifier, e.g. T1059 or T1059.001; the REST path key.',
      resolve: (technique) => technique.ttpId,
    }),
    name: t.string({ resolve: (technique) => technique.name }),
    description: t.exposeString('description'),
    tactic: t.string({
      nullable: true,
      description: 'Primary tactic name (display name of the first of tactics).',
      resolve: (technique) => technique.tactic,
    }),
    tactics: t.stringList({
      description: 'Every tactic of the technique as ATT&CK short names (e.g. defense-evasion), in matrix order.',
      resolve: (technique) => technique.tactics,
    }),
    platforms: t.stringList({ resolve: (technique) => technique.platforms }),
    statusGlobal: t.field({ type: CoverageStatusEnum, resolve: (technique) => technique.statusGlobal }),
    reviewRequired: t.boolean({ resolve: (technique) => technique.reviewRequired }),
    isCustom: t.boolean({
      description: 'Created by an admin rather than synchronised from the framework.',
      resolve: (technique) => technique.isCustom,
    }),
    isSubtechnique: t.boolean({ resolve: (technique) => technique.isSubtechnique }),
    parentTtpId: t.string({
      nullable: true,
      description: 'ttp id of the parent technique of a sub-technique (T1059 for T1059.001).',
      resolve: (technique) => technique.parentTtpId,
    }),
    stixId: t.exposeString('stixId', { nullable: true, description: 'STIX id of the ATT&CK attack-pattern; null for custom techniques.' }),
    attackVersion: t.exposeString('attackVersion', { nullable: true, description: 'ATT&CK object version (x_mitre_version).' }),
    attackModified: t.expose('attackModified', { type: 'DateTime', nullable: true, description: 'When ATT&CK last modified the object.' }),
    revoked: t.boolean({
      description: 'Revoked in ATT&CK (replaced by another technique); kept for the tests that reference it.',
      resolve: (technique) => technique.revoked,
    }),
    revokedByTtpId: t.exposeString('revokedByTtpId', {
      nullable: true,
      description: "ttp id of the technique that replaced a revoked one (ATT&CK's revoked-by relationship), where ATT&CK names one.",
    }),
    deprecated: t.boolean({
      description: 'Deprecated in ATT&CK; kept for the tests that reference it.',
      resolve: (technique) => technique.deprecated,
    }),
    url: t.exposeString('url', { nullable: true, description: 'ATT&CK page of the technique.' }),
    mitigations: t.relation('mitigations', {
      description: `ATT&CK mitigations of the technique, with how each applies (at most ${MITIGATION_MAX}).`,
      query: { orderBy: { mitigation: { externalId: 'asc' } }, take: MITIGATION_MAX },
      complexity: cappedListCost(MITIGATION_MAX),
    }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    updatedAt: t.expose('updatedAt', { type: 'DateTime' }),
  }),
});

builder.prismaObjectFields(TechniqueType, (t) => ({
  parent: t.field({
    type: TechniqueType,
    nullable: true,
    description: 'The parent technique of a sub-technique.',
    resolve: (technique, _args, context) => (technique.parentTtpId ? techniqueByTtpId(context).load(technique.parentTtpId) : null),
  }),
  subTechniques: t.field({
    type: [TechniqueType],
    description: `Active sub-techniques of the technique, in ttp id order (at most ${SUB_TECHNIQUE_MAX}).`,
    complexity: cappedListCost(SUB_TECHNIQUE_MAX),
    resolve: (technique, _args, context) => (technique.isSubtechnique ? [] : subTechniquesOf(context).load(technique.ttpId)),
  }),
}));

export const TechniqueFilterInput = builder.inputType('TechniqueFilter', {
  fields: (t) => ({
    tactic: t.string({
      required: false,
      description:
        'Any tactic of the technique, by display name (Defense Evasion), short name (defense-evasion) or id (TA0005), case-insensitive.',
    }),
    status: t.field({ type: CoverageStatusEnum, required: false }),
    coverageStatus: t.field({ type: CoverageStatusEnum, required: false, description: 'Same as status (reference listing name).' }),
    reviewRequired: t.boolean({ required: false }),
    platform: t.string({ required: false, description: 'One of the platforms, case-insensitive.' }),
    search: t.string({ required: false, description: 'Matches ttp id, name or description.' }),
    includeDeprecated: t.boolean({ required: false, description: 'Also list revoked and deprecated techniques (hidden by default).' }),
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

/** A short reference to a technique, for lists of other records that name techniques. */
export const TechniqueRefType = builder.objectRef<{ id: string; ttpId: string; name: string }>('TechniqueRef').implement({
  description: 'A technique named by its record id, ATT&CK id and name.',
  fields: (t) => ({ id: t.exposeID('id'), ttpId: t.exposeString('ttpId'), name: t.exposeString('name') }),
});
