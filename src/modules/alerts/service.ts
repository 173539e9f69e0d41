import { z } from 'zod';
import type { Principal } from '../../auth/access.ts';
import type { Prisma } from '../../db/client.ts';
import { inTransaction, type Actor, type UnitOfWork } from '../../db/unit-of-work.ts';
import { NotFoundError, ValidationError } from '../../errors.ts';
import { AlertRuleType, AlertStatus, Severity } from '../../generated/prisma/enums.ts';
import { camelToSnake } from '../../naming.ts';
import type { Services } from '../../services.ts';
import { page, parseInput, trimmed } from '../../validation.ts';
import { alertLifecycle, OPEN_STATUSES, type AlertAction } from './lifecycle.ts';
import { evaluateCondition, RULE_PARAMETERS } from './rules.ts';
import { pageOf } from '../../db/page-totals.ts';

export const ALERT_PAGE = { defaultLimit: 50, maxLimit: 200 } as const;
const pageSchema = page(ALERT_PAGE.defaultLimit, ALERT_PAGE.maxLimit);

type RuleQuery = { select?: Prisma.AlertRuleSelect };
type InstanceQuery = { select?: Prisma.AlertInstanceSelect };

const snakeKeys = (value: unknown) =>
  value && typeof value === 'object' && !Array.isArray(value)
    ? Object.fromEntries(Object.entries(value).map(([key, inner]) => [camelToSnake(key), inner]))
    : value;

const ruleFields = {
  name: trimmed(200),
  ruleType: z.enum(AlertRuleType),
  severity: z.enum(Severity),
  parameters: z.unknown(),
  enabled: z.boolean(),
  cooldownMinutes: z.number().int().min(0).max(525_600),
};
const createRuleSchema = z.object({
  ...ruleFields,
  parameters: ruleFields.parameters.optional(),
  enabled: ruleFields.enabled.default(true),
  cooldownMinutes: ruleFields.cooldownMinutes.default(60),
});
const updateRuleSchema = z.object(ruleFields).partial();

/** The rule type's parameters, validated; problems name `parameters.<key>`. */
function checkedParameters(ruleType: AlertRuleType, parameters: unknown): Prisma.InputJsonObject {
  const result = RULE_PARAMETERS[ruleType].safeParse(snakeKeys(parameters ?? {}));
  if (result.success) return result.data as Prisma.InputJsonObject;
  const [issue] = result.error.issues;
  const key = issue.path.length ? `parameters.${issue.path.join('.')}` : 'parameters';
  throw new ValidationError(key, issue.code === 'unrecognized_keys' ? `unknown for ${ruleType}: ${issue.keys.join(', ')}` : issue.message);
}

export async function listRules(services: Services, paging: unknown, query: RuleQuery = {}) {
  const { offset, limit } = parseInput(pageSchema, paging ?? {});
  return pageOf({ offset, limit }, [
    services.prisma.alertRule.findMany({ ...query, orderBy: [{ createdAt: 'desc' }, { id: 'desc' }], skip: offset, take: limit }),
    services.prisma.alertRule.count(),
  ]);
}

export async function getRule(services: Services, id: string, query: RuleQuery = {}) {
  const rule = await services.prisma.alertRule.findUnique({ ...query, where: { id } });
  if (!rule) throw new NotFoundError('Alert rule', id);
  return rule;
}

export async function createRule(services: Services, principal: Principal, input: unknown, query: RuleQuery = {}) {
  const data = parseInput(createRuleSchema, input);
  const parameters = checkedParameters(data.ruleType, data.parameters);
  return inTransaction(services, principal, async (uow) => {
    const { id } = await uow.tx.alertRule.create({ data: { ...data, parameters, createdById: principal.userId }, select: { id: true } });
    await uow.audit({
      action: 'create_alert_rule',
      entityType: 'alert_rule',
      entityId: id,
      details: { name: data.name, rule_type: data.ruleType, parameters },
    });
    return uow.tx.alertRule.findUniqueOrThrow({ ...query, where: { id } });
  });
}

