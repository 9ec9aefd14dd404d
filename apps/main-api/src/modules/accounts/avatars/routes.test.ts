import { readdir } from 'node:fs/promises';
import { avatarUploads, users } from '@platform/db/schema';
import {
  blackPng,
  COMMENT_SEGMENT,
  contains,
  exifSegment,
  jpeg,
  pdf,
  png,
  pngChunk,
  withJpegSegments,
  withPngChunks,
  zipArchive,
} from '@platform/document-checks/testing';
import { eq } from 'drizzle-orm';
import { fileTypeFromBuffer } from 'file-type';
import { imageSize } from 'image-size';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { authHeader, createTestApp, insertUser, type TestApp } from '../../../../test/helpers.js';
import { type FilePart, multipart, tinyJpeg, tinyPng, tinyWebp } from '../../../../test/images.js';
import { AVATAR_MAX_PIXELS } from './service.js';

const USER = 'user_avatar_a';
const OTHER = 'user_avatar_b';
// Room for a 30000x30000 PNG of half a megabyte, which the pixel limit refuses.
const MAX_BYTES = 1024 * 1024;

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp({ env: { AVATAR_MAX_BYTES: String(MAX_BYTES), BODY_LIMIT_BYTES: '4096' } });
});
afterAll(async () => {
  await t?.close();
});
beforeEach(async () => {
  await t.db.delete(users);
  await insertUser(t.db, { id: USER });
  await insertUser(t.db, { id: OTHER });
});

async function upload(userId: string, parts: FilePart[]) {
  const { payload, headers } = multipart(parts);
  return t.app.inject({
    method: 'POST',
    url: '/v1/auth/avatar',
    headers: { ...headers, ...(await authHeader(userId)) },
    payload,
  });
}

function image(data: Buffer, overrides: Partial<FilePart> = {}): FilePart {
  return { field: 'file', filename: 'me.png', contentType: 'image/png', data, ...overrides };
}

async function uploadsOf(userId: string) {
  return t.db.select().from(avatarUploads).where(eq(avatarUploads.userId, userId));
}

async function storedFiles(): Promise<string[]> {
  const entries = await readdir(t.avatarDir, { recursive: true, withFileTypes: true });
  return entries.filter((entry) => entry.isFile()).map((entry) => entry.name);
}

function pathOf(url: string): string {
  return new URL(url).pathname;
}

