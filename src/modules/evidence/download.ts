import type { Response } from 'express';
import { pipeline, type Readable } from 'node:stream';
import type { Evidence } from '../../generated/prisma/client.ts';
import type { Logger } from '../../logger.ts';
import type { Services } from '../../services.ts';
import { attachmentDisposition } from '../../storage/content-disposition.ts';
import { Verify } from '../../storage/measure.ts';
import { IntegrityError, ObjectMissingError } from '../../storage/types.ts';

const FILE_HEADERS = [
  'Content-Type',
  'Content-Length',
  'Content-Disposition',
  'Content-Security-Policy',
  'Cache-Control',
  'X-Content-Type-Options',
  'X-Checksum-Sha256',
];

/**
 * Streams an evidence file as an attachment, checking it against the hash and size recorded at upload.
 * A mismatch found before the first byte answers 500 EVIDENCE_INTEGRITY; one found later aborts the
 * response before its last bytes, so no client ever holds a complete copy of altered bytes.
 */
export async function sendEvidenceFile(services: Services, log: Logger, res: Response, evidence: Evidence): Promise<void> {
  const expected = { sha256: evidence.sha256Hash, size: Number(evidence.sizeBytes) };
  const facts = { evidenceId: evidence.id, testId: evidence.testId, key: evidence.storageKey, expected };
  let object: { stream: Readable; size: number };
  try {
    object = await services.storage.objects.get(evidence.storageKey);
  } catch (error) {
    if (!(error instanceof ObjectMissingError)) throw error;
    log.error(facts, 'evidence file is missing from storage');
    throw new IntegrityError('The stored file is missing');
  }
  if (object.size !== expected.size) {
    object.stream.destroy();
    log.error({ ...facts, actual: { size: object.size } }, 'evidence file failed its integrity check');
    throw new IntegrityError('The stored file does not match the size recorded at upload');
  }

  res.status(200).set({
    'Content-Type': evidence.contentType,
    'Content-Length': String(expected.size),
    'Content-Disposition': attachmentDisposition(evidence.fileName),
    'Content-Security-Policy': "default-src 'none'; sandbox",
    'Cache-Control': 'private, no-store',
    'X-Content-Type-Options': 'nosniff',
    'X-Checksum-Sha256': Buffer.from(expected.sha256, 'hex').toString('base64'),
  });
  const verify = new Verify(expected, (actual) => log.error({ ...facts, actual }, 'evidence file failed its integrity check'));
  try {
    await new Promise<void>((resolve, reject) => {
      pipeline(object.stream, verify, (error) => error && reject(error));
      verify.pipe(res);
      res.once('finish', resolve);
      res.once('close', () => {
        if (res.writableFinished) return;
        object.stream.destroy();
        resolve();
      });
    });
  } catch (error) {
    verify.unpipe(res);
    if (res.headersSent) {
      res.destroy();
      return;
    }
    for (const header of FILE_HEADERS) res.removeHeader(header);
    throw error;
  }
}
