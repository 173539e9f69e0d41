import { randomUUID } from 'node:crypto';
import { constants, createReadStream, createWriteStream } from 'node:fs';
import { access, mkdir, open, rename, rm, stat } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { LinkSigner } from './links.ts';
import { Measure } from './measure.ts';
import {
  assertValidKey,
  ObjectMissingError,
  type DownloadLink,
  type DownloadTarget,
  type ObjectStorage,
  type PutOptions,
  type StoredObject,
} from './types.ts';

const TEMP_DIR = '.incoming';

export interface DiskStorageOptions {
  /** DATA_DIR/evidence. */
  root: string;
  signer: LinkSigner;
  /** Base address of the API as clients reach it, without a trailing slash. */
  publicUrl: string;
  linkTtlMs: number;
}

/** Evidence in a directory: written to a temporary file, synced, then renamed into place. */
export class DiskStorage implements ObjectStorage {
  readonly driver = 'disk';
  private readonly root: string;

  constructor(private readonly options: DiskStorageOptions) {
    this.root = resolve(options.root);
  }

  private pathOf(key: string): string {
    assertValidKey(key);
    return join(this.root, key);
  }

  async put(key: string, source: Readable, { maxBytes }: PutOptions): Promise<StoredObject> {
    const target = this.pathOf(key);
    const temp = join(this.root, TEMP_DIR, randomUUID());
    await mkdir(dirname(temp), { recursive: true });
    const measure = new Measure(maxBytes);
    try {
      await pipeline(source, measure, createWriteStream(temp, { flags: 'wx', mode: 0o600 }));
      const handle = await open(temp, 'r');
      await handle.datasync().finally(() => handle.close());
      await mkdir(dirname(target), { recursive: true });
      await rename(temp, target);
    } catch (error) {
      await rm(temp, { force: true });
      throw error;
    }
    return { size: measure.size, sha256: measure.sha256() };
  }

  async get(key: string) {
    const path = this.pathOf(key);
    try {
      const { size } = await stat(path);
      return { stream: createReadStream(path) as Readable, size };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') throw new ObjectMissingError(key);
      throw error;
    }
  }

  async delete(key: string): Promise<void> {
    await rm(this.pathOf(key), { force: true });
  }

  async downloadUrl(target: DownloadTarget): Promise<DownloadLink> {
    const expiresAt = new Date(Math.ceil((Date.now() + this.options.linkTtlMs) / 1000) * 1000);
    const expires = expiresAt.getTime() / 1000;
    const signature = this.options.signer.sign(target.evidenceId, expires);
    const url = `${this.options.publicUrl}/api/v1/evidence/${target.evidenceId}/file?expires=${expires}&signature=${signature}`;
    return { url, expiresAt };
  }

  async check(): Promise<void> {
    await mkdir(this.root, { recursive: true });
    await access(this.root, constants.W_OK);
  }
}
