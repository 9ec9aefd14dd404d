import type { DatabaseExecutor } from '@platform/db';
import { avatarUploads } from '@platform/db/schema/avatar-uploads';

/** Records a stored image as issued to the user, so the profile may point at its URL. */
export async function insertAvatarUpload(
  db: DatabaseExecutor,
  upload: { userId: string; storageKey: string; url: string; contentType: string; sizeBytes: number },
): Promise<void> {
  await db.insert(avatarUploads).values(upload);
}
