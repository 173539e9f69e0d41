import { containsText, equalsText } from '../../db/search.ts';
import { z } from 'zod';
import type { Db, Prisma } from '../../db/client.ts';
import { lockRow } from '../../db/row-lock.ts';
import { inTransaction, type Actor } from '../../db/unit-of-work.ts';
import { NotFoundError, ValidationError } from '../../errors.ts';
import { Severity } from '../../generated/prisma/enums.ts';
import type { Services } from '../../services.ts';
import { page, parseInput, trimmed, isUuid } from '../../validation.ts';
import { pageOf } from '../../db/page-totals.ts';

type Query = { select?: Prisma.TestTemplateSelect; include?: Prisma.TestTemplateInclude };

export const TEMPLATE_PAGE = { defaultLimit: 50, maxLimit: 200 } as const;
const pageSchema = page(TEMPLATE_PAGE.defaultLimit, TEMPLATE_PAGE.maxLimit);

/** Where a template comes from: written by hand, saved from a test, or imported. */
export const TemplateSource = { manual: 'manual', test: 'test', atomicRedTeam: 'atomic_red_team' } as const;

// An id that is not even a UUID names no template: 404 like any other unknown id.
const ATTACK_TTP_ID = /^T\d{4}(\.\d{3})?$/i;
const MAX_INPUT_ARGUMENTS_BYTES = 64 * 1024;

/** ATT&CK ids are stored upper-case (T1059.001); custom technique ids as written. */
export const normalizeTtpId = (id: string) => (ATTACK_TTP_ID.test(id) ? id.toUpperCase() : id);

/** Platforms are stored lower-case and once each, the primary one first (the upstream atomics' vocabulary). */
export function normalizePlatforms(platforms: readonly string[], primary?: string | null): string[] {
  const list = primary ? [primary, ...platforms] : platforms;
  return [...new Set(list.map((platform) => platform.trim().toLowerCase()).filter(Boolean))];
}

const ttpTechniqueId = z.string().trim().min(1, 'must not be empty').max(64, 'must be at most 64 characters').transform(normalizeTtpId);
const platformName = trimmed(64);
const inputArguments = z
  .record(z.string().min(1).max(200), z.record(z.string(), z.unknown()), 'must be an object of named arguments, each an object')
  .refine(
    (value) => JSON.stringify(value).length <= MAX_INPUT_ARGUMENTS_BYTES,
    `must be at most ${MAX_INPUT_ARGUMENTS_BYTES} bytes of JSON`,
  );

const editableFields = {
  name: trimmed(300),
  description: z.string().max(20_000, 'must be at most 20000 characters'),
  ttpTechniqueId: ttpTechniqueId.nullable(),
  platform: platformName.nullable(),
  platforms: z.array(platformName).max(20, 'must list at most 20 platforms'),
  severity: z.enum(Severity),
  executor: trimmed(64).nullable(),
  procedure: z.string().max(100_000, 'must be at most 100000 characters'),
  cleanupCommand: z.string().max(100_000, 'must be at most 100000 characters').nullable(),
  elevationRequired: z.boolean(),
  inputArguments,
  toolUsed: trimmed(300).nullable(),
  suggestedRemediation: z.string().max(20_000, 'must be at most 20000 characters'),
};

const createSchema = z
  .object({ ...editableFields, testId: z.guid('must be a UUID').nullable() })
  .partial()
  .superRefine((input, context) => {
    if (!input.testId && !input.name) context.addIssue({ code: 'custom', path: ['name'], message: 'is required unless test_id is given' });
  });

const updateSchema = z.object(editableFields).partial();

const filterSchema = z.object({
  source: z.string().trim().max(64).nullish(),
  platform: z.string().trim().max(64).nullish(),
  severity: z.enum(Severity).nullish(),
  search: z.string().trim().max(200).nullish(),
  ttpTechniqueId: z.string().trim().max(64).nullish(),
  isActive: z.boolean().nullish(),
});

export type TemplateFilter = z.input<typeof filterSchema>;

