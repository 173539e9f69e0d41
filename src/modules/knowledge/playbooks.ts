import { z } from 'zod';
import type { Prisma } from '../../db/client.ts';
import { Prisma as Sql } from '../../generated/prisma/client.ts';
import { inTransaction, type Actor, type UnitOfWork } from '../../db/unit-of-work.ts';
import { ConflictError, NotFoundError, ValidationError } from '../../errors.ts';
import { PlaybookType } from '../../generated/prisma/enums.ts';
import type { Playbook } from '../../generated/prisma/client.ts';
import type { Services } from '../../services.ts';
import { page, parseInput, trimmed } from '../../validation.ts';
import { inOrderOf, rankedPage, searchText } from './search.ts';
import { techniqueIdFor } from '../techniques/reference.ts';
import { assertTechnique, techniqueIdOf, techniqueKey, techniqueRef } from './techniques.ts';
import { lockAndRead } from '../../db/row-lock.ts';
import { pageOf } from '../../db/page-totals.ts';

type Query = { select?: Prisma.PlaybookSelect; include?: Prisma.PlaybookInclude };

export const PLAYBOOK_PAGE = { defaultLimit: 50, maxLimit: 200 } as const;
export const PLAYBOOK_VERSION_PAGE = { defaultLimit: 50, maxLimit: 500 } as const;
/** Longest playbook content: a long runbook, well within what one tsvector can index. */
export const PLAYBOOK_CONTENT_MAX = 100_000;

const tags = z
  .array(trimmed(64))
  .max(50, 'must hold at most 50 tags')
  .transform((list) => [...new Set(list)]);

const editable = {
  techniqueId: techniqueRef,
  type: z.enum(PlaybookType),
  title: trimmed(300),
  content: z.string().max(PLAYBOOK_CONTENT_MAX, `must be at most ${PLAYBOOK_CONTENT_MAX} characters`),
  tags,
};

const createSchema = z.object({ ...editable, content: editable.content.default(''), tags: tags.default([]) });

const updateSchema = z
  .object(editable)
  .partial()
  .extend({
    version: z.number({ error: 'is required: the version you read' }).int().min(1, 'must be at least 1'),
  });

const filterSchema = z.object({
  technique: techniqueKey.nullish(),
  type: z.enum(PlaybookType).nullish(),
  search: searchText.nullish(),
});

export interface PlaybookFilter {
  technique?: string | null;
  type?: PlaybookType | null;
  search?: string | null;
}

/** What one version holds: everything an edit can change. */
const VERSIONED = ['techniqueId', 'type', 'title', 'content', 'tags'] as const;
type Versioned = Pick<Playbook, (typeof VERSIONED)[number]>;

const sameValue = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/**
 * One page of playbooks: with `search`, ranked by full-text relevance (title matches first); otherwise the most
 * recently changed first.
 */
export async function listPlaybooks(services: Services, filter: PlaybookFilter | null | undefined, paging: unknown) {
  const db = services.prisma;
  const { offset, limit } = parseInput(page(PLAYBOOK_PAGE.defaultLimit, PLAYBOOK_PAGE.maxLimit), paging);
  const { technique, type, search } = parseInput(filterSchema, filter ?? {});
  const techniqueId = technique ? await techniqueIdOf(db, technique) : undefined;
  if (techniqueId === null) return { items: [], total: 0, offset, limit };
  if (search) {
    const filters = [
      ...(techniqueId ? [Sql.sql`t.technique_id = ${techniqueId}::uuid`] : []),
      ...(type ? [Sql.sql`t.type = ${type}::"PlaybookType"`] : []),
    ];
    const ranked = await rankedPage(db, 'playbooks', search, filters, Sql.sql`t.updated_at DESC, t.id DESC`, { offset, limit });
    const rows = await db.playbook.findMany({ where: { id: { in: ranked.ids } } });
    return { items: inOrderOf(ranked.ids, rows), total: ranked.total, offset, limit };
  }
  const where: Prisma.PlaybookWhereInput = { techniqueId, type: type ?? undefined };
  return pageOf({ offset, limit }, [
    db.playbook.findMany({ where, orderBy: [{ updatedAt: 'desc' }, { id: 'desc' }], skip: offset, take: limit }),
    db.playbook.count({ where }),
  ]);
}

export async function getPlaybook(services: Services, id: string, query: Query = {}) {
  const playbook = await services.prisma.playbook.findUnique({ ...query, where: { id } });
  if (!playbook) throw new NotFoundError('Playbook', id);
  return playbook;
}

/** The earlier versions of a playbook, newest first (the current one is the playbook itself). */
export async function listPlaybookVersions(services: Services, id: string, paging: unknown) {
  const { offset, limit } = parseInput(page(PLAYBOOK_VERSION_PAGE.defaultLimit, PLAYBOOK_VERSION_PAGE.maxLimit), paging);
  const db = services.prisma;
  if (!(await db.playbook.findUnique({ where: { id }, select: { id: true } }))) throw new NotFoundError('Playbook', id);
  return pageOf({ offset, limit }, [
    db.playbookVersion.findMany({ where: { playbookId: id }, orderBy: { version: 'desc' }, skip: offset, take: limit }),
    db.playbookVersion.count({ where: { playbookId: id } }),
  ]);
}

