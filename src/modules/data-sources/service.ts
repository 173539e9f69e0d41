import type { Prisma } from '../../db/client.ts';
import { inTransaction, SYSTEM_ACTOR, type Actor } from '../../db/unit-of-work.ts';
import { NotFoundError } from '../../errors.ts';
import type { DataSource, DataSourceKind } from '../../generated/prisma/client.ts';
import type { DynamicSchedule, Repeat, ScheduledJob } from '../../jobs/types.ts';
import type { Services } from '../../services.ts';
import { page, parseInput, isUuid } from '../../validation.ts';
import { configuredLocation, DATA_SOURCE_DEFAULTS, DATA_SOURCE_KINDS, scheduleIdOf } from './defaults.ts';
import { scheduleProblem, updateDataSourceSchema } from './validation.ts';
import { pageOf } from '../../db/page-totals.ts';

type Query = { select?: Prisma.DataSourceSelect; include?: Prisma.DataSourceInclude };
type RunQuery = { select?: Prisma.DataSourceRunSelect; include?: Prisma.DataSourceRunInclude };

export const SYNC_JOB = 'sync-data-source';
export const RUNS_PAGE = { defaultLimit: 20, maxLimit: 100 } as const;
const runsPage = page(RUNS_PAGE.defaultLimit, RUNS_PAGE.maxLimit);

/**
 * One row per kind, created when missing. A row whose location no admin has set (no `update_data_source` audit
 * entry changing it) follows the configuration: a *_SOURCE variable set, changed or removed later applies at the next start.
 */
export async function ensureDataSources(services: Services): Promise<void> {
  const { config, prisma } = services;
  await prisma.dataSource.createMany({
    data: DATA_SOURCE_KINDS.map((kind) => ({
      kind,
      name: DATA_SOURCE_DEFAULTS[kind].name,
      location: configuredLocation(config, kind),
      schedule: DATA_SOURCE_DEFAULTS[kind].schedule,
    })),
    skipDuplicates: true,
  });
  const sources = await prisma.dataSource.findMany({ select: { id: true, kind: true, location: true } });
  const drifted = sources.filter((source) => source.location !== configuredLocation(config, source.kind));
  if (!drifted.length) return;
  const edits = await prisma.auditLog.findMany({
    where: { action: 'update_data_source', entityType: 'data_source', entityId: { in: drifted.map((source) => source.id) } },
    select: { entityId: true, details: true },
  });
  const setsLocation = (details: unknown) => Object.hasOwn((details as { changes?: object } | null)?.changes ?? {}, 'location');
  const editedIds = new Set(edits.filter((entry) => setsLocation(entry.details)).map((entry) => entry.entityId));
  for (const source of drifted.filter((candidate) => !editedIds.has(candidate.id))) {
    const location = configuredLocation(config, source.kind);
    await inTransaction(services, SYSTEM_ACTOR, async (uow) => {
      // Conditional, so that processes starting together record the change once.
      const moved = await uow.tx.dataSource.updateMany({ where: { id: source.id, location: source.location }, data: { location } });
      if (!moved.count) return;
      await uow.audit({
        action: 'configure_data_source',
        entityType: 'data_source',
        entityId: source.id,
        details: { kind: source.kind, location, from: DATA_SOURCE_DEFAULTS[source.kind].variable },
      });
    });
  }
}

/** The unique key of a data source given by its id (UUID) or its kind (e.g. `sigma`). */
export function uniqueWhere(idOrKind: string): Prisma.DataSourceWhereUniqueInput {
  if ((DATA_SOURCE_KINDS as string[]).includes(idOrKind)) return { kind: idOrKind as DataSourceKind };
  if (isUuid(idOrKind)) return { id: idOrKind };
  throw new NotFoundError('Data source', idOrKind);
}

export async function getDataSource(services: Services, idOrKind: string, query: Query = {}) {
  const source = await services.prisma.dataSource.findUnique({ ...query, where: uniqueWhere(idOrKind) });
  if (!source) throw new NotFoundError('Data source', idOrKind);
  return source;
}

