import busboy, { type FileInfo } from 'busboy';
import type { Request } from 'express';
import { PassThrough, type Readable } from 'node:stream';
import { DomainError, ValidationError } from '../../errors.ts';
import { ObjectTooLargeError } from '../../storage/types.ts';

export const FILE_FIELD = 'file';
const LIMITS = { files: 5, fields: 10, fieldSize: 1024, parts: 20, headerPairs: 100 };

export type FileHandler<T> = (fields: Record<string, string>, file: Readable, info: FileInfo) => Promise<T>;

/**
 * Streams the one part named `file` of a multipart request to `onFile`, with the form fields that came
 * before it. Resolves once the whole request has been read (so the answer never races the upload); when
 * anything fails after `onFile` succeeded, `discard` undoes its work.
 */
export function readFilePart<T>(req: Request, maxBytes: number, onFile: FileHandler<T>, discard: (result: T) => Promise<void>): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    let parser: busboy.Busboy;
    try {
      parser = busboy({ headers: req.headers, defParamCharset: 'utf8', limits: { ...LIMITS, fileSize: maxBytes + 1 } });
    } catch (error) {
      reject(new ValidationError(null, `Malformed multipart request: ${(error as Error).message}`));
      return;
    }
    const fields: Record<string, string> = {};
    let task: Promise<T> | null = null;
    let extraFile = false;
    let settled = false;

    parser.on('field', (name, value) => {
      fields[name] = value;
    });
    parser.on('file', (name, file, info) => {
      if (name !== FILE_FIELD || task) {
        extraFile ||= name === FILE_FIELD;
        file.resume();
        return;
      }
      const stream = detached(file, maxBytes);
      task = onFile({ ...fields }, stream, info).catch((error) => {
        stream.destroy();
        throw error;
      });
      task.catch(() => undefined);
    });
    parser.on('error', (error: Error) => {
      parser.destroy();
      void finish(new ValidationError(null, `Malformed multipart request: ${error.message}`));
    });
    parser.on('close', () => void finish(null));
    req.once('close', () => {
      if (!req.complete) parser.destroy(new Error('the request was interrupted'));
    });
    req.pipe(parser);

    async function finish(failure: DomainError | null) {
      if (settled) return;
      settled = true;
      req.unpipe(parser);
      req.resume();
      if (!task) return reject(failure ?? new ValidationError(FILE_FIELD, 'a file part named file is required'));
      const outcome = await task.then(
        (value) => ({ value }),
        (error: unknown) => ({ error }),
      );
      // A broken request also breaks the file stream: report the request's problem, not the stream's.
      if ('error' in outcome) return reject(outcome.error instanceof DomainError || !failure ? outcome.error : failure);
      const problem = failure ?? (extraFile ? new ValidationError(FILE_FIELD, 'send one file per request') : null);
      if (!problem) return resolve(outcome.value);
      await discard(outcome.value).catch(() => undefined);
      reject(problem);
    }
  });
}

/**
 * A stream of the part's bytes that its consumer may destroy without stalling the parser: once it closes,
 * the rest of the part is read and dropped. Passing the size limit fails it with 413.
 */
function detached(file: Readable, maxBytes: number): PassThrough {
  const stream = new PassThrough();
  // The consumer may attach only after an await; it still sees the error through `errored`.
  stream.on('error', () => undefined);
  file.on('limit', () => stream.destroy(new ObjectTooLargeError(maxBytes)));
  file.on('error', (error) => stream.destroy(error));
  stream.on('close', () => {
    file.unpipe(stream);
    file.resume();
  });
  file.pipe(stream);
  return stream;
}
