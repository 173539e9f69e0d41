import type { Principal } from '../../auth/access.ts';
import { inTransaction, type UnitOfWork } from '../../db/unit-of-work.ts';
import type { Services } from '../../services.ts';
import { getTest } from './service.ts';
import { RETEST_FROM, testLifecycle } from './state-machine.ts';
import { insertTest, lockTest, type TestQuery } from './store.ts';

/** Re-runs a decided test: a new draft with the same definition, in the same lineage. */
export function createRetest(services: Services, principal: Principal, id: string, query: TestQuery = {}) {
  return inTransaction(services, principal, (uow) => insertRetest(uow, principal.userId, id, query));
}

/** The retest of a decided test, inside the caller's transaction, created in the name of `createdById`. */
export async function insertRetest(uow: UnitOfWork, createdById: string, id: string, query: TestQuery = {}) {
  const locked = await lockTest(uow, id);
  const { test } = locked;
  testLifecycle.assertIn('RETEST_NOT_ALLOWED', 'A retest', test.state, RETEST_FROM);
  const retest = await insertTest(
    uow,
    createdById,
    {
      techniqueId: test.techniqueId,
      name: test.name,
      description: test.description,
      platform: test.platform,
      procedureText: test.procedureText,
      toolUsed: test.toolUsed,
      assignedToId: test.assignedToId,
      campaignId: test.campaignId,
      templateId: test.templateId,
      dataClassification: test.dataClassification,
      retestOfId: test.id,
      lineageId: test.lineageId,
    },
    { retest_of: test.id, lineage_id: test.lineageId },
    { select: { id: true } },
  );
  await locked.record({ kind: 'retest_created', details: { retest_id: retest.id } });
  return uow.tx.test.findUniqueOrThrow({ ...query, where: { id: retest.id } });
}

/** Most tests a retest chain lists: its latest (a recurring campaign adds one per occurrence). */
export const RETEST_CHAIN_MAX = 1000;

/** The latest RETEST_CHAIN_MAX tests of the lineage the test belongs to, in creation order. */
export async function retestChain(services: Services, id: string, query: TestQuery = {}) {
  const { lineageId } = await getTest(services, id, { select: { lineageId: true } });
  const latest = await services.prisma.test.findMany({
    ...query,
    where: { lineageId },
    orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
    take: RETEST_CHAIN_MAX,
  });
  return latest.reverse();
}
