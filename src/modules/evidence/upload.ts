import type { Request } from 'express';
import type { Principal } from '../../auth/access.ts';
import { NotFoundError, ValidationError } from '../../errors.ts';
import { Team } from '../../generated/prisma/enums.ts';
import type { Services } from '../../services.ts';
import { ObjectTooLargeError } from '../../storage/types.ts';
import { safeContentType, safeFileName } from './file-name.ts';
import { readFilePart } from './multipart.ts';
import { assertMayUploadAs, assertUploadState } from './permissions.ts';
import { assertId, newStorageKey, recordUpload, type StoredUpload } from './service.ts';

/** Room for multipart framing when Content-Length is compared with the size limit before reading. */
const FRAMING_ALLOWANCE = 64 * 1024;

function parseTeam(value: unknown, where: string): Team | undefined {
  if (value === undefined || value === '') return undefined;
  if (value === Team.red || value === Team.blue) return value;
  throw new ValidationError('team', `must be red or blue (${where})`);
}

/** The team from the query string or a form field sent before the file; when both are given they must agree. */
function teamOf(fromQuery: Team | undefined, fromForm: unknown): Team {
  const form = parseTeam(fromForm, 'form field');
  if (fromQuery && form && fromQuery !== form) throw new ValidationError('team', 'the query parameter and the form field disagree');
  const team = form ?? fromQuery;
  if (!team) throw new ValidationError('team', 'required: red or blue, as a query parameter or a form field before the file part');
  return team;
}

/**
 * Streams the request's file part into storage (hashing it on the way) and records it. The team's role
 * and the test's state are checked before a byte is stored; anything stored is removed if recording fails.
 */
export async function receiveUpload(services: Services, principal: Principal, testId: string, req: Request) {
  assertId('Test', testId);
  const test = await services.prisma.test.findUnique({ where: { id: testId }, select: { state: true } });
  if (!test) throw new NotFoundError('Test', testId);
  if (!req.is('multipart/form-data')) throw new ValidationError('file', 'send multipart/form-data with the file in a part named file');
  const maxBytes = services.config.EVIDENCE_MAX_SIZE;
  if (Number(req.headers['content-length']) > maxBytes + FRAMING_ALLOWANCE) throw new ObjectTooLargeError(maxBytes);
  const fromQuery = parseTeam(req.query.team, 'query parameter');
  if (fromQuery) {
    // Refuse before reading the body when the query already names the team.
    assertMayUploadAs(principal, fromQuery);
    assertUploadState(fromQuery, test.state);
  }
  const objects = services.storage.objects;

  const upload = await readFilePart<StoredUpload>(
    req,
    maxBytes,
    async (fields, file, info) => {
      const team = teamOf(fromQuery, fields.team);
      assertMayUploadAs(principal, team);
      assertUploadState(team, test.state);
      const storageKey = newStorageKey(testId);
      const contentType = safeContentType(info.mimeType);
      const stored = await objects.put(storageKey, file, { contentType, maxBytes });
      return {
        testId,
        team,
        storageKey,
        fileName: safeFileName(info.filename),
        contentType,
        sizeBytes: stored.size,
        sha256Hash: stored.sha256,
      };
    },
    (stored) => objects.delete(stored.storageKey),
  );
  try {
    return await recordUpload(services, principal, upload);
  } catch (error) {
    await objects
      .delete(upload.storageKey)
      .catch((cleanup) => services.log.error({ err: cleanup, key: upload.storageKey }, 'could not remove an unrecorded evidence object'));
    throw error;
  }
}
