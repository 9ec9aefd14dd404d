import { randomUUID } from 'node:crypto';
import type { Database } from '@platform/db';
import { AppError, notFound } from '@platform/errors';
import { fileTypeFromBuffer } from 'file-type';
import type { ObjectStorage } from '../../../storage/object-storage.js';
import { userExists } from '../index.js';
import { insertAvatarUpload } from './repository.js';

/** Image formats accepted as avatars, recognised by their content (never by file name or declared type). */
const AVATAR_FORMATS: Readonly<Record<string, { extension: string }>> = {
  'image/png': { extension: 'png' },
  'image/jpeg': { extension: 'jpg' },
  'image/webp': { extension: 'webp' },
};

interface DetectedImage {
  contentType: string;
  extension: string;
}

/** The avatar format of `bytes`, or null when they are not a PNG, JPEG or WebP image. */
async function detectAvatarFormat(bytes: Buffer): Promise<DetectedImage | null> {
  const detected = await fileTypeFromBuffer(bytes);
  const format = detected === undefined ? undefined : AVATAR_FORMATS[detected.mime];
  return detected === undefined || format === undefined
    ? null
    : { contentType: detected.mime, extension: format.extension };
}

const AVATAR_KEY =
  /^avatars\/[A-Za-z0-9_-]{1,64}\/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\.(png|jpg|webp)$/;

/** True for keys of the shape avatarKey() produces; anything else is never looked up. */
export function isAvatarKey(key: string): boolean {
  return AVATAR_KEY.test(key);
}

/**
 * `avatars/<user>/<uuid>.<ext>`. The user segment is the user id with every character outside
 * [A-Za-z0-9_-] replaced, so no token subject can shape the path; the UUID alone makes the key unique.
 */
function avatarKey(userId: string, extension: string): string {
  const userSegment = userId.replace(/[^A-Za-z0-9_-]/g, '_').slice(0, 64);
  return `avatars/${userSegment}/${randomUUID()}.${extension}`;
}

/** avatar_uploads rows belong to a user record: a 404 for a user without one, before the file is received. */
export async function assertCanUploadAvatar(db: Database, userId: string): Promise<void> {
  if (!(await userExists(db, userId))) throw notFound('Profile not found');
}

/**
 * Stores the image (a 415 unless its bytes are a PNG, JPEG or WebP image) and records it as issued to the user, so
 * the profile may point at its URL (docs/decisions.md#avatar-uploads).
 */
export async function storeAvatar(
  db: Database,
  storage: ObjectStorage,
  upload: { userId: string; bytes: Buffer },
): Promise<{ url: string }> {
  const image = await detectAvatarFormat(upload.bytes);
  if (image === null) throw new AppError('unsupported_media_type', 'The avatar must be a PNG, JPEG or WebP image');
  const key = avatarKey(upload.userId, image.extension);
  const { url } = await storage.put({ key, body: upload.bytes, contentType: image.contentType });
  await insertAvatarUpload(db, {
    userId: upload.userId,
    storageKey: key,
    url,
    contentType: image.contentType,
    sizeBytes: upload.bytes.length,
  });
  return { url };
}