function templateWhere(filter: z.infer<typeof filterSchema>): Prisma.TestTemplateWhereInput {
  const where: Prisma.TestTemplateWhereInput = {};
  if (filter.source) where.source = filter.source;
  if (filter.platform) where.platforms = { has: filter.platform.toLowerCase() };
  if (filter.severity) where.severity = filter.severity;
  if (filter.ttpTechniqueId) where.ttpTechniqueId = equalsText(filter.ttpTechniqueId);
  if (filter.isActive != null) where.isActive = filter.isActive;
  if (filter.search) {
    const contains = containsText(filter.search);
    where.OR = [
      { name: contains },
      { description: contains },
      { ttpTechniqueId: contains },
      { toolUsed: contains },
      { procedure: contains },
    ];
  }
  return where;
}

/** Templates matching the filter, by technique then name, one page at a time. */
export async function listTemplates(services: Services, filter: unknown, paging: unknown) {
  const where = templateWhere(parseInput(filterSchema, filter ?? {}));
  const { offset, limit } = parseInput(pageSchema, paging);
  return pageOf({ offset, limit }, [
    services.prisma.testTemplate.findMany({
      where,
      orderBy: [{ ttpTechniqueId: { sort: 'asc', nulls: 'last' } }, { name: 'asc' }, { id: 'asc' }],
      skip: offset,
      take: limit,
    }),
    services.prisma.testTemplate.count({ where }),
  ]);
}

export async function getTemplate(services: Services, id: string, query: Query = {}) {
  const template = isUuid(id) ? await services.prisma.testTemplate.findUnique({ ...query, where: { id } }) : null;
  if (!template) throw new NotFoundError('Test template', id);
  return template;
}

export interface CountByKey {
  key: string;
  count: number;
}

export interface TemplateStats {
  total: number;
  active: number;
  inactive: number;
  bySource: CountByKey[];
  byPlatform: CountByKey[];
}

/** Totals computed by the database: active/inactive, per source and per platform (a template counts once per platform). */
export async function templateStats(services: Services): Promise<TemplateStats> {
  const [[totals], bySource, byPlatform] = await Promise.all([
    services.prisma.$queryRaw<{ total: number; active: number }[]>`
      SELECT count(*)::int AS total, (count(*) FILTER (WHERE is_active))::int AS active FROM test_templates`,
    services.prisma.$queryRaw<CountByKey[]>`
      SELECT source AS key, count(*)::int AS count FROM test_templates GROUP BY source ORDER BY count DESC, key`,
    services.prisma.$queryRaw<CountByKey[]>`
      SELECT listed.name AS key, count(*)::int AS count FROM test_templates CROSS JOIN LATERAL unnest(platforms) AS listed(name)
      GROUP BY listed.name ORDER BY count DESC, key`,
  ]);
  return { total: totals.total, active: totals.active, inactive: totals.total - totals.active, bySource, byPlatform };
}

/** ATT&CK-shaped ids pass; anything else must be the id of a custom technique of the catalog. */
async function assertKnownTtpId(db: Db, ttpId: string | null | undefined) {
  if (!ttpId || ATTACK_TTP_ID.test(ttpId)) return;
  if (await db.technique.findUnique({ where: { ttpId }, select: { id: true } })) return;
  throw new ValidationError('ttpTechniqueId', 'must look like T1234 or T1234.001, or be the id of a custom technique');
}

/** The fields a template takes over from a test when it is saved as a template. */
async function fieldsFromTest(db: Db, testId: string) {
  const test = await db.test.findUnique({
    where: { id: testId },
    select: {
      name: true,
      description: true,
      platform: true,
      procedureText: true,
      toolUsed: true,
      remediationSteps: true,
      technique: { select: { ttpId: true } },
    },
  });
  if (!test) throw new NotFoundError('Test', testId);
  return {
    name: test.name,
    description: test.description,
    ttpTechniqueId: normalizeTtpId(test.technique.ttpId),
    platform: test.platform,
    procedure: test.procedureText ?? '',
    toolUsed: test.toolUsed,
    suggestedRemediation: test.remediationSteps ?? '',
  };
}

const withoutNulls = <T extends object>(value: T) =>
  Object.fromEntries(Object.entries(value).filter(([, field]) => field != null)) as Partial<T>;

