import { z } from 'zod';
import type { Prisma } from '../../db/client.ts';
import type { Services } from '../../services.ts';
import { page, parseInput } from '../../validation.ts';
import { pageOf } from '../../db/page-totals.ts';

export const AUDIT_PAGE = { defaultLimit: 50, maxLimit: 100 } as const;
const pageSchema = page(AUDIT_PAGE.defaultLimit, AUDIT_PAGE.maxLimit);

const filterSchema = z
  .object({
    // Postgres accepts any 8-4-4-4-12 hex uuid, so do we (z.uuid() would insist on a version).
    userId: z.guid('must be a UUID').nullish(),
    action: z.string().max(100).nullish(),
    entityType: z.string().max(100).nullish(),
    startDate: z.date().nullish(),
    endDate: z.date().nullish(),
  })
  .refine((filter) => !filter.startDate || !filter.endDate || filter.startDate <= filter.endDate, {
    path: ['endDate'],
    message: 'must not be before start_date',
  });

export type AuditLogFilter = z.input<typeof filterSchema>;

/** Audit entries matching the filter, newest first, one page at a time. */
export async function listAuditLogs(services: Services, filter: unknown, paging: unknown) {
  const { userId, action, entityType, startDate, endDate } = parseInput(filterSchema, filter ?? {});
  const { offset, limit } = parseInput(pageSchema, paging);
  const where: Prisma.AuditLogWhereInput = {};
  if (userId) where.userId = userId;
  if (action) where.action = action;
  if (entityType) where.entityType = entityType;
  if (startDate || endDate) where.timestamp = { gte: startDate ?? undefined, lte: endDate ?? undefined };
  return pageOf({ offset, limit }, [
    services.prisma.auditLog.findMany({ where, orderBy: [{ timestamp: 'desc' }, { id: 'desc' }], skip: offset, take: limit }),
    services.prisma.auditLog.count({ where }),
  ]);
}

/** Every action recorded so far, sorted (GROUP BY in the database). */
export async function distinctActions(services: Services): Promise<string[]> {
  const rows = await services.prisma.auditLog.groupBy({ by: ['action'], orderBy: { action: 'asc' } });
  return rows.map((row) => row.action);
}

/** Every entity type recorded so far, sorted. */
export async function distinctEntityTypes(services: Services): Promise<string[]> {
  const rows = await services.prisma.auditLog.groupBy({ by: ['entityType'], orderBy: { entityType: 'asc' } });
  return rows.map((row) => row.entityType);
}
