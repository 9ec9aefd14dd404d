import { randomUUID } from 'node:crypto';
import { lstat, mkdir, open, readFile, rename, rm } from 'node:fs/promises';
import path from 'node:path';
import {
  assertSafeObjectKey,
  assertSafeObjectPrefix,
  isSafeObjectKey,
  type PrivateObjectStore,
} from './object-store.js';

export interface LocalFolderObjectStoreOptions {
  /** Folder the objects are written under (created when missing, mode 0700). Never served by any route. */
  directory: string;
}

/** Suffix of the temporary files a write goes through; a crash may leave one, which is never read. */
const TEMPORARY_SUFFIX = '.partial';

/**
 * Keeps objects as files in a local folder (the embedded default). Files are written with mode 0600 (folders
 * 0700), through a temporary file that is flushed and then renamed, so a reader sees either the whole old object or
 * the whole new one, never half a file.
 */
export function createLocalFolderObjectStore(options: LocalFolderObjectStoreOptions): PrivateObjectStore {
  const root = path.resolve(options.directory);

  function pathOf(key: string): string {
    const filePath = path.resolve(root, key);
    // Belt and braces: the key check already rules out escaping the folder.
    if (!filePath.startsWith(root + path.sep)) throw new Error(`Refusing an unsafe object key: ${JSON.stringify(key)}`);
    return filePath;
  }

  return {
    async put(key, bytes) {
      assertSafeObjectKey(key);
      const filePath = pathOf(key);
      await mkdir(path.dirname(filePath), { recursive: true, mode: 0o700 });
      const temporaryPath = `${filePath}.${randomUUID()}${TEMPORARY_SUFFIX}`;
      try {
        const file = await open(temporaryPath, 'wx', 0o600);
        try {
          await file.writeFile(bytes);
          await file.datasync();
        } finally {
          await file.close();
        }
        await rename(temporaryPath, filePath);
      } catch (error) {
        await rm(temporaryPath, { force: true });
        throw error;
      }
    },

    async get(key) {
      if (!isSafeObjectKey(key)) return null;
      try {
        return await readFile(pathOf(key));
      } catch (error) {
        const code = (error as NodeJS.ErrnoException).code;
        if (code === 'ENOENT' || code === 'EISDIR' || code === 'ENOTDIR') return null;
        throw error;
      }
    },

    async delete(key) {
      assertSafeObjectKey(key);
      try {
        await rm(pathOf(key));
      } catch (error) {
        const code = (error as NodeJS.ErrnoException).code;
        // A missing object, or a key that names a folder of other objects: no object to remove.
        if (code === 'ENOENT' || code === 'ENOTDIR' || code === 'ERR_FS_EISDIR') return;
        throw error;
      }
    },

    async deletePrefix(prefix) {
      assertSafeObjectPrefix(prefix);
      const folder = pathOf(prefix.slice(0, -1));
      // The object `a/b` is not under the prefix `a/b/`: only a folder is removed.
      const stats = await lstat(folder).catch((error: NodeJS.ErrnoException) => {
        if (error.code === 'ENOENT' || error.code === 'ENOTDIR') return null;
        throw error;
      });
      if (stats === null || !stats.isDirectory()) return;
      // Removing the folder removes every object under it, and any temporary file a crash left there.
      await rm(folder, { recursive: true, force: true });
    },
  };
}
