import { SYSTEM_ACTOR } from '../../src/db/unit-of-work.ts';
import type { DataSourceKind } from '../../src/generated/prisma/enums.ts';
import { ensureDataSources, updateDataSource } from '../../src/modules/data-sources/service.ts';
import type { TestApp } from './app.ts';

/**
 * Points a data source at `location` as an administrator does, audited (the source is created first if a test
 * deleted it). A location written to the row directly is taken for one nobody set: the reconciliation each process
 * runs with its schedules (at start, when Redis is ready again, every few minutes) moves it back to the configured
 * one, at any moment of a test.
 */
export async function setSourceLocation(app: TestApp, kind: DataSourceKind, location: string) {
  await ensureDataSources(app.services);
  return updateDataSource(app.services, SYSTEM_ACTOR, kind, { location });
}
