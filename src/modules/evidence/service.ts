import { randomUUID } from 'node:crypto';
import type { Principal } from '../../auth/access.ts';
import type { Prisma } from '../../db/client.ts';
import { inTransaction, type UnitOfWork } from '../../db/unit-of-work.ts';
import { NotFoundError } from '../../errors.ts';
import type { Evidence } from '../../generated/prisma/client.ts';
import type { Team, TestState } from '../../generated/prisma/enums.ts';
import type { Services } from '../../services.ts';
import type { DownloadLink } from '../../storage/types.ts';
import { assertMayDelete, assertUploadState } from './permissions.ts';
import { assertUuid } from '../../validation.ts';

type Query = { include?: Prisma.EvidenceInclude; select?: Prisma.EvidenceSelect };

/** An id that is not a UUID names nothing: 404 like any other unknown id. */
export const assertId = assertUuid;

/** A fresh key for a file of this test; never derived from the uploaded file's name. */
/** Most evidence files one test lists (its first ones): far above what a test is documented with. */
export const TEST_EVIDENCE_MAX = 500;

export const newStorageKey = (testId: string) => `tests/${testId.toLowerCase()}/${randomUUID()}`;

export async function getEvidence(services: Services, id: string, query: Query = {}) {
  assertId('Evidence', id);
  const evidence = await services.prisma.evidence.findUnique({ ...query, where: { id } });
  if (!evidence) throw new NotFoundError('Evidence', id);
  return evidence;
}

/** The evidence of a test, oldest first. */
export async function listTestEvidence(services: Services, testId: string, query: Query = {}) {
  assertId('Test', testId);
  if (!(await services.prisma.test.findUnique({ where: { id: testId }, select: { id: true } }))) throw new NotFoundError('Test', testId);
  return services.prisma.evidence.findMany({
    ...query,
    where: { testId },
    orderBy: [{ uploadedAt: 'asc' }, { id: 'asc' }],
    take: TEST_EVIDENCE_MAX,
  });
}

export function downloadLinkOf(
  services: Services,
  evidence: Pick<Evidence, 'id' | 'storageKey' | 'fileName' | 'contentType'>,
): Promise<DownloadLink> {
  return services.storage.objects.downloadUrl({
    evidenceId: evidence.id,
    key: evidence.storageKey,
    fileName: evidence.fileName,
    contentType: evidence.contentType,
  });
}

/** The test's state, share-locked so that no transition slips in before this transaction commits. */
async function lockedTestState(uow: UnitOfWork, testId: string): Promise<TestState> {
  const [row] = await uow.tx.$queryRaw<{ state: TestState }[]>`SELECT state::text AS state FROM tests WHERE id = ${testId}::uuid FOR SHARE`;
  if (!row) throw new NotFoundError('Test', testId);
  return row.state;
}

async function timeline(uow: UnitOfWork, testId: string, kind: string, details: Prisma.InputJsonValue) {
  await uow.tx.testEvent.create({ data: { testId, kind, actorId: uow.actor.userId, actorName: uow.actor.username, details } });
}

export interface StoredUpload {
  testId: string;
  team: Team;
  storageKey: string;
  fileName: string;
  contentType: string;
  sizeBytes: number;
  sha256Hash: string;
}

/** Records a file already in storage: the row, the timeline entry and the audit entry, in one transaction. */
export async function recordUpload(services: Services, principal: Principal, upload: StoredUpload) {
  return inTransaction(services, principal, async (uow) => {
    assertUploadState(upload.team, await lockedTestState(uow, upload.testId));
    const evidence = await uow.tx.evidence.create({
      data: { ...upload, sizeBytes: BigInt(upload.sizeBytes), uploadedById: principal.userId },
    });
    const facts = {
      evidence_id: evidence.id,
      file_name: upload.fileName,
      team: upload.team,
      sha256_hash: upload.sha256Hash,
      size_bytes: upload.sizeBytes,
    };
    await timeline(uow, upload.testId, 'evidence_added', facts);
    await uow.audit({
      action: 'upload_evidence',
      entityType: 'evidence',
      entityId: evidence.id,
      details: { test_id: upload.testId, ...facts },
    });
    uow.emit('evidence.changed', { evidenceId: evidence.id, testId: upload.testId, change: 'uploaded' });
    return evidence;
  });
}

/**
 * Deletes the row and then, still inside the transaction, the stored object: if the object cannot be
 * removed the row stays (and a retry converges); the object is never left behind without its row.
 */
export async function deleteEvidence(services: Services, principal: Principal, id: string, query: Query = {}) {
  assertId('Evidence', id);
  return inTransaction(services, principal, async (uow) => {
    const evidence = await uow.tx.evidence.findUnique({ where: { id } });
    if (!evidence) throw new NotFoundError('Evidence', id);
    // What the caller asked to see of it, read before it is gone.
    const answer = await uow.tx.evidence.findUniqueOrThrow({ ...query, where: { id } });
    assertMayDelete(principal, evidence, await lockedTestState(uow, evidence.testId));
    await uow.tx.evidence.delete({ where: { id } });
    const facts = { evidence_id: id, file_name: evidence.fileName, team: evidence.team, sha256_hash: evidence.sha256Hash };
    await timeline(uow, evidence.testId, 'evidence_deleted', facts);
    await uow.audit({
      action: 'delete_evidence',
      entityType: 'evidence',
      entityId: id,
      details: { test_id: evidence.testId, uploaded_by: evidence.uploadedById, ...facts },
    });
    uow.emit('evidence.changed', { evidenceId: id, testId: evidence.testId, change: 'deleted' });
    await services.storage.objects.delete(evidence.storageKey);
    return answer;
  });
}
