import { randomUUID } from 'node:crypto';
import type { Database } from '@platform/db';
import { type CheckedImageFile, checkImageFile, DocumentFileRefusal } from '@platform/document-checks';
import { AppError, notFound } from '@platform/errors';
import type { ObjectStorage } from '../../../storage/object-storage.js';
import { userExists } from '../index.js';
import { insertAvatarUpload } from './repository.js';

/**
 * The image rules of an avatar (docs/decisions.md#avatar-uploads): a JPEG, PNG or WebP image of any size from 1 px up to
 * 25 megapixels (5000 x 5000; a phone's photo is 12), read from its header before it is decoded; no polyglot;
 * re-encoded in its own format without metadata. The byte limit is AVATAR_MAX_BYTES.
 */
export const AVATAR_MAX_PIXELS = 25_000_000;

/** The cleaned copy of the image `bytes`, or the refusal as the error envelope says it (415, 413 or 400 on /file). */
async function cleanAvatar(bytes: Buffer, maxBytes: number): Promise<CheckedImageFile> {
  try {
    return await checkImageFile(bytes, { maxBytes, minImageShortSide: 1, maxImagePixels: AVATAR_MAX_PIXELS });
  } catch (error) {
    if (!(error instanceof DocumentFileRefusal)) throw error;
    if (error.status === 415) {
      throw new AppError('unsupported_media_type', 'The avatar must be a PNG, JPEG or WebP image', { cause: error });
    }
    if (error.status === 413) throw new AppError('payload_too_large', error.message, { cause: error });
    throw new AppError('validation_error', error.message, {
      details: [{ path: '/file', message: error.message }],
      cause: error,
    });
  }
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
 * Stores a cleaned copy of the image (refused unless its bytes are an acceptable image: `cleanAvatar`) and records it
 * as issued to the user, so the profile may point at its URL (docs/decisions.md#avatar-uploads). Nothing is stored for
 * a refused image.
 */
export async function storeAvatar(
  db: Database,
  storage: ObjectStorage,
  upload: { userId: string; bytes: Buffer; maxBytes: number },
): Promise<{ url: string }> {
  const image = await cleanAvatar(upload.bytes, upload.maxBytes);
  const key = avatarKey(upload.userId, image.extension);
  const { url } = await storage.put({ key, body: image.bytes, contentType: image.contentType });
  await insertAvatarUpload(db, {
    userId: upload.userId,
    storageKey: key,
    url,
    contentType: image.contentType,
    sizeBytes: image.size,
  });
  return { url };
}
