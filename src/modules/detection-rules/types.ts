import { builder, type SchemaTypes } from '../../graphql/builder.ts';
import { cappedListCost } from '../../graphql/cost.ts';

/** Most evaluations one rule lists: its latest. */
const RULE_EVALUATION_MAX = 500;
import { pageType } from '../../graphql/pagination.ts';
import { Severity } from '../../generated/prisma/enums.ts';

export const DetectionRuleSeverityEnum = builder.enumType(Severity, {
  name: 'DetectionRuleSeverity',
  description: 'Severity of a detection rule (Sigma `level`).',
});

export const DetectionRuleType = builder.prismaObject('DetectionRule', {
  description: 'A detection rule. Imported Sigma rules keep their upstream id and author (Detection Rule License 1.1).',
  fields: (t) => ({
    id: t.exposeID('id'),
    title: t.exposeString('title'),
    description: t.exposeString('description'),
    source: t.exposeString('source', { description: 'Where the rule comes from: custom, sigma, …' }),
    ttpTechniqueId: t.exposeString('ttpTechniqueId', { nullable: true, description: 'Primary technique: the first of techniqueIds.' }),
    techniqueIds: t.exposeStringList('techniqueIds', {
      description: 'Every technique the rule detects (ATT&CK ids from Sigma `attack.tNNNN` tags).',
    }),
    severity: t.expose('severity', { type: DetectionRuleSeverityEnum }),
    status: t.exposeString('status', {
      nullable: true,
      description: 'Maturity given by the author (Sigma: stable, test, experimental, …).',
    }),
    logSource: t.expose('logSource', {
      type: 'JSON',
      description: 'Log source the rule applies to (Sigma `logsource`: product, category, service).',
    }),
    content: t.exposeString('content', { description: 'The rule body; the raw YAML for Sigma rules.' }),
    externalId: t.exposeString('externalId', {
      nullable: true,
      description: 'Identifier at the source (the Sigma rule id); unique per source.',
    }),
    author: t.exposeString('author', {
      nullable: true,
      description: 'Rule author(s); must travel with every match derived from a Sigma rule.',
    }),
    references: t.exposeStringList('references'),
    license: t.exposeString('license', { nullable: true, description: 'Licence of the rule, e.g. DRL-1.1 for Sigma rules.' }),
    sourceUrl: t.exposeString('sourceUrl', { nullable: true, description: 'Upstream address of the rule, when known.' }),
    isActive: t.exposeBoolean('isActive', { description: 'False once an imported rule is no longer found upstream.' }),
    createdById: t.exposeID('createdById', { nullable: true, description: 'Creator of a custom rule; null for imported rules.' }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    updatedAt: t.expose('updatedAt', { type: 'DateTime' }),
    evaluations: t.relation('evaluations', {
      description: `Outcomes recorded for this rule on tests, newest first (the latest ${RULE_EVALUATION_MAX}).`,
      query: { orderBy: [{ evaluatedAt: 'desc' }, { id: 'desc' }], take: RULE_EVALUATION_MAX },
      complexity: cappedListCost(RULE_EVALUATION_MAX),
    }),
  }),
});

export const DetectionEvaluationType = builder.prismaObject('DetectionEvaluation', {
  description: 'Whether a detection rule triggered during a test. Rule identity and author are copies, kept if the rule is deleted.',
  fields: (t) => ({
    id: t.exposeID('id'),
    testId: t.exposeID('testId'),
    ruleId: t.exposeID('ruleId', { nullable: true, description: 'Null once the rule has been deleted.' }),
    ruleTitle: t.exposeString('ruleTitle'),
    ruleSource: t.exposeString('ruleSource'),
    ruleExternalId: t.exposeString('ruleExternalId', { nullable: true, description: 'The Sigma rule id for Sigma rules.' }),
    ruleAuthor: t.exposeString('ruleAuthor', { nullable: true, description: 'Author of the rule, as the rule licence requires.' }),
    triggered: t.exposeBoolean('triggered'),
    notes: t.exposeString('notes', { nullable: true }),
    evaluatedById: t.exposeID('evaluatedById', { nullable: true, description: 'The user who recorded the evaluation.' }),
    evaluatedAt: t.expose('evaluatedAt', { type: 'DateTime' }),
    rule: t.relation('rule', { nullable: true }),
    test: t.relation('test'),
  }),
});

export const DetectionRulePage = pageType('DetectionRulePage', DetectionRuleType);

export const DetectionRuleFilterInput = builder.inputType('DetectionRuleFilter', {
  fields: (t) => ({
    source: t.string({ required: false, description: 'custom, sigma, … (case-insensitive).' }),
    ttpTechniqueId: t.string({ required: false, description: 'Rules naming this technique among any of theirs.' }),
    severity: t.field({ type: DetectionRuleSeverityEnum, required: false }),
    search: t.string({ required: false, description: 'Matches title, description, external id or author.' }),
    isActive: t.boolean({ required: false, description: 'Only active (true) or deactivated (false) rules; both when absent.' }),
  }),
});

const ruleFields = (t: PothosSchemaTypes.InputFieldBuilder<SchemaTypes, 'InputObject'>) => ({
  description: t.string({ required: false }),
  ttpTechniqueId: t.string({ required: false, description: 'Primary technique; moved to the front of techniqueIds.' }),
  techniqueIds: t.stringList({ required: false, description: 'All techniques; the first is primary unless ttpTechniqueId is given.' }),
  severity: t.field({ type: DetectionRuleSeverityEnum, required: false }),
  status: t.string({ required: false }),
  logSource: t.field({ type: 'JSON', required: false }),
  content: t.string({ required: false }),
  author: t.string({ required: false }),
  references: t.stringList({ required: false }),
  license: t.string({ required: false }),
  sourceUrl: t.string({ required: false }),
  isActive: t.boolean({ required: false }),
});

export const CreateDetectionRuleInput = builder.inputType('CreateDetectionRuleInput', {
  fields: (t) => ({
    title: t.string({ required: true }),
    source: t.string({ required: false, description: 'Default custom; sigma is reserved for the Sigma import.' }),
    externalId: t.string({ required: false, description: 'Identifier at the source; unique per source.' }),
    ...ruleFields(t),
  }),
});

export const UpdateDetectionRuleInput = builder.inputType('UpdateDetectionRuleInput', {
  description: 'Changes to a rule. Source and external id are fixed; a Sigma re-import restores upstream fields.',
  fields: (t) => ({
    title: t.string({ required: false }),
    ...ruleFields(t),
  }),
});

export const EvaluateDetectionRuleInput = builder.inputType('EvaluateDetectionRuleInput', {
  fields: (t) => ({
    testId: t.field({ type: 'UUID', required: true }),
    ruleId: t.field({ type: 'UUID', required: true }),
    triggered: t.boolean({ required: true, description: 'Whether the rule fired during the test.' }),
    notes: t.string({ required: false }),
  }),
});
