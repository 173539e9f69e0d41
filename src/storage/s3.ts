import { pipeline, type Readable } from 'node:stream';
import { Client } from 'minio';
import type { Logger } from '../logger.ts';
import { attachmentDisposition } from './content-disposition.ts';
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

/** Bytes buffered per multipart part (S3's minimum is 5 MiB); smaller files go up in one PUT. */
const PART_SIZE = 8 * 1024 * 1024;
/** The longest validity S3 accepts for a presigned URL. */
const MAX_PRESIGN_SECONDS = 7 * 24 * 3600;
const MISSING = new Set(['NoSuchKey', 'NotFound']);

export interface S3StorageOptions {
  endpoint: string;
  accessKey: string;
  secretKey: string;
  bucket: string;
  region: string;
  pathStyle: boolean;
  linkTtlMs: number;
}

/** Evidence in an S3-compatible bucket, written part by part so a file is never held in memory whole. */
export class S3Storage implements ObjectStorage {
  readonly driver = 's3';
  private readonly client: Client;
  private readonly bucket: string;
  private bucketReady: Promise<void> | null = null;

  constructor(
    private readonly options: S3StorageOptions,
    private readonly log: Logger,
  ) {
    const url = new URL(options.endpoint);
    const useSSL = url.protocol === 'https:';
    this.client = new Client({
      endPoint: url.hostname.replace(/^\[|\]$/g, ''),
      port: url.port ? Number(url.port) : useSSL ? 443 : 80,
      useSSL,
      accessKey: options.accessKey,
      secretKey: options.secretKey,
      region: options.region,
      pathStyle: options.pathStyle,
    });
    this.bucket = options.bucket;
  }

  /** Creates the bucket when it does not exist; a failure is retried by the next call. */
  ensureBucket(): Promise<void> {
    this.bucketReady ??= (async () => {
      if (await this.client.bucketExists(this.bucket)) return;
      try {
        await this.client.makeBucket(this.bucket, this.options.region);
        this.log.info({ bucket: this.bucket }, 'created the evidence bucket');
      } catch (error) {
        // Another process may have created it in the meantime.
        if (!(await this.client.bucketExists(this.bucket))) throw error;
      }
    })().catch((error) => {
      this.bucketReady = null;
      throw error;
    });
    return this.bucketReady;
  }

  async put(key: string, source: Readable, { contentType, maxBytes }: PutOptions): Promise<StoredObject> {
    assertValidKey(key);
    await this.ensureBucket();
    const measure = new Measure(maxBytes);
    const measured = pipeline(source, measure, () => undefined);
    let uploadId: string | null = null;
    const etags: { part: number; etag: string }[] = [];
    let pending: Buffer[] = [];
    let pendingBytes = 0;
    const uploadPending = async () => {
      uploadId ??= await this.client.initiateNewMultipartUpload(this.bucket, key, { 'Content-Type': contentType });
      const payload = Buffer.concat(pending, pendingBytes);
      pending = [];
      pendingBytes = 0;
      const part = etags.length + 1;
      const { etag } = await this.client.uploadPart(
        { bucketName: this.bucket, objectName: key, uploadID: uploadId, partNumber: part, headers: { 'Content-Length': payload.length } },
        payload,
      );
      etags.push({ part, etag });
    };
    try {
      for await (const chunk of measured as AsyncIterable<Buffer>) {
        pending.push(chunk);
        pendingBytes += chunk.length;
        if (pendingBytes >= PART_SIZE) await uploadPending();
      }
      if (uploadId === null) {
        const payload = Buffer.concat(pending, pendingBytes);
        await this.client.putObject(this.bucket, key, payload, payload.length, { 'Content-Type': contentType });
      } else {
        if (pendingBytes > 0) await uploadPending();
        await this.client.completeMultipartUpload(this.bucket, key, uploadId, etags);
      }
    } catch (error) {
      measure.destroy();
      if (uploadId !== null) await this.client.abortMultipartUpload(this.bucket, key, uploadId).catch(() => undefined);
      throw error;
    }
    return { size: measure.size, sha256: measure.sha256() };
  }

  async get(key: string) {
    assertValidKey(key);
    try {
      const { size } = await this.client.statObject(this.bucket, key);
      return { stream: await this.client.getObject(this.bucket, key), size };
    } catch (error) {
      if (MISSING.has((error as { code?: string }).code ?? '')) throw new ObjectMissingError(key);
      throw error;
    }
  }

  async delete(key: string): Promise<void> {
    assertValidKey(key);
    await this.client.removeObject(this.bucket, key);
  }

  async downloadUrl(target: DownloadTarget): Promise<DownloadLink> {
    assertValidKey(target.key);
    const seconds = Math.min(MAX_PRESIGN_SECONDS, Math.max(1, Math.round(this.options.linkTtlMs / 1000)));
    const url = await this.client.presignedGetObject(this.bucket, target.key, seconds, {
      'response-content-disposition': attachmentDisposition(target.fileName),
      'response-content-type': target.contentType,
    });
    return { url, expiresAt: new Date(Date.now() + seconds * 1000) };
  }

  async check(): Promise<void> {
    if (!(await this.client.bucketExists(this.bucket))) throw new Error(`Bucket ${this.bucket} does not exist`);
  }
}