describe('POST /v1/auth/avatar', () => {
  it.each([
    ['PNG', tinyPng(), 'image/png', 'png'],
    ['JPEG', tinyJpeg(), 'image/jpeg', 'jpg'],
    ['WebP', tinyWebp(), 'image/webp', 'webp'],
  ])(
    'stores a cleaned copy of a %s, by its content, and serves it back',
    async (_label, bytes, contentType, extension) => {
      // The declared type and file name are deliberately wrong: only the bytes count.
      const response = await upload(USER, [
        image(bytes, { filename: 'upload.bin', contentType: 'application/octet-stream' }),
      ]);
      expect(response.statusCode).toBe(201);
      const { url } = response.json().data;
      expect(response.json()).toEqual({ success: true, data: { url } });
      expect(url).toMatch(new RegExp(`^${t.config.publicUrl}/v1/files/avatars/${USER}/[0-9a-f-]{36}\\.${extension}$`));

      const served = await t.app.inject({ method: 'GET', url: pathOf(url) });
      expect(served.statusCode).toBe(200);
      expect(served.headers['content-type']).toBe(contentType);
      expect(served.headers['x-content-type-options']).toBe('nosniff');
      expect(served.headers['cross-origin-resource-policy']).toBe('cross-origin');
      // The same format, the same picture, encoded again.
      expect(await fileTypeFromBuffer(served.rawPayload)).toMatchObject({ mime: contentType });
      expect(imageSize(served.rawPayload)).toMatchObject({ width: 1, height: 1 });

      const [row] = await uploadsOf(USER);
      expect(row).toMatchObject({
        url,
        contentType,
        sizeBytes: served.rawPayload.length,
        storageKey: url.split('/v1/files/')[1],
      });
    },
  );

  it('serves a photo without its EXIF: no address in ImageDescription, no GPS position', async () => {
    const address = 'Home: 14 Riverside Drive, Nairobi';
    const photo = withJpegSegments(await jpeg(64, 48), exifSegment({ description: address }), COMMENT_SEGMENT);
    expect(contains(photo, address)).toBe(true);
    const response = await upload(USER, [image(photo, { filename: 'me.jpg', contentType: 'image/jpeg' })]);
    expect(response.statusCode, response.body).toBe(201);

    const served = (await t.app.inject({ method: 'GET', url: pathOf(response.json().data.url) })).rawPayload;
    for (const marker of ['Exif', 'Riverside', 'Nairobi', 'taken at home'])
      expect(contains(served, marker), marker).toBe(false);
    expect(served.includes(Buffer.from([0x25, 0x88]))).toBe(false); // the GPSInfo tag, little-endian
    expect(imageSize(served)).toMatchObject({ type: 'jpg', width: 64, height: 48 });
  });

  it('serves a PNG without its text and EXIF chunks', async () => {
    const picture = withPngChunks(
      await png(40, 30),
      pngChunk('tEXt', Buffer.from('Comment\0Home: 14 Riverside Drive', 'latin1')),
      pngChunk('eXIf', exifSegment().subarray(10)),
    );
    const response = await upload(USER, [image(picture)]);
    expect(response.statusCode, response.body).toBe(201);
    const served = (await t.app.inject({ method: 'GET', url: pathOf(response.json().data.url) })).rawPayload;
    for (const marker of ['tEXt', 'eXIf', 'Riverside']) expect(contains(served, marker), marker).toBe(false);
    expect(imageSize(served)).toMatchObject({ type: 'png', width: 40, height: 30 });
  });

  it.each([
    ['a 30000x30000 PNG (900 megapixels in half a megabyte)', () => blackPng(30_000, 30_000)],
    // Its image data is cut short: only the header tells its size, so the refusal was made before any decoding.
    ['a PNG whose header alone says 30000x30000', () => blackPng(30_000, 30_000, { imageData: false })],
  ])('answers 413 for %s, saying what is accepted, and stores nothing', async (_label, make) => {
    const bytes = make();
    expect(bytes.length).toBeLessThan(MAX_BYTES);
    const filesBefore = await storedFiles();
    const response = await upload(USER, [image(bytes)]);
    expect(response.statusCode).toBe(413);
    expect(response.json()).toMatchObject({
      success: false,
      code: 'payload_too_large',
      error: `The image is 30000x30000 pixels; at most ${AVATAR_MAX_PIXELS.toLocaleString('en-US')} pixels (25 megapixels) are accepted: send a smaller copy`,
    });
    expect(await uploadsOf(USER)).toEqual([]);
    expect(await storedFiles()).toEqual(filesBefore);
  });

  it.each([
    ['a PNG with a PDF appended', async () => Buffer.concat([await png(40, 30), await pdf(1)])],
    ['a JPEG with a ZIP archive appended', async () => Buffer.concat([await jpeg(40, 30), zipArchive('a.txt', 'x')])],
    [
      'a PNG whose text chunk holds a PDF',
      async () =>
        withPngChunks(await png(40, 30), pngChunk('tEXt', Buffer.concat([Buffer.from('Comment\0'), await pdf(1)]))),
    ],
  ])('answers 400 for a polyglot, %s, and stores nothing', async (_label, make) => {
    const filesBefore = await storedFiles();
    const response = await upload(USER, [image(await make())]);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({
      success: false,
      code: 'validation_error',
      error: expect.stringMatching(/send a plain photo/),
      details: [{ path: '/file' }],
    });
    expect(await uploadsOf(USER)).toEqual([]);
    expect(await storedFiles()).toEqual(filesBefore);
  });

  it('answers 400 for a damaged image, and stores nothing', async () => {
    const picture = await png(40, 30);
    const at = picture.length - 20; // inside the image data: its CRC no longer matches
    picture[at] = (picture[at] as number) ^ 0xff;
    const response = await upload(USER, [image(picture)]);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ code: 'validation_error', details: [{ path: '/file' }] });
    expect(await uploadsOf(USER)).toEqual([]);
  });

  it('accepts the file in a field named "avatar"', async () => {
    const response = await upload(USER, [image(tinyPng(), { field: 'avatar' })]);
    expect(response.statusCode).toBe(201);
  });

  it('accepts an image larger than the JSON body limit', async () => {
    const bytes = tinyPng(32 * 1024);
    expect(bytes.length).toBeGreaterThan(t.config.bodyLimitBytes);
    const response = await upload(USER, [image(bytes)]);
    expect(response.statusCode).toBe(201);
  });

  it('refuses a text file named .png with 415 and stores nothing', async () => {
    const filesBefore = await storedFiles();
    const response = await upload(USER, [image(Buffer.from('definitely not an image\n'.repeat(10)))]);
    expect(response.statusCode).toBe(415);
    expect(response.json()).toMatchObject({ success: false, code: 'unsupported_media_type' });
    expect(await uploadsOf(USER)).toEqual([]);
    expect(await storedFiles()).toEqual(filesBefore);
  });

  it('refuses a GIF, an image format it does not accept', async () => {
    const gif = Buffer.from('R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7', 'base64');
    const response = await upload(USER, [image(gif, { filename: 'me.gif', contentType: 'image/gif' })]);
    expect(response.statusCode).toBe(415);
  });

  it('answers 413 for a file over the limit and stores nothing', async () => {
    const filesBefore = await storedFiles();
    const response = await upload(USER, [image(tinyPng(MAX_BYTES))]);
    expect(response.statusCode).toBe(413);
    expect(response.json()).toMatchObject({
      success: false,
      code: 'payload_too_large',
      error: `The avatar must be at most ${MAX_BYTES} bytes`,
    });
    expect(await uploadsOf(USER)).toEqual([]);
    expect(await storedFiles()).toEqual(filesBefore);
  });

  it('answers 400 naming the field when the file is in another field', async () => {
    const response = await upload(USER, [image(tinyPng(), { field: 'picture' })]);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({
      code: 'validation_error',
      details: [{ path: '/picture', message: 'is not allowed' }],
    });
    expect(await uploadsOf(USER)).toEqual([]);
  });

  it.each([
    ['two files in "file"', [image(tinyPng()), image(tinyJpeg())]],
    ['a file in "file" and one in "avatar"', [image(tinyPng()), image(tinyPng(), { field: 'avatar' })]],
  ])('answers 413 for %s and stores nothing', async (_label, parts) => {
    const filesBefore = await storedFiles();
    const response = await upload(USER, parts);
    expect(response.statusCode).toBe(413);
    expect(response.json()).toMatchObject({ code: 'payload_too_large', error: expect.stringContaining('one image') });
    expect(await uploadsOf(USER)).toEqual([]);
    expect(await storedFiles()).toEqual(filesBefore);
  });

  it.each([
    ['after the file', [image(tinyPng()), { field: 'caption', data: Buffer.from('me') }]],
    ['before the file', [{ field: 'userId', data: Buffer.from('user_avatar_b') }, image(tinyPng())]],
  ] as const)('answers 400 naming a text field %s, and stores nothing', async (_label, parts) => {
    const response = await upload(USER, [...parts] as FilePart[]);
    expect(response.statusCode).toBe(400);
    const field = parts.find((part) => !('filename' in part))?.field;
    expect(response.json()).toMatchObject({
      code: 'validation_error',
      details: [{ path: `/${field}`, message: 'is not allowed' }],
    });
    expect(await uploadsOf(USER)).toEqual([]);
  });

  it('answers 400 for the "file" field sent as text', async () => {
    const response = await upload(USER, [{ field: 'file', data: Buffer.from('iVBORw0KGgo=') }]);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({
      code: 'validation_error',
      details: [{ path: '/file', message: 'must be a file' }],
    });
  });

  it('answers 400 for an empty file', async () => {
    const response = await upload(USER, [image(Buffer.alloc(0))]);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ code: 'validation_error' });
  });

  it.each([
    ['a body without parts', 'multipart/form-data; boundary=xyz'],
    ['a content type without boundary', 'multipart/form-data'],
  ])('answers 400 for a malformed multipart body: %s', async (_label, contentType) => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/v1/auth/avatar',
      headers: { ...(await authHeader(USER)), 'content-type': contentType },
      payload: 'not multipart at all',
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ success: false, code: 'bad_request' });
  });

  it('answers 415 for a JSON body', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/v1/auth/avatar',
      headers: { ...(await authHeader(USER)), 'content-type': 'application/json' },
      payload: { file: 'abc' },
    });
    expect(response.statusCode).toBe(415);
    expect(response.json()).toMatchObject({ code: 'unsupported_media_type' });
  });

  it('answers 401 without a token', async () => {
    const filesBefore = await storedFiles();
    const { payload, headers } = multipart([image(tinyPng())]);
    const response = await t.app.inject({ method: 'POST', url: '/v1/auth/avatar', headers, payload });
    expect(response.statusCode).toBe(401);
    expect(response.headers['www-authenticate']).toMatch(/^Bearer/);
    expect(await storedFiles()).toEqual(filesBefore);
  });

  it('answers 404 "Profile not found" for a user without a record', async () => {
    const response = await upload('user_avatar_ghost', [image(tinyPng())]);
    expect(response.statusCode).toBe(404);
    expect(response.json()).toMatchObject({ error: 'Profile not found' });
  });

  it('lets the user set the issued URL as avatarUrl, and refuses it to another user', async () => {
    const { url } = (await upload(USER, [image(tinyPng())])).json().data;
    const patch = (userId: string) =>
      authHeader(userId).then((auth) =>
        t.app.inject({ method: 'PATCH', url: '/v1/accounts/me', headers: auth, payload: { avatarUrl: url } }),
      );

    const refused = await patch(OTHER);
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toMatchObject({ code: 'validation_error', details: [{ path: '/avatarUrl' }] });

    const accepted = await patch(USER);
    expect(accepted.statusCode).toBe(200);
    const profile = await t.app.inject({ method: 'GET', url: '/v1/accounts/me', headers: await authHeader(USER) });
    expect(profile.json().data.avatarUrl).toBe(url);
    const [other] = await t.db.select().from(users).where(eq(users.id, OTHER));
    expect(other?.avatarUrl).toBeNull();
  });
});

describe('GET /v1/files/*', () => {
  it.each([
    ['an unknown key', '/v1/files/avatars/user_x/6a0c7f3e-3a52-4f0e-9c1d-8d5f0b7e2a10.png'],
    ['a relative path', '/v1/files/../../package.json'],
    ['an encoded relative path', '/v1/files/avatars%2F..%2F..%2Fpackage.json'],
    ['a key outside the avatar layout', '/v1/files/secrets.txt'],
  ])('answers 404 for %s', async (_label, url) => {
    const response = await t.app.inject({ method: 'GET', url });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toMatchObject({ success: false, code: 'not_found' });
  });

  it('needs no token', async () => {
    const { url } = (await upload(USER, [image(tinyPng())])).json().data;
    const response = await t.app.inject({ method: 'GET', url: pathOf(url) });
    expect(response.statusCode).toBe(200);
    expect(response.headers['cache-control']).toContain('immutable');
  });
});