export async function createPlaybook(services: Services, actor: Actor, input: unknown, query: Query = {}) {
  const data = parseInput(createSchema, input);
  return inTransaction(services, actor, async (uow) => {
    const techniqueId = await techniqueIdFor(uow.tx, data.techniqueId);
    const playbook = await uow.tx.playbook.create({
      ...query,
      data: { ...data, techniqueId, version: 1, createdById: actor.userId, updatedById: actor.userId },
    });
    await uow.audit({
      action: 'create_playbook',
      entityType: 'playbook',
      entityId: playbook.id,
      details: { title: data.title, type: data.type, technique_id: techniqueId, version: 1 },
    });
    return playbook;
  });
}

/** Locks the playbook row for the rest of the transaction and re-reads it: changes of one playbook run in turn. */
async function lockPlaybook(uow: UnitOfWork, id: string): Promise<Playbook> {
  return lockAndRead(uow.tx, 'playbooks', 'Playbook', id, () => uow.tx.playbook.findUnique({ where: { id } }));
}

/** Keeps the current state of a locked playbook as a version, before a change replaces it. */
async function keepCurrentVersion(uow: UnitOfWork, playbook: Playbook): Promise<void> {
  await uow.tx.playbookVersion.create({
    data: {
      playbookId: playbook.id,
      version: playbook.version,
      techniqueId: playbook.techniqueId,
      type: playbook.type,
      title: playbook.title,
      content: playbook.content,
      tags: playbook.tags,
      restoredFrom: playbook.restoredFrom,
      authorId: playbook.updatedById,
      authoredAt: playbook.updatedAt,
    },
  });
}

/** Makes `next` the current state as a new version, keeping the replaced one. */
async function replaceVersion(uow: UnitOfWork, before: Playbook, next: Partial<Versioned>, restoredFrom: number | null) {
  await keepCurrentVersion(uow, before);
  return uow.tx.playbook.update({
    where: { id: before.id },
    data: { ...next, version: before.version + 1, restoredFrom, updatedById: uow.actor.userId },
  });
}

/** 409 when the caller edited a version that is no longer current (someone else changed the playbook since). */
function assertCurrentVersion(playbook: Playbook, version: number): void {
  if (version === playbook.version) return;
  const error = new ConflictError(
    `Playbook ${playbook.id} is at version ${playbook.version}, not ${version}: it changed since you read it. Read it again and reapply your change.`,
  );
  error.extra.current_version = playbook.version;
  throw error;
}

/**
 * Changes a playbook. The body carries the version the caller read; a stale one is refused (409). A change keeps
 * the replaced state as a version and raises the version by one; a body that changes nothing creates no version.
 */
export async function updatePlaybook(services: Services, actor: Actor, id: string, input: unknown, query: Query = {}) {
  const { version, ...changes } = parseInput(updateSchema, input);
  return inTransaction(services, actor, async (uow) => {
    const before = await lockPlaybook(uow, id);
    assertCurrentVersion(before, version);
    if (changes.techniqueId) changes.techniqueId = await techniqueIdFor(uow.tx, changes.techniqueId);
    const changed = Object.fromEntries(
      Object.entries(changes).filter(([key, value]) => value !== undefined && !sameValue(value, before[key as keyof Versioned])),
    ) as Partial<Versioned>;
    if (!Object.keys(changed).length) return uow.tx.playbook.findUniqueOrThrow({ ...query, where: { id } });
    const playbook = await replaceVersion(uow, before, changed, null);
    await uow.audit({
      action: 'update_playbook',
      entityType: 'playbook',
      entityId: id,
      details: { title: playbook.title, version: playbook.version, previous_version: before.version, fields: Object.keys(changed) },
    });
    return uow.tx.playbook.findUniqueOrThrow({ ...query, where: { id } });
  });
}

/**
 * Makes an earlier version's content current again, as a new version (the history is never rewritten: the
 * replaced state is kept like on any change).
 */
export async function restorePlaybookVersion(services: Services, actor: Actor, id: string, version: number, query: Query = {}) {
  return inTransaction(services, actor, async (uow) => {
    const before = await lockPlaybook(uow, id);
    if (version === before.version) throw new ValidationError('version', `is the current version of the playbook`);
    const earlier = await uow.tx.playbookVersion.findUnique({ where: { playbookId_version: { playbookId: id, version } } });
    if (!earlier) throw new NotFoundError(`Version ${version} of playbook`, id);
    await assertTechnique(uow.tx, earlier.techniqueId, 'version');
    const restored = Object.fromEntries(VERSIONED.map((key) => [key, earlier[key]])) as Versioned;
    const playbook = await replaceVersion(uow, before, restored, version);
    await uow.audit({
      action: 'restore_playbook_version',
      entityType: 'playbook',
      entityId: id,
      details: { title: playbook.title, version: playbook.version, restored_from: version, previous_version: before.version },
    });
    return uow.tx.playbook.findUniqueOrThrow({ ...query, where: { id } });
  });
}

/** Deletes a playbook with its versions. */
export async function deletePlaybook(services: Services, actor: Actor, id: string, query: Query = {}) {
  return inTransaction(services, actor, async (uow) => {
    const before = await lockPlaybook(uow, id);
    const deleted = await uow.tx.playbook.delete({ ...query, where: { id } });
    await uow.audit({
      action: 'delete_playbook',
      entityType: 'playbook',
      entityId: id,
      details: { title: before.title, type: before.type, technique_id: before.techniqueId, version: before.version },
    });
    return deleted;
  });
}
