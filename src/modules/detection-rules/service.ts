import { containsText, equalsText } from '../../db/search.ts';
import { z } from 'zod';
import type { Prisma } from '../../db/client.ts';
import { inTransaction, type Actor } from '../../db/unit-of-work.ts';
import { ConflictError, NotFoundError } from '../../errors.ts';
import { Severity } from '../../generated/prisma/enums.ts';
import type { Services } from '../../services.ts';
import { page, parseInput, trimmed } from '../../validation.ts';
import { SIGMA_SOURCE } from './sigma.ts';
import { pageOf } from '../../db/page-totals.ts';

type Query = { select?: Prisma.DetectionRuleSelect; include?: Prisma.DetectionRuleInclude };

export const DETECTION_RULE_PAGE = { defaultLimit: 50, maxLimit: 200 } as const;
const pageSchema = page(DETECTION_RULE_PAGE.defaultLimit, DETECTION_RULE_PAGE.maxLimit);

export const ruleId = z.guid('must be a UUID');
const TECHNIQUE_ID = /^[A-Za-z][A-Za-z0-9-]{0,30}(\.[A-Za-z0-9]{1,10})?$/;
/** ATT&CK ids are upper-cased (t1059.001 → T1059.001); custom technique ids are kept as written. */
const techniqueId = z
  .string()
  .trim()
  .regex(TECHNIQUE_ID, 'must look like T1234, T1234.001 or a custom id such as CUSTOM-1')
  .transform((id) => (/^t\d{4}/i.test(id) ? id.toUpperCase() : id));
const techniqueIds = z
  .array(techniqueId)
  .max(100)
  .transform((ids) => [...new Set(ids)]);
const source = trimmed(64).refine(
  (value) => value.toLowerCase() !== SIGMA_SOURCE,
  `"${SIGMA_SOURCE}" is reserved for imported Sigma rules`,
);
const url = z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' }).max(2000);

const editable = {
  title: trimmed(500),
  description: z.string().max(20_000),
  ttpTechniqueId: techniqueId.nullable(),
  techniqueIds,
  severity: z.enum(Severity),
  status: trimmed(64).nullable(),
  logSource: z.record(z.string(), z.unknown()),
  content: z.string().max(200_000),
  author: trimmed(1000).nullable(),
  references: z.array(url).max(200),
  license: trimmed(200).nullable(),
  sourceUrl: url.nullable(),
  isActive: z.boolean(),
};

const createSchema = z
  .object(editable)
  .partial()
  .extend({ title: editable.title, source: source.default('custom'), externalId: trimmed(200).nullish() });

const updateSchema = z.object(editable).partial();

export interface DetectionRuleFilter {
  source?: string | null;
  ttpTechniqueId?: string | null;
  severity?: Severity | null;
  search?: string | null;
  isActive?: boolean | null;
}

/**
 * The techniques of a rule with the primary one first. `primary` (when given) is moved to the front of the
 * list; without it the first listed technique is primary. A null primary with no list unmaps the rule.
 */
function techniques(primary: string | null | undefined, list: string[] | undefined, before: string[] = []) {
  let ids = list ?? (primary === null ? [] : before);
  if (primary) ids = [primary, ...ids.filter((id) => id !== primary)];
  return { techniqueIds: ids, ttpTechniqueId: ids[0] ?? null };
}

const techniqueFilter = z.object({ ttpTechniqueId: techniqueId });

export function ruleWhere(filter: DetectionRuleFilter): Prisma.DetectionRuleWhereInput {
  const where: Prisma.DetectionRuleWhereInput = {};
  if (filter.source) where.source = equalsText(filter.source);
  if (filter.ttpTechniqueId) where.techniqueIds = { has: parseInput(techniqueFilter, filter).ttpTechniqueId };
  if (filter.severity) where.severity = filter.severity;
  if (filter.isActive != null) where.isActive = filter.isActive;
  if (filter.search) {
    const contains = containsText(filter.search);
    where.OR = [{ title: contains }, { description: contains }, { externalId: contains }, { author: contains }];
  }
  return where;
}

