import { queryFromInfo } from '@pothos/plugin-prisma';
import { allow } from '../../graphql/access.ts';
import { pageArgs, pagedList, pagingOf } from '../../graphql/pagination.ts';
import { builder } from '../../graphql/builder.ts';
import { principalOf } from '../../graphql/context.ts';
import { ALERT_TRANSITIONS } from './lifecycle.ts';
import * as alerts from './service.ts';
import {
  AlertPage,
  AlertRulePage,
  AlertRuleTypeEnum,
  AlertSeverityEnum,
  AlertStatusEnum,
  AlertSummaryType,
  CreateAlertRuleInput,
  EvaluationResultType,
  UpdateAlertRuleInput,
} from './types.ts';
import { alertRoles } from './permissions.ts';

builder.queryFields((t) => ({
  alerts: t.field({
    type: AlertPage,
    ...pagedList(alerts.ALERT_PAGE, 'Alerts, newest first'),
    authScopes: allow(alertRoles.read),
    args: {
      status: t.arg({ type: AlertStatusEnum }),
      severity: t.arg({ type: AlertSeverityEnum }),
      ruleType: t.arg({ type: AlertRuleTypeEnum }),
      ruleId: t.arg({ type: 'UUID' }),
      ...pageArgs(t.arg),
    },
    resolve: (_root, args, context, info) =>
      alerts.listInstances(
        context.services,
        { status: args.status, severity: args.severity, ruleType: args.ruleType, ruleId: args.ruleId },
        pagingOf(args),
        queryFromInfo({ context, info, path: ['items'] }),
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
  alertRules: t.field({
    type: AlertRulePage,
    ...pagedList(alerts.ALERT_PAGE, 'Alert rules'),
    authScopes: allow(alertRoles.read),
    args: pageArgs(t.arg),
    resolve: (_root, args, context, info) =>
      alerts.listRules(context.services, pagingOf(args), queryFromInfo({ context, info, path: ['items'] })),
  }),
  alertRule: t.prismaField({
    type: 'AlertRule',
    authScopes: allow(alertRoles.read),
    args: { id: t.arg({ type: 'UUID', required: true }) },
    resolve: (query, _root, { id }, context) => alerts.getRule(context.services, String(id), query),
  }),
}));

// One mutation per row of the alert transition table.
for (const row of ALERT_TRANSITIONS) {
  builder.mutationField(row.mutation, (t) =>
    t.prismaField({
      type: 'AlertInstance',
      description: `${row.summary}.`,
      authScopes: allow(row.roles),
      args: { id: t.arg({ type: 'UUID', required: true }), note: t.arg.string() },
      resolve: (query, _root, args, context) =>
        alerts.transition(context.services, principalOf(context), String(args.id), row.action, { note: args.note }, query),
    }),
  );
}

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
