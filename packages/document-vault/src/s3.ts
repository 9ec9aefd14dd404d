import {
  DeleteObjectCommand,
  GetObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
  S3ServiceException,
} from '@aws-sdk/client-s3';
import {
  assertSafeObjectKey,
  assertSafeObjectPrefix,
  isSafeObjectKey,
  type PrivateObjectStore,
} from './object-store.js';

export interface S3ObjectStoreOptions {
  /** A private bucket of its own: never a bucket with a public address (such as the avatars'). */
  bucket: string;
  region: string;
  /** An S3-compatible endpoint (MinIO, R2, ...); addressed path-style. AWS itself when absent. */
  endpoint?: string;
  /** Both or neither; without them the SDK's default credential chain applies. */
  accessKeyId?: string;
  secretAccessKey?: string;
}

/**
 * Keeps objects in an S3-compatible bucket. Objects are only ever read back through this adapter, with the
 * service's credentials: no public URL, no presigned link.
 */
export function createS3ObjectStore(options: S3ObjectStoreOptions): PrivateObjectStore {
  const client = new S3Client({
    region: options.region,
    ...(options.endpoint === undefined ? {} : { endpoint: options.endpoint, forcePathStyle: true }),
    ...(options.accessKeyId === undefined || options.secretAccessKey === undefined
      ? {}
      : { credentials: { accessKeyId: options.accessKeyId, secretAccessKey: options.secretAccessKey } }),
  });
  const Bucket = options.bucket;

  return {
    async put(key, bytes, contentType) {
      assertSafeObjectKey(key);
      await client.send(
        new PutObjectCommand({
          Bucket,
          Key: key,
          Body: bytes,
          ContentType: contentType,
          ContentLength: bytes.byteLength,
          CacheControl: 'private, no-store',
        }),
      );
    },

    async get(key) {
      if (!isSafeObjectKey(key)) return null;
      try {
        const answer = await client.send(new GetObjectCommand({ Bucket, Key: key }));
        if (answer.Body === undefined) return Buffer.alloc(0);
        return Buffer.from(await answer.Body.transformToByteArray());
      } catch (error) {
        if (error instanceof S3ServiceException && error.$metadata.httpStatusCode === 404) return null;
        throw error;
      }
    },

    async delete(key) {
      assertSafeObjectKey(key);
      // S3 answers 204 for a missing key too, so deleting twice succeeds.
      await client.send(new DeleteObjectCommand({ Bucket, Key: key }));
    },

    async deletePrefix(prefix) {
      assertSafeObjectPrefix(prefix);
      // Every page is listed first, then each object deleted: deleting while paging could shift the pages.
      const keys: string[] = [];
      let ContinuationToken: string | undefined;
      do {
        const page = await client.send(new ListObjectsV2Command({ Bucket, Prefix: prefix, ContinuationToken }));
        for (const object of page.Contents ?? []) {
          if (object.Key?.startsWith(prefix)) keys.push(object.Key);
        }
        ContinuationToken = page.IsTruncated ? page.NextContinuationToken : undefined;
      } while (ContinuationToken !== undefined);
      // One DeleteObject per object rather than DeleteObjects: every S3-compatible store has it, and a prefix
      // holds a session's few files.
      for (const Key of keys) await client.send(new DeleteObjectCommand({ Bucket, Key }));
    },
  };
}