/**
 * Creates a template from scratch, or from a test (`testId`): the test's name, description, technique,
 * platform, procedure, tool and remediation steps are copied, and any field given alongside wins.
 */
export async function createTemplate(services: Services, actor: Actor, input: unknown, query: Query = {}) {
  const { testId, platform, platforms, ...given } = parseInput(createSchema, input);
  return inTransaction(services, actor, async (uow) => {
    const copied = testId ? await fieldsFromTest(uow.tx, testId) : null;
    const fields = { ...withoutNulls(copied ?? {}), ...withoutNulls(given) };
    await assertKnownTtpId(uow.tx, fields.ttpTechniqueId);
    const platformList = normalizePlatforms(platforms ?? [], platform ?? copied?.platform);
    const template = await uow.tx.testTemplate.create({
      ...query,
      data: {
        ...fields,
        name: fields.name!,
        platforms: platformList,
        platform: platformList[0] ?? null,
        source: copied ? TemplateSource.test : TemplateSource.manual,
        inputArguments: (fields.inputArguments ?? {}) as Prisma.InputJsonObject,
        createdById: actor.userId,
      },
    });
    await uow.audit({
      action: 'create_test_template',
      entityType: 'test_template',
      entityId: template.id,
      details: { name: fields.name!, ttp_technique_id: fields.ttpTechniqueId ?? null, from_test: testId ?? null },
    });
    return template;
  });
}

/** Applies changes; `platform` becomes the primary platform, `platforms` replaces the list. */
export async function updateTemplate(services: Services, actor: Actor, id: string, input: unknown, query: Query = {}) {
  const { platform, platforms, ...changes } = parseInput(updateSchema, input);
  return inTransaction(services, actor, async (uow) => {
    const before = await existingTemplate(uow.tx, id);
    await assertKnownTtpId(uow.tx, changes.ttpTechniqueId);
    const platformChange = platform != null || platforms !== undefined ? normalizePlatforms(platforms ?? before.platforms, platform) : null;
    const data: Prisma.TestTemplateUpdateInput = {
      ...changes,
      inputArguments: changes.inputArguments as Prisma.InputJsonObject | undefined,
      ...(platformChange ? { platforms: platformChange, platform: platformChange[0] ?? null } : {}),
    };
    const template = await uow.tx.testTemplate.update({ ...query, where: { id: before.id }, data });
    const audited = { ...changes, ...(platformChange ? { platforms: platformChange } : {}) };
    await uow.audit({
      action: 'update_test_template',
      entityType: 'test_template',
      entityId: before.id,
      details: { name: before.name, changes: audited as Prisma.InputJsonObject },
    });
    return template;
  });
}

/** Flips the active flag: inactive templates stay listed (is_active filter) but are not offered for new tests. */
export async function toggleTemplateActive(services: Services, actor: Actor, id: string, query: Query = {}) {
  return inTransaction(services, actor, async (uow) => {
    // Flipped from the committed value: two concurrent toggles flip twice.
    if (isUuid(id)) await lockRow(uow.tx, 'test_templates', id);
    const before = await existingTemplate(uow.tx, id);
    const template = await uow.tx.testTemplate.update({ ...query, where: { id: before.id }, data: { isActive: !before.isActive } });
    await uow.audit({
      action: 'toggle_test_template_active',
      entityType: 'test_template',
      entityId: before.id,
      details: { name: before.name, is_active: !before.isActive },
    });
    return template;
  });
}

/** Deletes a template; tests made from it keep their data and lose only the link. */
export async function deleteTemplate(services: Services, actor: Actor, id: string): Promise<string> {
  return inTransaction(services, actor, async (uow) => {
    const before = await existingTemplate(uow.tx, id);
    await uow.tx.testTemplate.delete({ where: { id: before.id } });
    await uow.audit({
      action: 'delete_test_template',
      entityType: 'test_template',
      entityId: before.id,
      details: { name: before.name, source: before.source, external_id: before.externalId },
    });
    return before.id;
  });
}

async function existingTemplate(db: Db, id: string) {
  const template = isUuid(id) ? await db.testTemplate.findUnique({ where: { id } }) : null;
  if (!template) throw new NotFoundError('Test template', id);
  return template;
}
