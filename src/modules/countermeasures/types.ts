import { builder } from '../../graphql/builder.ts';
import { cappedListCost, pagedCost } from '../../graphql/cost.ts';
import { pageType, sliceOfPage, slicedPageArgs } from '../../graphql/pagination.ts';
import { CoverageStatusEnum } from '../techniques/types.ts';
import {
  COUNTERMEASURE_MAPPING_MAX,
  countermeasureLoaders,
  type CountermeasureTechnique,
  type TechniqueCountermeasure,
} from './service.ts';

/** The countermeasures a technique lists at once (D3FEND maps a few dozen to the busiest techniques). */
const TECHNIQUE_COUNTERMEASURE_PAGE = { defaultLimit: 50, maxLimit: COUNTERMEASURE_MAPPING_MAX } as const;

export const CountermeasureTechniqueType = builder.objectRef<CountermeasureTechnique>('CountermeasureTechnique').implement({
  description: 'An ATT&CK technique a countermeasure counters; the technique fields are null when the catalog does not hold that id.',
  fields: (t) => ({
    attackId: t.exposeString('attackId', { description: 'ATT&CK id as D3FEND maps it, e.g. T1059.001.' }),
    inCatalog: t.boolean({
      description: 'Whether the technique catalog holds this ATT&CK id.',
      resolve: (mapping) => mapping.technique !== null,
    }),
    techniqueId: t.id({ nullable: true, resolve: (mapping) => mapping.technique?.id ?? null }),
    techniqueName: t.string({ nullable: true, resolve: (mapping) => mapping.technique?.name ?? null }),
    statusGlobal: t.field({ type: CoverageStatusEnum, nullable: true, resolve: (mapping) => mapping.technique?.statusGlobal ?? null }),
    revoked: t.boolean({
      nullable: true,
      description: 'Whether the catalog technique is revoked.',
      resolve: (mapping) => mapping.technique?.revoked ?? null,
    }),
    deprecated: t.boolean({ nullable: true, resolve: (mapping) => mapping.technique?.deprecated ?? null }),
    details: t.expose('details', {
      type: 'JSON',
      description: 'The artifact paths linking the two: def_artifact_relation, def_artifact, off_artifact_relation, off_artifact.',
    }),
  }),
});

export const DefensiveTechniqueType = builder.prismaObject('DefensiveTechnique', {
  description: 'A D3FEND defensive technique (countermeasure).',
  fields: (t) => ({
    id: t.exposeID('id'),
    d3fendId: t.exposeString('d3fendId', { description: 'D3FEND id, e.g. D3-AL.' }),
    name: t.exposeString('name'),
    tactic: t.exposeString('tactic', { description: 'D3FEND tactic: Model, Harden, Detect, Isolate, Deceive, Evict or Restore.' }),
    parent: t.exposeString('parent', { nullable: true, description: 'D3FEND id of the parent technique; null for a top-level technique.' }),
    topLevel: t.exposeString('topLevel', { nullable: true, description: 'D3FEND id of the top-level technique of its branch.' }),
    definition: t.exposeString('definition'),
    updatedAt: t.expose('updatedAt', { type: 'DateTime' }),
    techniqueCount: t.relationCount('mappings', { description: 'Number of ATT&CK techniques the countermeasure is mapped to.' }),
    techniques: t.field({
      type: [CountermeasureTechniqueType],
      description: `The ATT&CK techniques it counters, by ATT&CK id (at most ${COUNTERMEASURE_MAPPING_MAX}).`,
      complexity: cappedListCost(COUNTERMEASURE_MAPPING_MAX),
      resolve: async (technique, _args, context) =>
        (await countermeasureLoaders(context).byCountermeasure.load(technique.id)).slice(0, COUNTERMEASURE_MAPPING_MAX),
    }),
  }),
});

export const DefensiveTechniquePage = pageType('DefensiveTechniquePage', DefensiveTechniqueType);

export const TechniqueCountermeasureType = builder.objectRef<TechniqueCountermeasure>('TechniqueCountermeasure').implement({
  description:
    'A countermeasure of an ATT&CK technique, with the artifact paths linking the two. The flat fields save clients a nesting level.',
  fields: (t) => ({
    id: t.id({ description: 'Id of the defensive technique.', resolve: (mapping) => mapping.defensiveTechnique.id }),
    d3fendId: t.string({ resolve: (mapping) => mapping.defensiveTechnique.d3fendId }),
    name: t.string({ resolve: (mapping) => mapping.defensiveTechnique.name }),
    tactic: t.string({ resolve: (mapping) => mapping.defensiveTechnique.tactic }),
    parent: t.string({ nullable: true, resolve: (mapping) => mapping.defensiveTechnique.parent }),
    topLevel: t.string({ nullable: true, resolve: (mapping) => mapping.defensiveTechnique.topLevel }),
    attackId: t.exposeString('attackId'),
    details: t.expose('details', {
      type: 'JSON',
      description: 'The artifact paths linking the two: def_artifact_relation, def_artifact, off_artifact_relation, off_artifact.',
    }),
    defensiveTechnique: t.field({ type: DefensiveTechniqueType, resolve: (mapping) => mapping.defensiveTechnique }),
  }),
});

export const CountermeasureFilterInput = builder.inputType('CountermeasureFilter', {
  fields: (t) => ({
    tactic: t.string({ required: false, description: 'D3FEND tactic (case-insensitive), e.g. Detect.' }),
    search: t.string({ required: false, description: 'Matches D3FEND id, name or definition.' }),
    ttpId: t.string({ required: false, description: 'Only countermeasures mapped to this ATT&CK id.' }),
  }),
});

builder.prismaObjectField('Technique', 'countermeasures', (t) =>
  t.field({
    type: [TechniqueCountermeasureType],
    description: 'D3FEND countermeasures of this technique, by D3FEND id, a page at a time (loaded in one batch for a whole list).',
    args: slicedPageArgs(t.arg, TECHNIQUE_COUNTERMEASURE_PAGE),
    complexity: pagedCost(TECHNIQUE_COUNTERMEASURE_PAGE),
    select: { ttpId: true },
    resolve: async (technique, args, context) =>
      sliceOfPage(await countermeasureLoaders(context).byTtpId.load(technique.ttpId), args, TECHNIQUE_COUNTERMEASURE_PAGE),
  }),
);