export async function updateRule(services: Services, principal: Principal, id: string, input: unknown, query: RuleQuery = {}) {
  const data = parseInput(updateRuleSchema, input);
  return inTransaction(services, principal, async (uow) => {
    const current = await uow.tx.alertRule.findUnique({ where: { id }, select: { ruleType: true, parameters: true } });
    if (!current) throw new NotFoundError('Alert rule', id);
    const ruleType = data.ruleType ?? current.ruleType;
    const parameters =
      data.parameters !== undefined || data.ruleType !== undefined
        ? checkedParameters(ruleType, data.parameters ?? (data.ruleType ? {} : current.parameters))
        : undefined;
    await uow.tx.alertRule.update({ where: { id }, data: { ...data, parameters } });
    await uow.audit({
      action: 'update_alert_rule',
      entityType: 'alert_rule',
      entityId: id,
      details: { ...data, parameters } as Prisma.InputJsonObject,
    });
    return uow.tx.alertRule.findUniqueOrThrow({ ...query, where: { id } });
  });
}

export async function deleteRule(services: Services, principal: Principal, id: string): Promise<boolean> {
  return inTransaction(services, principal, async (uow) => {
    const rule = await uow.tx.alertRule.findUnique({ where: { id }, select: { name: true } });
    if (!rule) throw new NotFoundError('Alert rule', id);
    await uow.tx.alertRule.delete({ where: { id } });
    await uow.audit({ action: 'delete_alert_rule', entityType: 'alert_rule', entityId: id, details: { name: rule.name } });
    return true;
  });
}

const instanceFilterSchema = z.object({
  status: z.enum(AlertStatus).nullish(),
  severity: z.enum(Severity).nullish(),
  ruleType: z.enum(AlertRuleType).nullish(),
  ruleId: z.guid().nullish(),
});

export async function listInstances(services: Services, filter: unknown, paging: unknown, query: InstanceQuery = {}) {
  const { status, severity, ruleType, ruleId } = parseInput(instanceFilterSchema, filter ?? {});
  const { offset, limit } = parseInput(pageSchema, paging ?? {});
  const where = {
    status: status ?? undefined,
    severity: severity ?? undefined,
    ruleType: ruleType ?? undefined,
    ruleId: ruleId ?? undefined,
  };
  return pageOf({ offset, limit }, [
    services.prisma.alertInstance.findMany({
      ...query,
      where,
      orderBy: [{ firedAt: 'desc' }, { id: 'desc' }],
      skip: offset,
      take: limit,
    }),
    services.prisma.alertInstance.count({ where }),
  ]);
}

export async function getInstance(services: Services, id: string, query: InstanceQuery = {}) {
  const instance = await services.prisma.alertInstance.findUnique({ ...query, where: { id } });
  if (!instance) throw new NotFoundError('Alert', id);
  return instance;
}

const noteSchema = z.object({ note: z.string().trim().max(5000).nullish() });

export async function transition(
  services: Services,
  principal: Principal,
  id: string,
  action: AlertAction,
  input: unknown,
  query: InstanceQuery = {},
) {
  const { note } = parseInput(noteSchema, input ?? {});
  const row = alertLifecycle.transition(action);
  const { to } = row;
  return inTransaction(services, principal, async (uow) => {
    const instance = await uow.tx.alertInstance.findUnique({ where: { id }, select: { status: true } });
    if (!instance) throw new NotFoundError('Alert', id);
    alertLifecycle.assertFrom(row, instance.status);
    const now = new Date();
    const stamps = Object.fromEntries(row.stamps.map((column) => [column, now]));
    const updated = await uow.tx.alertInstance.updateMany({
      where: { id, status: instance.status },
      data: { status: to, changedById: principal.userId, note: note ?? undefined, ...stamps },
    });
    if (!updated.count) throw alertLifecycle.invalidTransition(row, instance.status);
    await uow.audit({
      action: row.audit,
      entityType: 'alert',
      entityId: id,
      details: { from_state: instance.status, to_state: to, note: note ?? null },
    });
    uow.emit('alert.changed', { alertId: id, status: to });
    return uow.tx.alertInstance.findUniqueOrThrow({ ...query, where: { id } });
  });
}

export interface AlertSummary {
  total: number;
  byStatus: Record<AlertStatus, number>;
  bySeverity: Record<Severity, number>;
  byRuleType: Record<AlertRuleType, number>;
}

