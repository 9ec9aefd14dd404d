import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { text } from 'node:stream/consumers';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createLocalFolderStorage } from './local-folder.js';

let root: string;
let directory: string;

beforeEach(async () => {
  root = await mkdtemp(path.join(tmpdir(), 'local-folder-'));
  directory = path.join(root, 'store');
  await writeFile(path.join(root, 'outside.txt'), 'secret');
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

describe('local folder storage', () => {
  it('writes the object under the folder and reads it back with its content type', async () => {
    const storage = createLocalFolderStorage({ directory, publicUrl: 'http://localhost:3000/' });
    const key = 'avatars/u1/0f8e2b7a-4c1d-4e9f-8a3b-2c6d5e7f9a10.webp';

    const { url } = await storage.put({ key, body: Buffer.from('image bytes'), contentType: 'image/webp' });

    expect(url).toBe(`http://localhost:3000/v1/files/${key}`);
    expect(await readFile(path.join(directory, key), 'utf8')).toBe('image bytes');
    const stored = await storage.read?.(key);
    expect(stored?.contentType).toBe('image/webp');
    expect(stored?.sizeBytes).toBe(11);
    expect(await text(stored!.body)).toBe('image bytes');
  });

  it('returns null for a missing object', async () => {
    const storage = createLocalFolderStorage({ directory, publicUrl: 'http://localhost:3000' });
    expect(await storage.read?.('avatars/u1/missing.png')).toBeNull();
  });

  it.each(['../outside.txt', 'avatars/../../outside.txt', '/etc/passwd', 'avatars\\..\\..\\outside.txt', 'a//b', ''])(
    'never reads or writes outside the folder: %j',
    async (key) => {
      const storage = createLocalFolderStorage({ directory, publicUrl: 'http://localhost:3000' });
      expect(await storage.read?.(key)).toBeNull();
      await expect(storage.put({ key, body: Buffer.from('x'), contentType: 'text/plain' })).rejects.toThrow(
        /unsafe key/,
      );
      expect(await readFile(path.join(root, 'outside.txt'), 'utf8')).toBe('secret');
    },
  );
});
