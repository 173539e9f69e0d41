import { z } from 'zod';
import { Prisma } from '../../generated/prisma/client.ts';
import { DetectionResult, RemediationStatus, TestState } from '../../generated/prisma/enums.ts';
import type { Services } from '../../services.ts';
import { page, parseInput } from '../../validation.ts';
import { TEST_PAGE } from '../test-runs/service.ts';
import type { TestQuery } from '../test-runs/store.ts';
import { dateRange, isoDate } from './period.ts';
import { countOfPage } from '../../db/page-totals.ts';

const pageSchema = page(TEST_PAGE.defaultLimit, TEST_PAGE.maxLimit);

const resultsFilter = z.object({
  state: z.enum(TestState).nullish(),
  dateFrom: isoDate.nullish(),
  dateTo: isoDate.nullish(),
});

const remediationFilter = z.object({ status: z.enum(RemediationStatus).nullish() });

export type StateCounts = Record<TestState, number>;
export type DetectionCounts = Record<DetectionResult | 'none', number>;
export type RemediationCounts = Record<RemediationStatus, number>;

/** `count(*) FILTER (WHERE <condition> AND column = value) AS value` for every value (one scan counts them all). */
const countsBy = (column: string, values: readonly string[], condition: Prisma.Sql = Prisma.sql`true`) =>
  Prisma.join(
    values.map(
      (value) =>
        Prisma.sql`count(*) FILTER (WHERE ${condition} AND ${Prisma.raw(column)} = ${Prisma.raw(`'${value}'`)})::int AS ${Prisma.raw(`"${value}"`)}`,
    ),
  );

/**
 * Tests with their results, most recently executed first (never-executed tests last). The date range applies
 * to execution_date; `byState` counts every state within the date range (the state filter selects the rows),
 * `byDetectionResult` counts the matching tests.
 */
export async function testResultsReport(services: Services, filter: unknown, paging: unknown, query: TestQuery = {}) {
  const { state, dateFrom, dateTo } = parseInput(resultsFilter, filter ?? {});
  const { offset, limit } = parseInput(pageSchema, paging);
  const { from, before } = dateRange(dateFrom, dateTo);
  const where: Prisma.TestWhereInput = {
    ...(from || before ? { executionDate: { gte: from, lt: before } } : {}),
    ...(state ? { state } : {}),
  };
  const inRange = Prisma.join(
    [
      Prisma.sql`true`,
      ...(from ? [Prisma.sql`s.execution_date >= ${from}::timestamptz`] : []),
      ...(before ? [Prisma.sql`s.execution_date < ${before}::timestamptz`] : []),
    ],
    ' AND ',
  );
  const matching = state ? Prisma.sql`s.state = ${state}::"TestState"` : Prisma.sql`true`;
  const db = services.prisma;
  const [items, [counts]] = await Promise.all([
    db.test.findMany({ ...query, where, orderBy: [{ updatedAt: 'desc' }, { id: 'desc' }], skip: offset, take: limit }),
    db.$queryRaw<(StateCounts & DetectionCounts & { total: number })[]>`
      SELECT count(*) FILTER (WHERE ${matching})::int AS total,
        ${countsBy('s.state', Object.values(TestState))},
        ${countsBy('s.detection_result', Object.values(DetectionResult), matching)},
        count(*) FILTER (WHERE ${matching} AND s.detection_result IS NULL)::int AS "none"
      FROM tests s WHERE ${inRange}`,
  ]);
  const pick = <K extends string>(keys: readonly K[]) =>
    Object.fromEntries(keys.map((key) => [key, counts[key as keyof typeof counts]])) as Record<K, number>;
  return {
    items,
    // The page decides its total (src/db/page-totals.ts); the breakdowns are the count statement's.
    total: countOfPage(counts.total, { offset, limit, found: items.length }),
    offset,
    limit,
    byState: pick(Object.values(TestState)),
    byDetectionResult: pick([...Object.values(DetectionResult), 'none'] as const),
  };
}

/**
 * Tests whose remediation is tracked (remediation_status set), most recently updated first. `byStatus`
 * counts every tracked test (the status filter selects the rows).
 */
export async function remediationReport(services: Services, filter: unknown, paging: unknown, query: TestQuery = {}) {
  const { status } = parseInput(remediationFilter, filter ?? {});
  const { offset, limit } = parseInput(pageSchema, paging);
  const db = services.prisma;
  const [items, [byStatus]] = await Promise.all([
    db.test.findMany({
      ...query,
      where: { remediationStatus: status ?? { not: null } },
      orderBy: [{ updatedAt: 'desc' }, { id: 'desc' }],
      skip: offset,
      take: limit,
    }),
    db.$queryRaw<RemediationCounts[]>`
      SELECT ${countsBy('s.remediation_status', Object.values(RemediationStatus))} FROM tests s WHERE s.remediation_status IS NOT NULL`,
  ]);
  const counted = status ? byStatus[status] : Object.values(byStatus).reduce((sum, count) => sum + count, 0);
  const total = countOfPage(counted, { offset, limit, found: items.length });
  return { items, total, offset, limit, byStatus };
}
