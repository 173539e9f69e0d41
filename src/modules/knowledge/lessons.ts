import { z } from 'zod';
import type { Db, Prisma } from '../../db/client.ts';
import { Prisma as Sql } from '../../generated/prisma/client.ts';
import { inTransaction, type Actor } from '../../db/unit-of-work.ts';
import { NotFoundError, ValidationError } from '../../errors.ts';
import { Severity } from '../../generated/prisma/enums.ts';
import type { Services } from '../../services.ts';
import { page, parseInput, trimmed, uuid } from '../../validation.ts';
import { inOrderOf, rankedPage, searchText } from './search.ts';
import { techniqueIdFor } from '../techniques/reference.ts';
import { assertTechnique, techniqueIdOf, techniqueKey, techniqueRef } from './techniques.ts';
import { lockAndRead } from '../../db/row-lock.ts';
import { pageOf } from '../../db/page-totals.ts';

type Query = { select?: Prisma.LessonLearnedSelect; include?: Prisma.LessonLearnedInclude };

export const LESSON_PAGE = { defaultLimit: 50, maxLimit: 200 } as const;
const TEXT_MAX = 50_000;
/** Length of a title taken from the first line of what happened, when none is given. */
const DERIVED_TITLE_MAX = 120;

const longText = trimmed(TEXT_MAX);
const editable = {
  techniqueId: techniqueRef,
  testId: uuid.nullable(),
  campaignId: uuid.nullable(),
  severity: z.enum(Severity),
  title: trimmed(300),
  whatHappened: longText,
  rootCause: longText,
  recommendations: z.string().trim().max(TEXT_MAX, `must be at most ${TEXT_MAX} characters`),
};

const createSchema = z.object({
  whatHappened: editable.whatHappened,
  rootCause: editable.rootCause,
  techniqueId: editable.techniqueId.nullish(),
  testId: editable.testId.optional(),
  campaignId: editable.campaignId.optional(),
  severity: editable.severity.default(Severity.medium),
  title: editable.title.nullish(),
  recommendations: editable.recommendations.default(''),
});

const updateSchema = z.object(editable).partial();

const filterSchema = z.object({
  technique: techniqueKey.nullish(),
  severity: z.enum(Severity).nullish(),
  testId: uuid.nullish(),
  campaignId: uuid.nullish(),
  search: searchText.nullish(),
});

export interface LessonFilter {
  technique?: string | null;
  severity?: Severity | null;
  testId?: string | null;
  campaignId?: string | null;
  search?: string | null;
}

const derivedTitle = (whatHappened: string) => whatHappened.split('\n')[0].trim().slice(0, DERIVED_TITLE_MAX);

/** One page of lessons: with `search`, ranked by full-text relevance (title matches first); otherwise newest first. */
export async function listLessons(services: Services, filter: LessonFilter | null | undefined, paging: unknown) {
  const db = services.prisma;
  const { offset, limit } = parseInput(page(LESSON_PAGE.defaultLimit, LESSON_PAGE.maxLimit), paging);
  const { technique, severity, testId, campaignId, search } = parseInput(filterSchema, filter ?? {});
  const techniqueId = technique ? await techniqueIdOf(db, technique) : undefined;
  if (techniqueId === null) return { items: [], total: 0, offset, limit };
  if (search) {
    const filters = [
      ...(techniqueId ? [Sql.sql`t.technique_id = ${techniqueId}::uuid`] : []),
      ...(severity ? [Sql.sql`t.severity = ${severity}::"Severity"`] : []),
      ...(testId ? [Sql.sql`t.test_id = ${testId}::uuid`] : []),
      ...(campaignId ? [Sql.sql`t.campaign_id = ${campaignId}::uuid`] : []),
    ];
    const ranked = await rankedPage(db, 'lessons_learned', search, filters, Sql.sql`t.created_at DESC, t.id DESC`, { offset, limit });
    const rows = await db.lessonLearned.findMany({ where: { id: { in: ranked.ids } } });
    return { items: inOrderOf(ranked.ids, rows), total: ranked.total, offset, limit };
  }
  const where: Prisma.LessonLearnedWhereInput = {
    techniqueId,
    severity: severity ?? undefined,
    testId: testId ?? undefined,
    campaignId: campaignId ?? undefined,
  };
  return pageOf({ offset, limit }, [
    db.lessonLearned.findMany({ where, orderBy: [{ createdAt: 'desc' }, { id: 'desc' }], skip: offset, take: limit }),
    db.lessonLearned.count({ where }),
  ]);
}