/** One page of rules matching the filter, by title. */
export async function listDetectionRules(services: Services, filter: DetectionRuleFilter, paging: unknown) {
  const { offset, limit } = parseInput(pageSchema, paging);
  const where = ruleWhere(filter);
  return pageOf({ offset, limit }, [
    services.prisma.detectionRule.findMany({ where, orderBy: [{ title: 'asc' }, { id: 'asc' }], skip: offset, take: limit }),
    services.prisma.detectionRule.count({ where }),
  ]);
}

export async function getDetectionRule(services: Services, id: string, query: Query = {}) {
  const rule = await services.prisma.detectionRule.findUnique({ ...query, where: { id: parseInput(ruleId, id) } });
  if (!rule) throw new NotFoundError('Detection rule', id);
  return rule;
}

const auditFields = (rule: { title: string; source: string; externalId: string | null }) => ({
  title: rule.title,
  source: rule.source,
  external_id: rule.externalId,
});

/** Creates a rule written in-house (source `custom` unless another name is given; `sigma` belongs to the import). */
export async function createDetectionRule(services: Services, actor: Actor, input: unknown, query: Query = {}) {
  const { ttpTechniqueId, techniqueIds: list, logSource, ...data } = parseInput(createSchema, input);
  return inTransaction(services, actor, async (uow) => {
    if (data.externalId) {
      const taken = await uow.tx.detectionRule.findUnique({
        where: { source_externalId: { source: data.source, externalId: data.externalId } },
        select: { id: true },
      });
      if (taken) throw new ConflictError(`A ${data.source} rule with external id ${data.externalId} already exists`);
    }
    const rule = await uow.tx.detectionRule.create({
      ...query,
      data: {
        ...data,
        ...techniques(ttpTechniqueId, list),
        logSource: logSource as Prisma.InputJsonValue | undefined,
        createdById: actor.userId,
      },
    });
    await uow.audit({
      action: 'create_detection_rule',
      entityType: 'detection_rule',
      entityId: rule.id,
      details: auditFields({ ...data, externalId: data.externalId ?? null }),
    });
    return rule;
  });
}

/**
 * Changes a rule. Source and external id never change, so an edited Sigma rule stays linked to its upstream
 * rule; the next Sigma import puts the upstream fields back.
 */
export async function updateDetectionRule(services: Services, actor: Actor, id: string, input: unknown, query: Query = {}) {
  const key = parseInput(ruleId, id);
  const { ttpTechniqueId, techniqueIds: list, logSource, ...changes } = parseInput(updateSchema, input);
  return inTransaction(services, actor, async (uow) => {
    const before = await uow.tx.detectionRule.findUnique({ where: { id: key } });
    if (!before) throw new NotFoundError('Detection rule', id);
    const mapping = ttpTechniqueId === undefined && list === undefined ? {} : techniques(ttpTechniqueId, list, before.techniqueIds);
    const rule = await uow.tx.detectionRule.update({
      ...query,
      where: { id: key },
      data: { ...changes, ...mapping, logSource: logSource as Prisma.InputJsonValue | undefined },
    });
    const recorded = { ...changes, ...mapping, ...(logSource ? { logSource } : {}) } as Prisma.InputJsonObject;
    await uow.audit({
      action: 'update_detection_rule',
      entityType: 'detection_rule',
      entityId: key,
      details: { ...auditFields(before), changes: recorded },
    });
    return rule;
  });
}

/** Deletes a rule. Its evaluations stay on their tests with the copied title, source, external id and author. */
export async function deleteDetectionRule(services: Services, actor: Actor, id: string, query: Query = {}) {
  const key = parseInput(ruleId, id);
  return inTransaction(services, actor, async (uow) => {
    const before = await uow.tx.detectionRule.findUnique({ where: { id: key }, select: { title: true, source: true, externalId: true } });
    if (!before) throw new NotFoundError('Detection rule', id);
    const rule = await uow.tx.detectionRule.delete({ ...query, where: { id: key } });
    await uow.audit({ action: 'delete_detection_rule', entityType: 'detection_rule', entityId: key, details: auditFields(before) });
    return rule;
  });
}
