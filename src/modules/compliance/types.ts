import { builder } from '../../graphql/builder.ts';
import { allow } from '../../graphql/access.ts';
import { cappedListCost, pagedCost } from '../../graphql/cost.ts';
import { pageType, sliceOfPage, slicedPageArgs } from '../../graphql/pagination.ts';
import { complianceRoles } from './permissions.ts';
import { CoverageStatusEnum } from '../techniques/types.ts';
import {
  ControlCoverage,
  controlTechniquesLoader,
  TECHNIQUE_CONTROL_MAX,
  techniqueControlsLoader,
  type ComplianceSummary,
  type ControlRow,
  type ControlTechnique,
  type FrameworkRow,
  type TechniqueControl,
} from './service.ts';

/** Most techniques one control lists: the widest NIST 800-53 controls (system monitoring) map a few hundred. */
const CONTROL_TECHNIQUE_MAX = 500;

export const ControlCoverageEnum = builder.enumType('ControlCoverage', {
  description:
    'Coverage of a control from its mapped catalog techniques (active ones only): covered = all validated; partial = at least one validated or partial; gap = none validated or partial; not_evaluated = no mapped technique in the catalog.',
  values: Object.values(ControlCoverage),
});

export const ComplianceFrameworkType = builder.objectRef<FrameworkRow>('ComplianceFramework').implement({
  description: 'A control framework mapped to ATT&CK by the CTID Mappings Explorer.',
  fields: (t) => ({
    id: t.exposeID('id'),
    key: t.exposeString('key', { description: 'Stable key: nist_800_53 or csa_ccm.' }),
    name: t.exposeString('name'),
    version: t.exposeString('version', { description: 'Framework version, e.g. rev5 or 4.1.' }),
    attackVersion: t.exposeString('attackVersion', { nullable: true, description: 'ATT&CK version the mapping was made against.' }),
    updatedAt: t.expose('updatedAt', { type: 'DateTime' }),
    controlCount: t.exposeInt('controlCount', { description: 'Controls of the framework, mapped or not.' }),
    mappedControlCount: t.exposeInt('mappedControlCount', { description: 'Controls with at least one ATT&CK mapping.' }),
    mappingCount: t.exposeInt('mappingCount', { description: 'Control → ATT&CK mappings.' }),
    attackIdCount: t.exposeInt('attackIdCount', { description: 'Distinct ATT&CK ids mapped.' }),
  }),
});

export const ControlTechniqueType = builder.objectRef<ControlTechnique>('ComplianceControlTechnique').implement({
  description: 'An ATT&CK technique mapped to a control; the technique fields are null when the catalog does not hold that id.',
  fields: (t) => ({
    attackId: t.exposeString('attackId'),
    mappingType: t.exposeString('mappingType', { description: 'Mapping type, e.g. mitigates.' }),
    comments: t.exposeString('comments', { nullable: true }),
    inCatalog: t.exposeBoolean('inCatalog', { description: 'Whether the technique catalog holds this ATT&CK id.' }),
    assessed: t.exposeBoolean('assessed', {
      description: 'Whether it counts for the coverage rule (in the catalog, not revoked or deprecated).',
    }),
    techniqueId: t.exposeID('techniqueId', { nullable: true }),
    techniqueName: t.exposeString('techniqueName', { nullable: true }),
    statusGlobal: t.expose('statusGlobal', { type: CoverageStatusEnum, nullable: true }),
  }),
});

export const ComplianceControlType = builder.objectRef<ControlRow>('ComplianceControl').implement({
  description: 'A control of a framework with its coverage status.',
  fields: (t) => ({
    id: t.exposeID('id'),
    frameworkId: t.exposeID('frameworkId'),
    controlId: t.exposeString('controlId', { description: "The framework's control id, e.g. AC-02 or IAM-01." }),
    name: t.exposeString('name'),
    family: t.exposeString('family', { nullable: true, description: 'Control family, e.g. Access Control.' }),
    coverageStatus: t.expose('coverageStatus', { type: ControlCoverageEnum }),
    mappedCount: t.exposeInt('mappedCount', { description: 'Distinct ATT&CK ids mapped to the control.' }),
    assessedCount: t.exposeInt('assessedCount', { description: 'Mapped ids that are active techniques of the catalog.' }),
    validatedCount: t.exposeInt('validatedCount'),
    partialCount: t.exposeInt('partialCount'),
    techniques: t.field({
      type: [ControlTechniqueType],
      description: `Mapped ATT&CK techniques, by ATT&CK id (at most ${CONTROL_TECHNIQUE_MAX}; loaded in one batch for a whole page).`,
      complexity: cappedListCost(CONTROL_TECHNIQUE_MAX),
      resolve: async (control, _args, context) => (await controlTechniquesLoader(context).load(control.id)).slice(0, CONTROL_TECHNIQUE_MAX),
    }),
  }),
});

