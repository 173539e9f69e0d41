import { builder, type SchemaTypes } from '../../graphql/builder.ts';
import { cappedListCost } from '../../graphql/cost.ts';
import { Severity } from '../../generated/prisma/enums.ts';
import type { CountByKey, TemplateStats } from './service.ts';
import { techniqueLoader } from './loaders.ts';

/** Sources and platforms templates come from (a dozen or two). */
const COUNT_KEYS_MAX = 50;

export const TemplateSeverityEnum = builder.enumType(Severity, {
  name: 'TemplateSeverity',
  description: 'How severe the behaviour a template exercises is, from informational to critical.',
});

export const TestTemplateType = builder.prismaObject('TestTemplate', {
  description: 'A reusable test definition; Atomic Red Team atomics import as templates with source atomic_red_team.',
  fields: (t) => ({
    id: t.exposeID('id'),
    name: t.exposeString('name'),
    description: t.exposeString('description'),
    ttpTechniqueId: t.exposeString('ttpTechniqueId', {
      nullable: true,
      description: 'ATT&CK id (or custom technique id) of the technique the template exercises.',
    }),
    platform: t.exposeString('platform', { nullable: true, description: 'Primary platform: the first of platforms.' }),
    platforms: t.exposeStringList('platforms', {
      description: 'Every platform the template runs on, lower-case (windows, linux, macos, iaas:aws …).',
    }),
    severity: t.expose('severity', { type: TemplateSeverityEnum }),
    source: t.exposeString('source', { description: 'manual, test (saved from a test) or atomic_red_team.' }),
    executor: t.exposeString('executor', {
      nullable: true,
      description: 'How the procedure runs: powershell, command_prompt, sh, bash, manual …',
    }),
    procedure: t.exposeString('procedure', {
      description: 'The commands or manual steps. Documentation only: the platform never runs them.',
    }),
    cleanupCommand: t.exposeString('cleanupCommand', { nullable: true }),
    elevationRequired: t.exposeBoolean('elevationRequired'),
    inputArguments: t.expose('inputArguments', {
      type: 'JSON',
      description: 'Named arguments referenced as #{name} in the procedure, each with description, type and default.',
    }),
    toolUsed: t.exposeString('toolUsed', { nullable: true }),
    suggestedRemediation: t.exposeString('suggestedRemediation', {
      description: 'What to do when the behaviour goes undetected or succeeds.',
    }),
    externalId: t.exposeString('externalId', {
      nullable: true,
      description: 'Upstream identity (the atomic test GUID for Atomic Red Team).',
    }),
    isActive: t.exposeBoolean('isActive', {
      description: 'Inactive templates are kept (tests may reference them) but not offered for new tests.',
    }),
    createdById: t.exposeString('createdById', { nullable: true, description: 'The user who created it; null for imported templates.' }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    updatedAt: t.expose('updatedAt', { type: 'DateTime' }),
    technique: t.prismaField({
      type: 'Technique',
      nullable: true,
      description: 'The catalog technique with ttpTechniqueId, when the catalog has it.',
      resolve: (_query, template, _args, context) =>
        template.ttpTechniqueId ? techniqueLoader(context).load(template.ttpTechniqueId) : null,
    }),
    testCount: t.relationCount('tests', { description: 'Number of tests created from this template.' }),
  }),
});

const CountByKeyType = builder.objectRef<CountByKey>('TemplateCount').implement({
  description: 'A number of templates sharing one value.',
  fields: (t) => ({ key: t.exposeString('key'), count: t.exposeInt('count') }),
});

export const TemplateStatsType = builder.objectRef<TemplateStats>('TestTemplateStats').implement({
  description: 'Template totals, computed by the database.',
  fields: (t) => ({
    total: t.exposeInt('total'),
    active: t.exposeInt('active'),
    inactive: t.exposeInt('inactive'),
    bySource: t.field({
      type: [CountByKeyType],
      complexity: cappedListCost(COUNT_KEYS_MAX),
      description: 'Templates per source, largest first.',
      resolve: (stats) => stats.bySource,
    }),
    byPlatform: t.field({
      type: [CountByKeyType],
      complexity: cappedListCost(COUNT_KEYS_MAX),
      description: 'Templates per platform, largest first; a template counts once for each of its platforms.',
      resolve: (stats) => stats.byPlatform,
    }),
  }),
});

export const TestTemplateFilterInput = builder.inputType('TestTemplateFilter', {
  fields: (t) => ({
    source: t.string({ required: false, description: 'manual, test or atomic_red_team.' }),
    platform: t.string({ required: false, description: 'Matches any of the template platforms (case-insensitive).' }),
    severity: t.field({ type: TemplateSeverityEnum, required: false }),
    search: t.string({ required: false, description: 'Matches name, description, technique id, tool or procedure (case-insensitive).' }),
    ttpTechniqueId: t.string({ required: false, description: 'Exact technique id (case-insensitive); sub-techniques are not included.' }),
    isActive: t.boolean({ required: false }),
  }),
});

const templateFields = (t: PothosSchemaTypes.InputFieldBuilder<SchemaTypes, 'InputObject'>) => ({
  name: t.string({ required: false }),
  description: t.string({ required: false }),
  ttpTechniqueId: t.string({ required: false, description: 'T1234, T1234.001, or the id of a custom technique.' }),
  platform: t.string({ required: false, description: 'Primary platform (moved to the front of platforms).' }),
  platforms: t.stringList({ required: false }),
  severity: t.field({ type: TemplateSeverityEnum, required: false }),
  executor: t.string({ required: false }),
  procedure: t.string({ required: false }),
  cleanupCommand: t.string({ required: false }),
  elevationRequired: t.boolean({ required: false }),
  inputArguments: t.field({
    type: 'JSON',
    required: false,
    description: 'Object of named arguments, each an object (description, type, default).',
  }),
  toolUsed: t.string({ required: false }),
  suggestedRemediation: t.string({ required: false }),
});

export const CreateTestTemplateInput = builder.inputType('CreateTestTemplateInput', {
  description: 'A template from scratch (name required), or from a test (testId) whose fields are copied unless given here.',
  fields: (t) => ({
    testId: t.field({
      type: 'UUID',
      required: false,
      description: 'Copy name, description, technique, platform, procedure, tool and remediation steps from this test.',
    }),
    ...templateFields(t),
  }),
});

export const UpdateTestTemplateInput = builder.inputType('UpdateTestTemplateInput', {
  fields: (t) => templateFields(t),
});
