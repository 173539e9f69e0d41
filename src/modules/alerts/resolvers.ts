import { Roles } from '../../auth/roles.ts';
import { allow } from '../../graphql/access.ts';
import { pagingOf } from '../../graphql/pagination.ts';
import { builder } from '../../graphql/builder.ts';
import { pagedCost } from '../../graphql/cost.ts';
import { principalOf } from '../../graphql/context.ts';
import * as alerts from './service.ts';
import {
  AlertRuleTypeEnum,
  AlertSeverityEnum,
  AlertStatusEnum,
  AlertSummaryType,
  CreateAlertRuleInput,
  EvaluationResultType,
  UpdateAlertRuleInput,
} from './types.ts';

/** The spec's Who columns for /alerts. */
export const alertRoles = { read: Roles.any, manage: Roles.leads, deleteRule: Roles.admin } as const;

builder.queryFields((t) => ({
  alerts: t.prismaField({
    type: ['AlertInstance'],
    description: 'Alerts, newest first (limit default 50, max 200).',
    complexity: pagedCost(alerts.ALERT_PAGE),
    authScopes: allow(alertRoles.read),
    args: {
      status: t.arg({ type: AlertStatusEnum }),
      severity: t.arg({ type: AlertSeverityEnum }),
      ruleType: t.arg({ type: AlertRuleTypeEnum }),
      ruleId: t.arg({ type: 'UUID' }),
      offset: t.arg.int(),
      limit: t.arg.int(),
    },
    resolve: (query, _root, args, context) =>
      alerts.listInstances(
        context.services,
        { status: args.status, severity: args.severity, ruleType: args.ruleType, ruleId: args.ruleId },
        pagingOf(args),
        query,
      ),
  }),
  alert: t.prismaField({
    type: 'AlertInstance',
    authScopes: allow(alertRoles.read),
    args: { id: t.arg({ type: 'UUID', required: true }) },
    resolve: (query, _root, { id }, context) => alerts.getInstance(context.services, String(id), query),
  }),
  alertSummary: t.field({
    type: AlertSummaryType,
    description: 'Alerts by status, severity and rule type.',
    authScopes: allow(alertRoles.read),
    resolve: (_root, _args, context) => alerts.summary(context.services),
  }),
  alertRules: t.prismaField({
    type: ['AlertRule'],
    complexity: pagedCost(alerts.ALERT_PAGE),
    authScopes: allow(alertRoles.read),
    args: { offset: t.arg.int(), limit: t.arg.int() },
    resolve: (query, _root, args, context) => alerts.listRules(context.services, pagingOf(args), query),
  }),
  alertRule: t.prismaField({
    type: 'AlertRule',
    authScopes: allow(alertRoles.read),
    args: { id: t.arg({ type: 'UUID', required: true }) },
    resolve: (query, _root, { id }, context) => alerts.getRule(context.services, String(id), query),
  }),
}));

const transitionField = (action: alerts.AlertAction, description: string) =>
  builder.mutationField(`${action}Alert`, (t) =>
    t.prismaField({
      type: 'AlertInstance',
      description,
      authScopes: allow(alertRoles.manage),
      args: { id: t.arg({ type: 'UUID', required: true }), note: t.arg.string() },
      resolve: (query, _root, args, context) =>
        alerts.transition(context.services, principalOf(context), String(args.id), action, { note: args.note }, query),
    }),
  );

transitionField('acknowledge', 'open → acknowledged.');
transitionField('resolve', 'open or acknowledged → resolved.');
transitionField('dismiss', 'open or acknowledged → dismissed.');

builder.mutationFields((t) => ({
  evaluateAlerts: t.field({
    type: EvaluationResultType,
    description: 'Evaluates every enabled rule now.',
    authScopes: allow(alertRoles.manage),
    resolve: (_root, _args, context) => alerts.evaluateRules(context.services, principalOf(context)),
  }),
  createAlertRule: t.prismaField({
    type: 'AlertRule',
    authScopes: allow(alertRoles.manage),
    args: { input: t.arg({ type: CreateAlertRuleInput, required: true }) },
    resolve: (query, _root, { input }, context) => alerts.createRule(context.services, principalOf(context), input, query),
  }),
  updateAlertRule: t.prismaField({
    type: 'AlertRule',
    authScopes: allow(alertRoles.manage),
    args: { id: t.arg({ type: 'UUID', required: true }), input: t.arg({ type: UpdateAlertRuleInput, required: true }) },
    resolve: (query, _root, { id, input }, context) => alerts.updateRule(context.services, principalOf(context), String(id), input, query),
  }),
  deleteAlertRule: t.boolean({
    authScopes: allow(alertRoles.deleteRule),
    args: { id: t.arg({ type: 'UUID', required: true }) },
    resolve: (_root, { id }, context) => alerts.deleteRule(context.services, principalOf(context), String(id)),
  }),
}));
