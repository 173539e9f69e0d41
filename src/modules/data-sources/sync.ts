import type { Actor } from '../../db/unit-of-work.ts';
import { NotFoundError } from '../../errors.ts';
import type { DataSourceKind } from '../../generated/prisma/enums.ts';
import type { Services } from '../../services.ts';
import type { ImportReport } from './importer.ts';
import { importers } from './importers.ts';

export type SyncTrigger = 'manual' | 'schedule' | 'api';

/**
 * Runs the importer of one data source against its configured location, now, in this process.
 * (Run records, status bookkeeping and scheduling live in the data-sources service.)
 */
export async function syncDataSource(services: Services, kind: DataSourceKind, actor: Actor, _trigger: SyncTrigger = 'manual'): Promise<ImportReport> {
  const source = await services.prisma.dataSource.findUnique({ where: { kind } });
  if (!source) throw new NotFoundError('Data source', kind);
  return importers[kind]({ services, location: source.location, actor, log: services.log.child({ dataSource: kind }) });
}
