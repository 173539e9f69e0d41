import { createHash } from 'node:crypto';
import { Transform, type TransformCallback } from 'node:stream';
import { IntegrityError, ObjectTooLargeError } from './types.ts';

/** Passes bytes through while counting them and computing their SHA-256; fails past `maxBytes`. */
export class Measure extends Transform {
  size = 0;
  private readonly hash = createHash('sha256');

  constructor(private readonly maxBytes = Number.POSITIVE_INFINITY) {
    super();
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    this.size += chunk.length;
    if (this.size > this.maxBytes) {
      callback(new ObjectTooLargeError(this.maxBytes));
      return;
    }
    this.hash.update(chunk);
    callback(null, chunk);
  }

  /** The hex digest; call once, after the stream has ended. */
  sha256(): string {
    return this.hash.digest('hex');
  }
}

/**
 * Passes stored bytes through and checks them against the recorded hash and size. The last chunk is held
 * back until the check passes, so a reader never receives a complete copy of bytes that fail it.
 */
export class Verify extends Transform {
  private readonly hash = createHash('sha256');
  private size = 0;
  private held: Buffer | null = null;

  constructor(
    private readonly expected: { sha256: string; size: number },
    private readonly onMismatch: (actual: { sha256: string; size: number }) => void,
  ) {
    super();
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    this.hash.update(chunk);
    this.size += chunk.length;
    const previous = this.held;
    this.held = chunk;
    if (previous) this.push(previous);
    callback();
  }

  override _flush(callback: TransformCallback): void {
    const actual = { sha256: this.hash.digest('hex'), size: this.size };
    if (actual.sha256 !== this.expected.sha256 || actual.size !== this.expected.size) {
      this.onMismatch(actual);
      callback(new IntegrityError('The stored file does not match the hash recorded at upload'));
      return;
    }
    if (this.held) this.push(this.held);
    callback();
  }
}
