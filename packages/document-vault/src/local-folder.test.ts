import { mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createLocalFolderObjectStore } from './local-folder.js';

let root: string;
let directory: string;

beforeEach(async () => {
  root = await mkdtemp(path.join(tmpdir(), 'document-vault-'));
  directory = path.join(root, 'store');
  await writeFile(path.join(root, 'outside.txt'), 'keep me');
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

async function filesUnder(folder: string): Promise<string[]> {
  const entries = await readdir(folder, { recursive: true, withFileTypes: true });
  return entries
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(folder, path.join(entry.parentPath, entry.name)))
    .sort();
}

describe('local folder object store', () => {
  it('writes the bytes under the folder, readable by the owner only, and reads them back', async () => {
    const store = createLocalFolderObjectStore({ directory });
    await store.put('kyc/s1/front', Buffer.from('sealed'), 'application/octet-stream');

    const filePath = path.join(directory, 'kyc/s1/front');
    expect(await readFile(filePath, 'utf8')).toBe('sealed');
    expect((await stat(filePath)).mode & 0o777).toBe(0o600);
    expect((await stat(path.join(directory, 'kyc/s1'))).mode & 0o077).toBe(0);
    expect((await store.get('kyc/s1/front'))?.toString()).toBe('sealed');
    // No temporary file is left beside it.
    expect(await filesUnder(directory)).toEqual(['kyc/s1/front']);
  });

  it('replaces an object stored under the same key', async () => {
    const store = createLocalFolderObjectStore({ directory });
    await store.put('kyc/s1/front', Buffer.from('first'), 'application/octet-stream');
    await store.put('kyc/s1/front', Buffer.from('second'), 'application/octet-stream');
    expect((await store.get('kyc/s1/front'))?.toString()).toBe('second');
    expect(await filesUnder(directory)).toEqual(['kyc/s1/front']);
  });

  it('answers null for a missing object, and for a key that names a folder', async () => {
    const store = createLocalFolderObjectStore({ directory });
    expect(await store.get('kyc/s1/missing')).toBeNull();
    await store.put('kyc/s1/front', Buffer.from('x'), 'application/octet-stream');
    expect(await store.get('kyc/s1')).toBeNull();
    expect(await store.get('kyc/s1/front/deeper')).toBeNull();
  });

  it.each([
    '../outside.txt',
    'kyc/../../outside.txt',
    '/etc/passwd',
    'kyc\\..\\..\\outside.txt',
    'a//b',
    '',
    '.',
    'a/./b',
  ])('refuses the unsafe key %j', async (key) => {
    const store = createLocalFolderObjectStore({ directory });
    await expect(store.put(key, Buffer.from('overwritten'), 'application/octet-stream')).rejects.toThrow(/unsafe/);
    await expect(store.delete(key)).rejects.toThrow(/unsafe/);
    expect(await store.get(key)).toBeNull();
    expect(await readFile(path.join(root, 'outside.txt'), 'utf8')).toBe('keep me');
  });

  it('deletes an object, and deleting it again (or a folder key) succeeds', async () => {
    const store = createLocalFolderObjectStore({ directory });
    await store.put('kyc/s1/front', Buffer.from('x'), 'application/octet-stream');
    await store.put('kyc/s1/back', Buffer.from('y'), 'application/octet-stream');
    await store.delete('kyc/s1/front');
    await store.delete('kyc/s1/front');
    await store.delete('kyc/s1');
    await store.delete('never/stored');
    expect(await filesUnder(directory)).toEqual(['kyc/s1/back']);
  });

  it('deletes every object under a prefix and nothing else', async () => {
    const store = createLocalFolderObjectStore({ directory });
    for (const key of ['kyc/a1/front', 'kyc/a1/extra/one', 'kyc/a10/front', 'kyc/a1.bak', 'kyb/a1/cr12']) {
      await store.put(key, Buffer.from(key), 'application/octet-stream');
    }
    // A leftover temporary file under the prefix goes too.
    await writeFile(path.join(directory, 'kyc/a1/front.0000.partial'), 'half');

    await store.deletePrefix('kyc/a1/');
    await store.deletePrefix('kyc/a1/');
    await store.deletePrefix('never/stored/');

    expect(await filesUnder(directory)).toEqual(['kyb/a1/cr12', 'kyc/a1.bak', 'kyc/a10/front']);
  });

  it('does not delete an object whose key is the prefix without its slash', async () => {
    const store = createLocalFolderObjectStore({ directory });
    await store.put('kyc/a1', Buffer.from('an object, not a folder'), 'application/octet-stream');
    await store.deletePrefix('kyc/a1/');
    expect(await filesUnder(directory)).toEqual(['kyc/a1']);
  });

  it.each(['', '/', 'kyc', '../', 'kyc/../', '/etc/'])('refuses the unsafe prefix %j', async (prefix) => {
    const store = createLocalFolderObjectStore({ directory });
    await store.put('kyc/a1/front', Buffer.from('x'), 'application/octet-stream');
    await expect(store.deletePrefix(prefix)).rejects.toThrow(/unsafe/);
    expect(await filesUnder(directory)).toEqual(['kyc/a1/front']);
    expect(await readFile(path.join(root, 'outside.txt'), 'utf8')).toBe('keep me');
  });
});