export function listDataSources(services: Services, query: Query = {}) {
  return services.prisma.dataSource.findMany({ ...query, orderBy: { kind: 'asc' } });
}

/** The recurrence of a source, or null when it does not sync by itself. */
export function repeatOf(services: Services, source: Pick<DataSource, 'enabled' | 'schedule'>): Repeat | null {
  if (!services.config.SOURCE_SYNC_SCHEDULES || !source.enabled || !source.schedule) return null;
  if (scheduleProblem(source.schedule)) return null;
  return { pattern: source.schedule, tz: 'UTC' };
}

const scheduleData = (source: Pick<DataSource, 'id' | 'kind'>) => ({ dataSourceId: source.id, kind: source.kind, trigger: 'schedule' });

/** The recurring syncs to register at start (the data sources are created first if missing). */
export async function dataSourceSchedules(services: Services): Promise<DynamicSchedule[]> {
  await ensureDataSources(services);
  const schedules: DynamicSchedule[] = [];
  for (const source of await services.prisma.dataSource.findMany({ orderBy: { kind: 'asc' } })) {
    const repeat = repeatOf(services, source);
    if (source.schedule && scheduleProblem(source.schedule)) {
      services.log.warn(
        { dataSource: source.kind, schedule: source.schedule },
        'data source schedule is not a valid cron pattern; not scheduled',
      );
    }
    if (repeat) schedules.push({ id: scheduleIdOf(source.kind), repeat, data: scheduleData(source) });
  }
  return schedules;
}

/** Registers or removes the recurring sync of one source after its configuration changed. */
async function applySchedule(services: Services, source: DataSource): Promise<void> {
  const repeat = repeatOf(services, source);
  if (repeat) await services.jobs.upsertSchedule(scheduleIdOf(source.kind), SYNC_JOB, repeat, scheduleData(source));
  else await services.jobs.removeSchedule(scheduleIdOf(source.kind));
}

/** Scheduler entries of the data sources, by kind (one scheduler read per call). */
export async function scheduledSyncs(services: Services): Promise<Map<string, ScheduledJob>> {
  const byId = new Map((await services.jobs.status()).jobs.map((job) => [job.id, job]));
  return new Map(DATA_SOURCE_KINDS.flatMap((kind) => (byId.has(scheduleIdOf(kind)) ? [[kind, byId.get(scheduleIdOf(kind))!]] : [])));
}

/** Changes location, schedule or enabled; the recurring sync follows in the same step. */
export async function updateDataSource(services: Services, actor: Actor, idOrKind: string, input: unknown, query: Query = {}) {
  const changes = parseInput(updateDataSourceSchema, input ?? {});
  if (!Object.keys(changes).length) return getDataSource(services, idOrKind, query);
  return inTransaction(services, actor, async (uow) => {
    const before = await uow.tx.dataSource.findUnique({ where: uniqueWhere(idOrKind), select: { id: true } });
    if (!before) throw new NotFoundError('Data source', idOrKind);
    const source = await uow.tx.dataSource.update({ where: { id: before.id }, data: changes });
    await uow.audit({
      action: 'update_data_source',
      entityType: 'data_source',
      entityId: source.id,
      details: { kind: source.kind, changes },
    });
    // While the queue is known to be unreachable the change is refused rather than kept without its schedule.
    services.jobs.assertAvailable();
    uow.afterCommit(() => applySchedule(services, source));
    return uow.tx.dataSource.findUniqueOrThrow({ ...query, where: { id: source.id } });
  });
}

/** The runs of one source, newest first. */
export async function listRuns(services: Services, idOrKind: string, paging: unknown, query: RunQuery = {}) {
  const { offset, limit } = parseInput(runsPage, paging ?? {});
  const source = await getDataSource(services, idOrKind, { select: { id: true } });
  const where = { dataSourceId: source.id };
  return pageOf({ offset, limit }, [
    services.prisma.dataSourceRun.findMany({
      ...query,
      where,
      orderBy: [{ startedAt: 'desc' }, { id: 'desc' }],
      skip: offset,
      take: limit,
    }),
    services.prisma.dataSourceRun.count({ where }),
  ]);
}
