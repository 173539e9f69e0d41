import type { Prisma } from '../../db/client.ts';
import { inTransaction, type Actor } from '../../db/unit-of-work.ts';
import { DomainError, NotFoundError } from '../../errors.ts';
import type { DataSource, DataSourceKind, SyncStatus } from '../../generated/prisma/client.ts';
import type { Services } from '../../services.ts';
import { SourceUnavailableError } from '../../sources/location.ts';
import type { ImportReport } from './importer.ts';
import { importers } from './importers.ts';
import { getDataSource, SYNC_JOB } from './service.ts';

export type SyncTrigger = 'manual' | 'schedule' | 'api';

/** A sync still `queued` or `running` after this long is taken as abandoned (its process died) and may be replaced. */
export const SYNC_STALE_AFTER_MS = 60 * 60_000;
const MAX_ERROR_LENGTH = 2_000;

export class SyncInProgressError extends DomainError {
  override readonly status = 409;
  override readonly code = 'SYNC_IN_PROGRESS';
  constructor(name: string) {
    super(`A sync of ${name} is already queued or running; wait for it to finish`);
  }
}

const staleBefore = () => new Date(Date.now() - SYNC_STALE_AFTER_MS);

/** Rows a new sync may take over: not busy, or busy for longer than a sync can take. */
const claimable = (id: string, busy: SyncStatus[]): Prisma.DataSourceWhereInput => ({
  id,
  OR: [{ status: { notIn: busy } }, { updatedAt: { lt: staleBefore() } }],
});

/**
 * What a failed sync records (on the source, its run and the audit log): the reason a source error gives in our
 * own words, never another error's message, which may quote the source's contents or an internal server's answer.
 */
const recordedFailure = (error: unknown) =>
  (error instanceof SourceUnavailableError ? error.message : 'The import failed; the server log has the details').slice(0, MAX_ERROR_LENGTH);

/**
 * Syncs one source now, in this process: marks it running (409 SYNC_IN_PROGRESS when another sync of it is
 * running), runs its importer, and records the outcome on the source, in a run and in the audit log. A failing
 * importer leaves the catalog as it was (imports are transactional); its error is recorded and rethrown.
 */
export async function runSync(services: Services, source: DataSource, actor: Actor, trigger: SyncTrigger, queuedRunId?: string): Promise<ImportReport> {
  const startedAt = new Date();
  const run = await inTransaction(services, actor, async (uow) => {
    const claimed = await uow.tx.dataSource.updateMany({ where: claimable(source.id, ['running']), data: { status: 'running', lastRunAt: startedAt } });
    if (!claimed.count) {
      if (queuedRunId) {
        await uow.tx.dataSourceRun.update({
          where: { id: queuedRunId },
          data: { status: 'failed', finishedAt: startedAt, error: 'Not run: another sync of this source was running' },
        });
      }
      return null;
    }
    return queuedRunId
      ? uow.tx.dataSourceRun.update({ where: { id: queuedRunId }, data: { status: 'running', startedAt } })
      : uow.tx.dataSourceRun.create({ data: { dataSourceId: source.id, trigger, status: 'running', startedAt, triggeredById: actor.userId } });
  });
  if (!run) throw new SyncInProgressError(source.name);

  const log = services.log.child({ dataSource: source.kind, run: run.id });
  let report: ImportReport;
  try {
    report = await importers[source.kind]({ services, location: source.location, actor, log });
  } catch (error) {
    log.warn({ err: error, location: source.location }, 'data source sync failed');
    await finish(services, actor, source, run.id, trigger, { status: 'failed', error: recordedFailure(error) });
    throw error;
  }
  await finish(services, actor, source, run.id, trigger, { status: 'succeeded', report });
  log.info({ counts: report.counts }, 'data source synced');
  return report;
}

type Outcome = { status: 'succeeded'; report: ImportReport } | { status: 'failed'; error: string };

async function finish(services: Services, actor: Actor, source: DataSource, runId: string, trigger: SyncTrigger, outcome: Outcome) {
  const finishedAt = new Date();
  const changes = outcome.status === 'succeeded' ? (outcome.report.changes as Prisma.InputJsonObject) : {};
  const error = outcome.status === 'failed' ? outcome.error : null;
  await inTransaction(services, actor, async (uow) => {
    await uow.tx.dataSourceRun.update({ where: { id: runId }, data: { status: outcome.status, finishedAt, changes, error } });
    await uow.tx.dataSource.update({
      where: { id: source.id },
      data:
        outcome.status === 'succeeded'
          ? { status: 'succeeded', error: null, lastSuccessAt: finishedAt, itemCounts: outcome.report.counts }
          : { status: 'failed', error },
    });
    await uow.audit({
      action: 'sync_data_source',
      entityType: 'data_source',
      entityId: source.id,
      details: { kind: source.kind, trigger, status: outcome.status, run_id: runId, ...(error ? { error } : { changes }) },
    });
    uow.emit('data_source.synced', { dataSourceId: source.id, kind: source.kind, status: outcome.status, changes });
  });
}

/**
 * Runs the importer of one data source against its configured location, now, in this process, with run
 * records and status bookkeeping (see runSync). Returns what the import did.
 */
export async function syncDataSource(services: Services, kind: DataSourceKind, actor: Actor, trigger: SyncTrigger = 'manual'): Promise<ImportReport> {
  const source = await services.prisma.dataSource.findUnique({ where: { kind } });
  if (!source) throw new NotFoundError('Data source', kind);
  return runSync(services, source, actor, trigger);
}

/**
 * Queues a manual sync as a background job: the source turns `queued` with a queued run (409 SYNC_IN_PROGRESS
 * while another is queued or running). Returns the source, the run and the job id.
 */
export async function requestSync(services: Services, actor: Actor, idOrKind: string) {
  const before = await getDataSource(services, idOrKind);
  const { dataSource, run } = await inTransaction(services, actor, async (uow) => {
    const claimed = await uow.tx.dataSource.updateMany({ where: claimable(before.id, ['queued', 'running']), data: { status: 'queued' } });
    if (!claimed.count) throw new SyncInProgressError(before.name);
    const run = await uow.tx.dataSourceRun.create({ data: { dataSourceId: before.id, trigger: 'manual', status: 'queued', triggeredById: actor.userId } });
    await uow.audit({ action: 'request_data_source_sync', entityType: 'data_source', entityId: before.id, details: { kind: before.kind, run_id: run.id } });
    return { dataSource: await uow.tx.dataSource.findUniqueOrThrow({ where: { id: before.id } }), run };
  });
  try {
    const jobId = await services.jobs.enqueue(SYNC_JOB, { dataSourceId: dataSource.id, kind: dataSource.kind, runId: run.id, userId: actor.userId, trigger: 'manual' });
    return { dataSource, run, jobId };
  } catch (error) {
    await services.prisma.$transaction([
      services.prisma.dataSourceRun.update({ where: { id: run.id }, data: { status: 'failed', finishedAt: new Date(), error: 'Could not be queued; the server log has the details' } }),
      services.prisma.dataSource.update({ where: { id: dataSource.id }, data: { status: before.status } }),
    ]);
    throw error;
  }
}
