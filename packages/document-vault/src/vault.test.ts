import { createHash, randomBytes } from 'node:crypto';
import { copyFile, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type FakeS3Server, startFakeS3Server } from '../test/fake-s3-server.js';
import { DocumentVaultError, type DocumentVaultErrorCode } from './errors.js';
import { parseDocumentKeyring } from './keyring.js';
import { createLocalFolderObjectStore } from './local-folder.js';
import { createS3ObjectStore } from './s3.js';
import { createDocumentVault } from './vault.js';

const PNG_MAGIC = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const MARKER = 'NATIONAL ID 12345678 WANJIRU';

/** A PNG-looking document: the PNG signature and chunk names, and readable personal details. */
function documentBytes(): Buffer {
  return Buffer.concat([
    PNG_MAGIC,
    Buffer.from('\x00\x00\x00\x0dIHDR\x00\x00\x02\x58\x00\x00\x03\x20\x08\x02\x00\x00\x00', 'latin1'),
    Buffer.from(`tEXtComment\x00${MARKER}`, 'latin1'),
    randomBytes(2000),
    Buffer.from('IEND', 'latin1'),
  ]);
}

const entryA = `a:${randomBytes(32).toString('base64')}`;
const entryB = `b:${randomBytes(32).toString('base64')}`;

let root: string;
let directory: string;

