import type { AvatarStorageConfig } from '../config.js';
import { createLocalFolderStorage } from './local-folder.js';
import type { ObjectStorage } from './object-storage.js';
import { createS3Storage } from './s3.js';

/** The avatar storage adapter that config selects (AVATAR_STORAGE). */
export function createAvatarStorage(storage: AvatarStorageConfig, publicUrl: string): ObjectStorage {
  if (storage.kind === 's3') {
    const { kind: _kind, ...s3 } = storage;
    return createS3Storage(s3);
  }
  return createLocalFolderStorage({ directory: storage.directory, publicUrl });
}
