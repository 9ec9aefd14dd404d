import { PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import type { S3StorageConfig } from '../config.js';
import { isSafeObjectKey, type ObjectStorage } from './object-storage.js';

/**
 * Keeps files in an S3-compatible bucket; clients fetch them from `S3_PUBLIC_URL` (a CDN or the bucket's
 * public address), never through this service.
 */
export function createS3Storage(config: S3StorageConfig): ObjectStorage {
  const client = new S3Client({
    region: config.region,
    ...(config.endpoint === undefined ? {} : { endpoint: config.endpoint, forcePathStyle: true }),
    ...(config.accessKeyId === undefined || config.secretAccessKey === undefined
      ? {}
      : { credentials: { accessKeyId: config.accessKeyId, secretAccessKey: config.secretAccessKey } }),
  });
  const publicUrl = config.publicUrl.replace(/\/+$/, '');

  return {
    async put({ key, body, contentType }) {
      if (!isSafeObjectKey(key)) throw new Error(`Refusing to store an object under an unsafe key: ${key}`);
      await client.send(
        new PutObjectCommand({
          Bucket: config.bucket,
          Key: key,
          Body: body,
          ContentType: contentType,
          ContentLength: body.length,
          // Keys are never reused (each upload gets a new UUID), so caches may keep them forever.
          CacheControl: 'public, max-age=31536000, immutable',
        }),
      );
      return { url: `${publicUrl}/${key}` };
    },
  };
}