beforeEach(async () => {
  root = await mkdtemp(path.join(tmpdir(), 'document-vault-'));
  directory = path.join(root, 'store');
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

function localVault(keyringValue: string) {
  return createDocumentVault({
    store: createLocalFolderObjectStore({ directory }),
    keyring: parseDocumentKeyring(keyringValue),
  });
}

async function readError(read: Promise<unknown>): Promise<DocumentVaultErrorCode> {
  try {
    await read;
  } catch (error) {
    if (error instanceof DocumentVaultError) return error.code;
    throw error;
  }
  throw new Error('expected a DocumentVaultError');
}

/** Offset of the content part (content IV onwards) in a sealed file whose key id is `keyIdLength` long. */
const contentOffset = (keyIdLength: number) => 6 + keyIdLength + 12 + 32 + 16;

describe('document vault', () => {
  it('stores a document and reads it back with its content type, size, SHA-256 and key id', async () => {
    const vault = localVault(entryA);
    const bytes = documentBytes();

    const stored = await vault.store({ key: 'kyc/s1/front', bytes, contentType: 'image/png' });

    expect(stored).toEqual({
      key: 'kyc/s1/front',
      keyId: 'a',
      size: bytes.length,
      sha256: createHash('sha256').update(bytes).digest('hex'),
    });
    const read = await vault.read('kyc/s1/front');
    expect(read?.contentType).toBe('image/png');
    expect(read?.keyId).toBe('a');
    expect(read?.bytes.equals(bytes)).toBe(true);
  });

  it('keeps an empty document and a content type with parameters', async () => {
    const vault = localVault(entryA);
    await vault.store({ key: 'kyb/s1/note', bytes: new Uint8Array(0), contentType: 'text/plain; charset=utf-8' });
    const read = await vault.read('kyb/s1/note');
    expect(read?.contentType).toBe('text/plain; charset=utf-8');
    expect(read?.bytes.length).toBe(0);
  });

  it('refuses a content type the format cannot keep, and an unsafe key, storing nothing', async () => {
    const vault = localVault(entryA);
    await expect(vault.store({ key: 'kyc/s1/a', bytes: documentBytes(), contentType: '' })).rejects.toThrow();
    await expect(
      vault.store({ key: 'kyc/s1/a', bytes: documentBytes(), contentType: 'x'.repeat(256) }),
    ).rejects.toThrow();
    await expect(
      vault.store({ key: 'kyc/s1/a', bytes: documentBytes(), contentType: 'image/png\n' }),
    ).rejects.toThrow();
    await expect(vault.store({ key: '../a', bytes: documentBytes(), contentType: 'image/png' })).rejects.toThrow(
      /unsafe/,
    );
    expect(await vault.read('kyc/s1/a')).toBeNull();
  });

  it('answers null for a document never stored', async () => {
    expect(await localVault(entryA).read('kyc/s1/missing')).toBeNull();
  });

  it('writes files that show neither the document nor its type, and differ for the same document', async () => {
    const vault = localVault(entryA);
    const bytes = documentBytes();
    await vault.store({ key: 'kyc/s1/front', bytes, contentType: 'image/png' });
    await vault.store({ key: 'kyc/s1/copy', bytes, contentType: 'image/png' });

    const raw = await readFile(path.join(directory, 'kyc/s1/front'));
    const copy = await readFile(path.join(directory, 'kyc/s1/copy'));
    for (const file of [raw, copy]) {
      expect(file.includes(PNG_MAGIC)).toBe(false);
      expect(file.includes(Buffer.from('IHDR'))).toBe(false);
      expect(file.includes(Buffer.from(MARKER))).toBe(false);
      expect(file.includes(Buffer.from('image/png'))).toBe(false);
      expect(file.includes(bytes.subarray(100, 116))).toBe(false);
    }
    // Each file has its own data key and IVs: nothing of the content part repeats.
    expect(raw.subarray(contentOffset(1)).equals(copy.subarray(contentOffset(1)))).toBe(false);
    expect(raw.subarray(6 + 1, 6 + 1 + 60).equals(copy.subarray(6 + 1, 6 + 1 + 60))).toBe(false);
  });

  it('cannot be read without its master key: another key under the same id, or another id', async () => {
    await localVault(entryA).store({ key: 'kyc/s1/front', bytes: documentBytes(), contentType: 'image/png' });

    expect(await readError(localVault(`a:${randomBytes(32).toString('base64')}`).read('kyc/s1/front'))).toBe(
      'authentication_failed',
    );
    expect(await readError(localVault(entryB).read('kyc/s1/front'))).toBe('unknown_key_id');
  });

  it('detects a change to any byte of the header, and to the ciphertext', async () => {
    const vault = localVault(entryA);
    await vault.store({ key: 'kyc/s1/front', bytes: documentBytes(), contentType: 'image/png' });
    const filePath = path.join(directory, 'kyc/s1/front');
    const original = await readFile(filePath);
    const headerLength = contentOffset(1) + 12 + 16;
    const ciphertextOffsets = [headerLength, headerLength + 1, headerLength + 500, original.length - 1];

    const codes = new Set<DocumentVaultErrorCode>();
    for (const offset of [...Array.from({ length: headerLength }, (_, index) => index), ...ciphertextOffsets]) {
      const changed = Buffer.from(original);
      changed[offset] = (changed[offset] ?? 0) ^ 0x01;
      await writeFile(filePath, changed);
      codes.add(await readError(vault.read('kyc/s1/front')));
    }
    expect([...codes].sort()).toEqual(['authentication_failed', 'malformed', 'unknown_key_id']);

    for (const length of [0, 3, 5, headerLength - 1, headerLength, original.length - 1]) {
      await writeFile(filePath, original.subarray(0, length));
      expect(['malformed', 'authentication_failed']).toContain(await readError(vault.read('kyc/s1/front')));
    }
    await writeFile(filePath, Buffer.concat([original, Buffer.from([0])]));
    expect(await readError(vault.read('kyc/s1/front'))).toBe('authentication_failed');

    await writeFile(filePath, original);
    expect((await vault.read('kyc/s1/front'))?.contentType).toBe('image/png');
  });

  it('refuses a file copied under another key (another person’s document)', async () => {
    const vault = localVault(entryA);
    await vault.store({ key: 'kyc/s1/front', bytes: documentBytes(), contentType: 'image/png' });
    await mkdir(path.join(directory, 'kyc/s2'));
    await copyFile(path.join(directory, 'kyc/s1/front'), path.join(directory, 'kyc/s2/front'));
    expect(await readError(vault.read('kyc/s2/front'))).toBe('authentication_failed');
  });

  it('refuses a file that is not a vault file', async () => {
    const vault = localVault(entryA);
    await createLocalFolderObjectStore({ directory }).put('kyc/s1/plain', documentBytes(), 'image/png');
    expect(await readError(vault.read('kyc/s1/plain'))).toBe('malformed');
  });

  it('erases one document, then every document under a prefix, idempotently', async () => {
    const vault = localVault(entryA);
    for (const key of ['kyc/s1/front', 'kyc/s1/selfie', 'kyc/s10/front']) {
      await vault.store({ key, bytes: documentBytes(), contentType: 'image/png' });
    }
    await vault.erase('kyc/s1/front');
    await vault.erase('kyc/s1/front');
    expect(await vault.read('kyc/s1/front')).toBeNull();
    expect(await vault.read('kyc/s1/selfie')).not.toBeNull();

    await vault.eraseAll('kyc/s1/');
    await vault.eraseAll('kyc/s1/');
    expect(await vault.read('kyc/s1/selfie')).toBeNull();
    expect(await vault.read('kyc/s10/front')).not.toBeNull();
  });

  it('rotates keys: old files read after a new key becomes current, rewrap moves them, the old key can go', async () => {
    const bytes = documentBytes();
    await localVault(entryA).store({ key: 'kyc/s1/front', bytes, contentType: 'image/png' });
    const underA = await readFile(path.join(directory, 'kyc/s1/front'));

    // B becomes current; A is kept to read older files.
    const rotating = localVault(`${entryB},${entryA}`);
    expect((await rotating.read('kyc/s1/front'))?.keyId).toBe('a');
    expect((await rotating.store({ key: 'kyc/s2/front', bytes, contentType: 'image/png' })).keyId).toBe('b');

    expect(await rotating.rewrap('kyc/s1/front')).toEqual({ keyId: 'b', rewrapped: true });
    expect(await rotating.rewrap('kyc/s1/front')).toEqual({ keyId: 'b', rewrapped: false });
    expect(await rotating.rewrap('kyc/s2/front')).toEqual({ keyId: 'b', rewrapped: false });
    expect(await rotating.rewrap('kyc/s1/missing')).toBeNull();

    // Only the wrapping changed: the content part is the same bytes, not encrypted again.
    const underB = await readFile(path.join(directory, 'kyc/s1/front'));
    expect(underB.subarray(contentOffset(1)).equals(underA.subarray(contentOffset(1)))).toBe(true);
    expect(underB.subarray(0, contentOffset(1)).equals(underA.subarray(0, contentOffset(1)))).toBe(false);

    // A dropped: every file still reads under B alone, and A alone reads none of them.
    const afterRotation = localVault(entryB);
    for (const key of ['kyc/s1/front', 'kyc/s2/front']) {
      const read = await afterRotation.read(key);
      expect(read?.keyId).toBe('b');
      expect(read?.bytes.equals(bytes)).toBe(true);
      expect(await readError(localVault(entryA).read(key))).toBe('unknown_key_id');
    }
  });

  it('does not rewrap a file whose data key fails authentication, and leaves it as it was', async () => {
    await localVault(entryA).store({ key: 'kyc/s1/front', bytes: documentBytes(), contentType: 'image/png' });
    const filePath = path.join(directory, 'kyc/s1/front');
    const changed = await readFile(filePath);
    changed[6 + 1 + 12] = (changed[6 + 1 + 12] ?? 0) ^ 0xff;
    await writeFile(filePath, changed);

    expect(await readError(localVault(`${entryB},${entryA}`).rewrap('kyc/s1/front'))).toBe('authentication_failed');
    expect((await readFile(filePath)).equals(changed)).toBe(true);
  });
});

describe('sealed records', () => {
  it('seals a record kept elsewhere, opens it only under its own key, and rewraps it on rotation', async () => {
    const record = Buffer.from(JSON.stringify({ idType: 'national_id', idNumber: '12345678' }));
    const vault = localVault(entryA);
    const { sealed, keyId } = vault.seal({ key: 'kyc/s1/details', bytes: record, contentType: 'application/json' });
    expect(keyId).toBe('a');
    expect(sealed.includes(Buffer.from('12345678'))).toBe(false);
    expect(sealed.includes(Buffer.from('application/json'))).toBe(false);
    const opened = vault.open('kyc/s1/details', sealed);
    expect(opened.bytes.equals(record)).toBe(true);
    expect(opened.contentType).toBe('application/json');
    // Nothing went to the store.
    expect(await vault.read('kyc/s1/details')).toBeNull();

    // Another session's row, a changed byte, another master key: none reads.
    expect(() => vault.open('kyc/s2/details', sealed)).toThrow(DocumentVaultError);
    const changed = Buffer.from(sealed);
    changed[changed.length - 1] = (changed[changed.length - 1] ?? 0) ^ 0xff;
    expect(() => vault.open('kyc/s1/details', changed)).toThrow(DocumentVaultError);
    expect(() => localVault(entryB).open('kyc/s1/details', sealed)).toThrow(DocumentVaultError);

    const rotating = localVault(`${entryB},${entryA}`);
    const rewrapped = rotating.rewrapSealed('kyc/s1/details', sealed);
    expect(rewrapped).not.toBeNull();
    expect(rotating.rewrapSealed('kyc/s1/details', rewrapped ?? Buffer.alloc(0))).toBeNull();
    expect(
      localVault(entryB)
        .open('kyc/s1/details', rewrapped ?? Buffer.alloc(0))
        .bytes.equals(record),
    ).toBe(true);
  });

  it('digests a value under a key of its own per purpose and master key, the earlier keys kept for a rotation', () => {
    const vault = localVault(entryA);
    const first = vault.digest('id-number', 'national_id:12345678');
    expect(first.current).toMatch(/^[0-9a-f]{64}$/);
    expect(first.all).toEqual([first.current]);
    // The same value and key digest alike; another value, purpose or master key does not.
    expect(localVault(entryA).digest('id-number', 'national_id:12345678').current).toBe(first.current);
    expect(vault.digest('id-number', 'national_id:12345679').current).not.toBe(first.current);
    expect(vault.digest('other', 'national_id:12345678').current).not.toBe(first.current);
    expect(localVault(entryB).digest('id-number', 'national_id:12345678').current).not.toBe(first.current);
    // Nothing of the value shows.
    expect(first.current).not.toContain('12345678');

    const rotated = localVault(`${entryB},${entryA}`).digest('id-number', 'national_id:12345678');
    expect(rotated.all).toHaveLength(2);
    expect(rotated.current).not.toBe(first.current);
    expect(rotated.all[1]).toBe(first.current);
  });
});

describe('document vault on S3', () => {
  let fake: FakeS3Server;
  beforeAll(async () => {
    fake = await startFakeS3Server('documents-bucket');
  });
  afterAll(async () => {
    await fake?.close();
  });

  it('sends the bucket only ciphertext, typed as octet-stream, and reads it back', async () => {
    const vault = createDocumentVault({
      store: createS3ObjectStore({
        endpoint: fake.endpoint,
        region: 'eu-west-1',
        bucket: 'documents-bucket',
        accessKeyId: 'test-access-key',
        secretAccessKey: 'test-secret-key',
      }),
      keyring: parseDocumentKeyring(entryA),
    });
    const bytes = documentBytes();

    await vault.store({ key: 'kyc/s1/selfie', bytes, contentType: 'image/png' });

    const put = fake.requests.find((request) => request.method === 'PUT');
    expect(put?.headers['content-type']).toBe('application/octet-stream');
    for (const body of [put?.body, fake.objects.get('kyc/s1/selfie')?.body]) {
      expect(body?.length).toBeGreaterThan(bytes.length);
      expect(body?.includes(PNG_MAGIC)).toBe(false);
      expect(body?.includes(Buffer.from(MARKER))).toBe(false);
      expect(body?.includes(Buffer.from('image/png'))).toBe(false);
    }
    expect((await vault.read('kyc/s1/selfie'))?.bytes.equals(bytes)).toBe(true);

    await vault.eraseAll('kyc/s1/');
    expect(fake.objects.size).toBe(0);
  });
});
