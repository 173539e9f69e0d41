import { builder } from '../../graphql/builder.ts';
import { pageType } from '../../graphql/pagination.ts';
import { AlertRuleType, AlertStatus, Severity } from '../../generated/prisma/enums.ts';
import { RULE_DESCRIPTIONS } from './rules.ts';
import { alertLifecycle } from './lifecycle.ts';
import type { AlertSummary, EvaluationResult } from './service.ts';

export const AlertRuleTypeEnum = builder.enumType(AlertRuleType, {
  name: 'AlertRuleType',
  description: Object.entries(RULE_DESCRIPTIONS)
    .map(([type, text]) => `${type}: ${text}.`)
    .join(' '),
});
export const AlertStatusEnum = builder.enumType(AlertStatus, {
  name: 'AlertStatus',
  description: 'open → acknowledged → resolved or dismissed (open may also go straight to resolved or dismissed).',
});
export const AlertSeverityEnum = builder.enumType(Severity, { name: 'AlertSeverity' });

export const AlertRuleObject = builder.prismaObject('AlertRule', {
  description: 'A condition evaluated over the coverage and detection data; it fires once per subject while open.',
  fields: (t) => ({
    id: t.exposeID('id'),
    name: t.exposeString('name'),
    ruleType: t.expose('ruleType', { type: AlertRuleTypeEnum }),
    severity: t.expose('severity', { type: AlertSeverityEnum }),
    parameters: t.expose('parameters', { type: 'JSON', description: 'Per rule type, snake_case (docs/alerts.md).' }),
    enabled: t.exposeBoolean('enabled'),
    cooldownMinutes: t.exposeInt('cooldownMinutes', {
      description: 'After an alert closes, how long the same rule and subject stay quiet.',
    }),
    createdBy: t.exposeID('createdById', { nullable: true }),
    lastEvaluatedAt: t.expose('lastEvaluatedAt', { type: 'DateTime', nullable: true }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    updatedAt: t.expose('updatedAt', { type: 'DateTime' }),
  }),
});

export const AlertObject = builder.prismaObject('AlertInstance', {
  description: 'One firing of a rule for one subject (a technique id, or `global`), with the figures that fired it.',
  fields: (t) => ({
    id: t.exposeID('id'),
    ruleId: t.exposeID('ruleId'),
    ruleType: t.expose('ruleType', { type: AlertRuleTypeEnum }),
    severity: t.expose('severity', { type: AlertSeverityEnum }),
    subject: t.exposeString('subject'),
    techniqueId: t.exposeID('techniqueId', { nullable: true }),
    title: t.exposeString('title'),
    figures: t.expose('figures', { type: 'JSON' }),
    status: t.expose('status', { type: AlertStatusEnum }),
    availableActions: t.stringList({
      description: 'Transition actions the table offers in the current status (roles still apply): acknowledge, resolve, dismiss.',
      select: { status: true },
      resolve: (alert) => alertLifecycle.actionsFrom(alert.status),
    }),
    firedAt: t.expose('firedAt', { type: 'DateTime' }),
    acknowledgedAt: t.expose('acknowledgedAt', { type: 'DateTime', nullable: true }),
    resolvedAt: t.expose('resolvedAt', { type: 'DateTime', nullable: true }),
    dismissedAt: t.expose('dismissedAt', { type: 'DateTime', nullable: true }),
    changedBy: t.exposeID('changedById', { nullable: true }),
    note: t.exposeString('note', { nullable: true }),
  }),
});

const countsOf = <K extends string>(name: string, keys: readonly K[]) =>
  builder.objectRef<Record<K, number>>(name).implement({
    fields: (t) => Object.fromEntries(keys.map((key) => [key, t.int({ resolve: (counts) => counts[key] })])),
  });

const StatusCounts = countsOf('AlertStatusCounts', Object.values(AlertStatus));
const SeverityCounts = countsOf('AlertSeverityCounts', Object.values(Severity));
const RuleTypeCounts = countsOf('AlertRuleTypeCounts', Object.values(AlertRuleType));

export const AlertSummaryType = builder.objectRef<AlertSummary>('AlertSummary').implement({
  fields: (t) => ({
    total: t.exposeInt('total'),
    byStatus: t.field({ type: StatusCounts, resolve: (summary) => summary.byStatus }),
    bySeverity: t.field({ type: SeverityCounts, resolve: (summary) => summary.bySeverity }),
    byRuleType: t.field({ type: RuleTypeCounts, resolve: (summary) => summary.byRuleType }),
  }),
});

export const EvaluationResultType = builder.objectRef<EvaluationResult>('AlertEvaluation').implement({
  fields: (t) => ({
    rulesEvaluated: t.exposeInt('rulesEvaluated'),
    fired: t.exposeInt('fired'),
    alertIds: t.exposeIDList('alertIds'),
  }),
});

export const CreateAlertRuleInput = builder.inputType('CreateAlertRuleInput', {
  fields: (t) => ({
    name: t.string({ required: true }),
    ruleType: t.field({ type: AlertRuleTypeEnum, required: true }),
    severity: t.field({ type: AlertSeverityEnum, required: true }),
    parameters: t.field({ type: 'JSON' }),
    enabled: t.boolean(),
    cooldownMinutes: t.int({ description: 'Default 60.' }),
  }),
});

export const UpdateAlertRuleInput = builder.inputType('UpdateAlertRuleInput', {
  fields: (t) => ({
    name: t.string(),
    ruleType: t.field({ type: AlertRuleTypeEnum }),
    severity: t.field({ type: AlertSeverityEnum }),
    parameters: t.field({ type: 'JSON' }),
    enabled: t.boolean(),
    cooldownMinutes: t.int(),
  }),
});

export const AlertPage = pageType('AlertPage', AlertObject);
export const AlertRulePage = pageType('AlertRulePage', AlertRuleObject);
