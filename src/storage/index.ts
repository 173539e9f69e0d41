import { join } from 'node:path';
import type { Config } from '../config.ts';
import type { Logger } from '../logger.ts';
import { DiskStorage } from './disk.ts';
import { LinkSigner } from './links.ts';
import type { ObjectStorage } from './types.ts';

export type { ObjectStorage, StorageDriver } from './types.ts';

/** Where the API answers, as clients reach it: PUBLIC_URL, else the listening address. */
export function publicBaseUrl(config: Pick<Config, 'PUBLIC_URL' | 'HOST' | 'PORT'>): string {
  if (config.PUBLIC_URL) return config.PUBLIC_URL.replace(/\/+$/, '');
  const host = ['0.0.0.0', '::', ''].includes(config.HOST) ? 'localhost' : config.HOST.includes(':') ? `[${config.HOST}]` : config.HOST;
  return `http://${host}:${config.PORT}`;
}

export interface Storage {
  objects: ObjectStorage;
  /** Signs and checks the links the service answers itself (disk driver). */
  links: LinkSigner;
}

/** S3-compatible storage when S3_ENDPOINT is set (its bucket created when missing), DATA_DIR/evidence otherwise. */
export async function createStorage(config: Config, log: Logger): Promise<Storage> {
  const links = await LinkSigner.create(config.JWT_SECRET, config.DATA_DIR);
  if (!config.S3_ENDPOINT) {
    const objects = new DiskStorage({
      root: join(config.DATA_DIR, 'evidence'),
      signer: links,
      publicUrl: publicBaseUrl(config),
      linkTtlMs: config.DOWNLOAD_URL_TTL,
    });
    return { objects, links };
  }
  if (!config.S3_ACCESS_KEY || !config.S3_SECRET_KEY)
    throw new Error('S3_ACCESS_KEY and S3_SECRET_KEY are required when S3_ENDPOINT is set');
  // Loaded only when configured: the S3 client adds to start-up time of the embedded mode.
  const { S3Storage } = await import('./s3.ts');
  const objects = new S3Storage(
    {
      endpoint: config.S3_ENDPOINT,
      accessKey: config.S3_ACCESS_KEY,
      secretKey: config.S3_SECRET_KEY,
      bucket: config.S3_BUCKET,
      region: config.S3_REGION,
      pathStyle: config.S3_PATH_STYLE,
      linkTtlMs: config.DOWNLOAD_URL_TTL,
    },
    log,
  );
  // Unreachable storage must not stop the API: the health check reports it and uploads retry the bucket.
  await objects.ensureBucket().catch((error) => log.error({ err: error, bucket: config.S3_BUCKET }, 'evidence bucket is not available'));
  return { objects, links };
}