export async function getLesson(services: Services, id: string, query: Query = {}) {
  const lesson = await services.prisma.lessonLearned.findUnique({ ...query, where: { id } });
  if (!lesson) throw new NotFoundError('Lesson', id);
  return lesson;
}

async function testOf(db: Db, testId: string) {
  const test = await db.test.findUnique({ where: { id: testId }, select: { techniqueId: true, campaignId: true } });
  if (!test) throw new ValidationError('testId', 'no test with this id');
  return test;
}

async function assertCampaign(db: Db, campaignId: string): Promise<void> {
  if (!(await db.campaign.findUnique({ where: { id: campaignId }, select: { id: true } }))) {
    throw new ValidationError('campaignId', 'no campaign with this id');
  }
}

/**
 * Records a lesson. It needs what happened and the root cause, and a technique: given, or that of the test it
 * comes from (a test also lends its campaign when none is given). A lesson from a test is about the test's technique.
 */
export async function createLesson(services: Services, actor: Actor, input: unknown, query: Query = {}) {
  const { techniqueId: givenTechnique, testId, campaignId: givenCampaign, title, ...fields } = parseInput(createSchema, input);
  return inTransaction(services, actor, async (uow) => {
    const test = testId ? await testOf(uow.tx, testId) : null;
    const techniqueId = givenTechnique ? await techniqueIdFor(uow.tx, givenTechnique) : test?.techniqueId;
    if (!techniqueId) throw new ValidationError('techniqueId', 'is required unless testId names the test the lesson comes from');
    if (test && test.techniqueId !== techniqueId) throw new ValidationError('techniqueId', 'is not the technique of the test');
    await assertTechnique(uow.tx, techniqueId);
    const campaignId = givenCampaign === undefined ? (test?.campaignId ?? null) : givenCampaign;
    if (campaignId) await assertCampaign(uow.tx, campaignId);
    const lesson = await uow.tx.lessonLearned.create({
      ...query,
      data: {
        ...fields,
        title: title ?? derivedTitle(fields.whatHappened),
        techniqueId,
        testId: testId ?? null,
        campaignId,
        createdById: actor.userId,
      },
    });
    await uow.audit({
      action: 'create_lesson',
      entityType: 'lesson_learned',
      entityId: lesson.id,
      details: {
        title: lesson.title,
        severity: lesson.severity,
        technique_id: techniqueId,
        test_id: lesson.testId,
        campaign_id: campaignId,
      },
    });
    return lesson;
  });
}

/** Changes a lesson; what happened and the root cause can be rewritten but never emptied. */
export async function updateLesson(services: Services, actor: Actor, id: string, input: unknown, query: Query = {}) {
  const changes = parseInput(updateSchema, input);
  return inTransaction(services, actor, async (uow) => {
    const before = await lockAndRead(uow.tx, 'lessons_learned', 'Lesson', id, () => uow.tx.lessonLearned.findUnique({ where: { id } }));
    if (changes.techniqueId) changes.techniqueId = await techniqueIdFor(uow.tx, changes.techniqueId);
    if (changes.campaignId) await assertCampaign(uow.tx, changes.campaignId);
    const testId = changes.testId === undefined ? before.testId : changes.testId;
    const techniqueId = changes.techniqueId ?? before.techniqueId;
    if (testId && (changes.testId !== undefined || changes.techniqueId !== undefined)) {
      const test = await testOf(uow.tx, testId);
      if (test.techniqueId !== techniqueId) {
        throw new ValidationError(changes.techniqueId ? 'techniqueId' : 'testId', 'the test is about another technique than the lesson');
      }
    }
    const lesson = await uow.tx.lessonLearned.update({ ...query, where: { id }, data: changes });
    await uow.audit({
      action: 'update_lesson',
      entityType: 'lesson_learned',
      entityId: id,
      details: { title: lesson.title, fields: Object.keys(changes) },
    });
    return lesson;
  });
}

export async function deleteLesson(services: Services, actor: Actor, id: string, query: Query = {}) {
  return inTransaction(services, actor, async (uow) => {
    const before = await uow.tx.lessonLearned.findUnique({ where: { id }, select: { title: true, severity: true, techniqueId: true } });
    if (!before) throw new NotFoundError('Lesson', id);
    const deleted = await uow.tx.lessonLearned.delete({ ...query, where: { id } });
    await uow.audit({
      action: 'delete_lesson',
      entityType: 'lesson_learned',
      entityId: id,
      details: { title: before.title, severity: before.severity, technique_id: before.techniqueId },
    });
    return deleted;
  });
}