export const ComplianceControlPage = pageType('ComplianceControlPage', ComplianceControlType);

export const ComplianceSummaryType = builder.objectRef<ComplianceSummary>('ComplianceSummary').implement({
  description: "Coverage of a framework's controls by status, and the mapped ATT&CK ids the rule could not look at.",
  fields: (t) => ({
    framework: t.field({ type: ComplianceFrameworkType, resolve: (summary) => summary.framework }),
    total: t.exposeInt('total', { description: 'Controls of the framework.' }),
    covered: t.exposeInt('covered'),
    partial: t.exposeInt('partial'),
    gaps: t.exposeInt('gaps'),
    notEvaluated: t.exposeInt('notEvaluated'),
    unmapped: t.exposeInt('unmapped', { description: 'Controls without any ATT&CK mapping (counted in notEvaluated).' }),
    coveragePercentage: t.exposeFloat('coveragePercentage', {
      description: 'covered / (covered + partial + gaps) × 100, one decimal; 0 when none can be assessed.',
    }),
    mappedAttackIdCount: t.exposeInt('mappedAttackIdCount'),
    absentAttackIds: t.exposeStringList('absentAttackIds', { description: 'Mapped ATT&CK ids the catalog does not hold.' }),
    absentCount: t.int({ resolve: (summary) => summary.absentAttackIds.length }),
    inactiveAttackIds: t.exposeStringList('inactiveAttackIds', {
      description: 'Mapped ATT&CK ids that are revoked or deprecated in the catalog.',
    }),
    inactiveCount: t.int({ resolve: (summary) => summary.inactiveAttackIds.length }),
  }),
});

export const ComplianceControlFilterInput = builder.inputType('ComplianceControlFilter', {
  fields: (t) => ({
    status: t.field({ type: ControlCoverageEnum, required: false }),
    family: t.string({
      required: false,
      description: 'Family name (case-insensitive) or its control id prefix, e.g. Access Control or AC.',
    }),
    search: t.string({ required: false, description: 'Matches control id or name.' }),
  }),
});

/** The controls a technique lists at once. */
const TECHNIQUE_CONTROL_PAGE = { defaultLimit: 50, maxLimit: TECHNIQUE_CONTROL_MAX } as const;

export const TechniqueComplianceControlType = builder.objectRef<TechniqueControl>('TechniqueComplianceControl').implement({
  description: 'A compliance control mapped to an ATT&CK technique, with its framework and how it maps.',
  fields: (t) => ({
    id: t.exposeID('id', { description: 'Id of the control.' }),
    frameworkKey: t.exposeString('frameworkKey', { description: "The framework's stable key: nist_800_53 or csa_ccm." }),
    frameworkName: t.exposeString('frameworkName'),
    controlId: t.exposeString('controlId', { description: "The framework's control id, e.g. AC-2 or IAM-01." }),
    name: t.exposeString('name'),
    family: t.exposeString('family', { nullable: true }),
    mappingTypes: t.exposeStringList('mappingTypes', { description: 'How the control maps to the technique, e.g. mitigates.' }),
  }),
});

builder.prismaObjectField('Technique', 'complianceControls', (t) =>
  t.field({
    type: [TechniqueComplianceControlType],
    description:
      'Compliance controls mapped to this technique (CTID Mappings Explorer), by framework key and control id, a page at a time (loaded in one batch for a whole list).',
    authScopes: allow(complianceRoles.read),
    args: slicedPageArgs(t.arg, TECHNIQUE_CONTROL_PAGE),
    complexity: pagedCost(TECHNIQUE_CONTROL_PAGE),
    select: { ttpId: true },
    resolve: async (technique, args, context) =>
      sliceOfPage(await techniqueControlsLoader(context).load(technique.ttpId), args, TECHNIQUE_CONTROL_PAGE),
  }),
);
