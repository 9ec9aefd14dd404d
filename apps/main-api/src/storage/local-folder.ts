import { randomUUID } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdir, rename, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { contentTypeOfKey, isSafeObjectKey, type ObjectStorage, type StoredObject } from './object-storage.js';

export interface LocalFolderStorageOptions {
  /** Folder the files are written under. Created when missing. */
  directory: string;
  /** Base URL of this service; files are served at `<publicUrl>/v1/files/<key>`. */
  publicUrl: string;
}

/** Path prefix under which this service serves files of a local-folder storage. */
export const LOCAL_FILES_ROUTE_PREFIX = '/v1/files/';

/** Keeps files in a local folder, served by this service (the embedded default). */
export function createLocalFolderStorage(options: LocalFolderStorageOptions): ObjectStorage {
  const root = path.resolve(options.directory);
  const filesUrl = options.publicUrl.replace(/\/+$/, '') + LOCAL_FILES_ROUTE_PREFIX;

  function pathOf(key: string): string | null {
    if (!isSafeObjectKey(key)) return null;
    const filePath = path.resolve(root, key);
    // Belt and braces: the key check already rules out escaping the folder.
    return filePath.startsWith(root + path.sep) ? filePath : null;
  }

  return {
    async put({ key, body }) {
      const filePath = pathOf(key);
      if (filePath === null) throw new Error(`Refusing to store an object under an unsafe key: ${key}`);
      await mkdir(path.dirname(filePath), { recursive: true });
      // Write then rename, so a reader never sees a half-written file.
      const temporaryPath = `${filePath}.${randomUUID()}.partial`;
      await writeFile(temporaryPath, body);
      await rename(temporaryPath, filePath);
      return { url: filesUrl + key };
    },

    async read(key): Promise<StoredObject | null> {
      const filePath = pathOf(key);
      if (filePath === null) return null;
      try {
        const stats = await stat(filePath);
        if (!stats.isFile()) return null;
        return { body: createReadStream(filePath), contentType: contentTypeOfKey(key), sizeBytes: stats.size };
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
        throw error;
      }
    },
  };
}