const zeros = <K extends string>(keys: readonly K[]) => Object.fromEntries(keys.map((key) => [key, 0])) as Record<K, number>;

/** Instances by status, severity and rule type (every value listed, zeros included). */
export async function summary(services: Services): Promise<AlertSummary> {
  const rows = await services.prisma.alertInstance.groupBy({ by: ['status', 'severity', 'ruleType'], _count: { _all: true } });
  const result: AlertSummary = {
    total: 0,
    byStatus: zeros(Object.values(AlertStatus)),
    bySeverity: zeros(Object.values(Severity)),
    byRuleType: zeros(Object.values(AlertRuleType)),
  };
  for (const row of rows) {
    const n = row._count._all;
    result.total += n;
    result.byStatus[row.status] += n;
    result.bySeverity[row.severity] += n;
    result.byRuleType[row.ruleType] += n;
  }
  return result;
}

export interface EvaluationResult {
  rulesEvaluated: number;
  fired: number;
  alertIds: string[];
}

/** One evaluation at a time (across processes): concurrent ones would both see no open instance. */
const EVALUATION_LOCK = 0x7a1e7;

/**
 * Evaluates every enabled rule: each subject a rule fires for gets a new instance unless one is open (or
 * acknowledged) for the same rule and subject, or one closed within the rule's cooldown. New instances publish
 * `alert.fired` (the leads' notice and e-mail, webhooks).
 */
export function evaluateRules(services: Services, actor: Actor): Promise<EvaluationResult> {
  return inTransaction(services, actor, (uow) => evaluateIn(uow), { timeout: 60_000 });
}

/** The evaluation inside the caller's transaction. */
async function evaluateIn(uow: UnitOfWork): Promise<EvaluationResult> {
  await uow.tx.$executeRaw`SELECT pg_advisory_xact_lock(${EVALUATION_LOCK})`;
  const rules = await uow.tx.alertRule.findMany({ where: { enabled: true }, orderBy: { createdAt: 'asc' } });
  const fired: { id: string; title: string; severity: Severity }[] = [];
  const now = new Date();
  for (const rule of rules) {
    const firings = await evaluateCondition(uow.tx, rule.ruleType, rule.parameters);
    await uow.tx.alertRule.update({ where: { id: rule.id }, data: { lastEvaluatedAt: now } });
    if (!firings.length) continue;
    const blocking = await uow.tx.alertInstance.findMany({
      where: {
        ruleId: rule.id,
        subject: { in: firings.map((firing) => firing.subject) },
        OR: [{ status: { in: [...OPEN_STATUSES] } }, { closedAt: { gt: new Date(now.getTime() - rule.cooldownMinutes * 60_000) } }],
      },
      select: { subject: true },
    });
    const blocked = new Set(blocking.map((instance) => instance.subject));
    for (const firing of firings.filter((candidate) => !blocked.has(candidate.subject))) {
      const instance = await uow.tx.alertInstance.create({
        data: {
          ruleId: rule.id,
          ruleType: rule.ruleType,
          severity: rule.severity,
          subject: firing.subject,
          techniqueId: firing.techniqueId,
          title: firing.title,
          figures: firing.figures as Prisma.InputJsonObject,
          firedAt: now,
        },
        select: { id: true },
      });
      fired.push({ id: instance.id, title: firing.title, severity: rule.severity });
      uow.emit('alert.fired', {
        alertId: instance.id,
        ruleId: rule.id,
        ruleName: rule.name,
        ruleType: rule.ruleType,
        severity: rule.severity,
        subject: firing.subject,
        techniqueId: firing.techniqueId,
        title: firing.title,
        figures: firing.figures,
      });
    }
  }
  // A person's evaluation is audited; the scheduled and event-driven ones only when they fired something.
  if (uow.actor.userId !== null || fired.length) {
    await uow.audit({ action: 'evaluate_alerts', entityType: 'alert_rule', details: { rules: rules.length, fired: fired.length } });
  }
  return { rulesEvaluated: rules.length, fired: fired.length, alertIds: fired.map((alert) => alert.id) };
}
